import { COLAB_HOSTS } from '../site/hosts';

/**
 * An address that opens the notebook a key names (notebook-key.ts reads keys from addresses; this goes back), for a
 * notification clicked after its tab was closed. Null where the key keeps too little to go back: a gist's key drops
 * its owner, and a scratch notebook was never saved.
 */
export function notebookAddress(key: string): string | null {
  const colon = key.indexOf(':');
  const kind = key.slice(0, colon);
  const rest = key.slice(colon + 1);
  const origin = `https://${COLAB_HOSTS[0]}`;
  switch (kind) {
    case 'drive':
      return `${origin}/drive/${rest}`;
    case 'github': {
      const [owner, repo, ...refAndPath] = rest.split('/');
      return `${origin}/github/${owner}/${repo}/blob/${refAndPath.map(encodeURIComponent).join('/')}.ipynb`;
    }
    case 'notebooks':
      return `${origin}/notebooks/${rest.split('/').map(encodeURIComponent).join('/')}.ipynb`;
    case 'url':
      return `${origin}/#fileId=${encodeURIComponent(rest)}`;
    default:
      return null;
  }
}
