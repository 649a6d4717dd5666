import { fakeBrowser } from '@webext-core/fake-browser';

/**
 * What Chrome changes in a tab by itself (load state, discarding): the fake's update() stores it and fires onUpdated.
 */
export async function chromeChanges(
  tabId: number,
  change: { url?: string; status?: string; discarded?: boolean },
): Promise<void> {
  await fakeBrowser.tabs.update(tabId, change);
}

/**
 * A page's hello for the notebook `key` (a scratch one: `scratch:<page id>`, its page document's id), as the page
 * script says it: the address and title it shows; `first`: the script's first hello (a load or a reload).
 */
export function pageHello(key: string | null, title = '', first = true, origin = 'https://colab.research.google.com') {
  return { type: 'page-hello', url: addressOf(key, origin), page: pageIdOf(key), title, first };
}

function pageIdOf(key: string | null): string {
  return key?.startsWith('scratch:') ? key.slice('scratch:'.length) : 'p1';
}

/** An address that shows the notebook `key` (drive:, github:, scratch:, or none). */
export function addressOf(key: string | null, origin = 'https://colab.research.google.com'): string {
  if (key === null) return `${origin}/`;
  if (key.startsWith('scratch:')) return `${origin}/notebooks/empty.ipynb`;
  const [kind, rest] = [key.slice(0, key.indexOf(':')), key.slice(key.indexOf(':') + 1)];
  return `${origin}/${kind}/${encodeURIComponent(rest)}`;
}
