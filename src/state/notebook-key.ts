import { isColabHost } from '../colab/origins';
import { cut, TEXT_LIMITS } from '../limits';
import { isNotebookKey, withoutUnsafeText } from './storage-keys';

/**
 * Stable notebook identity from a Colab URL (REFERENCE.md §6). The key names one notebook however the user reached it:
 * query parameters (`authuser`, `usp`, `sandboxMode`), fragments (`#scrollTo=`, `#notebook-main`), trailing slashes and
 * percent-encoding differences all map to the same key.
 *
 * Decisions:
 * - Only Colab's hosts count (colab/origins.ts: the content scripts match nothing else), and the host is not part of
 *   the key: the same Drive notebook opened on colab.research.google.com and on colab.google.com is one notebook.
 * - `/` and `/#create=true` (a new notebook not yet saved; Colab moves to `/drive/<id>` once it is) name no notebook.
 * - The scratchpad `/notebooks/empty.ipynb` is `notebooks:empty`, like any bundled notebook.
 * - Path segments are percent-decoded, so `my%20nb.ipynb` and `my nb.ipynb` give the same key.
 * - GitHub owner and repository names are case-insensitive on GitHub, so they are lower-cased; ref and path are not.
 * - `#fileId=` holding a bare Drive id (the legacy `/notebook#fileId=<id>` form) is `drive:<id>`, otherwise
 *   `url:<decoded>`.
 */

const DRIVE_ID = /^[A-Za-z0-9_-]+$/;
// Drive ids are 25+ characters; a shorter bare value in #fileId= is more likely something else, so it stays `url:`.
const BARE_DRIVE_ID = /^[A-Za-z0-9_-]{25,}$/;

export function notebookKeyFromUrl(url: string): string | null {
  const parsed = parseUrl(url);
  if (parsed?.protocol !== 'https:' || !isColabHost(parsed.hostname)) return null;
  const segments = parsed.pathname
    .split('/')
    .filter((s) => s !== '')
    .map(safeDecode);
  const key = keyFromPath(segments) ?? keyFromFragment(parsed.hash);
  // Decoding can give what storage refuses (a control or bidirectional character, an over-long #fileId=): no notebook.
  return key !== null && isNotebookKey(key) ? key : null;
}

function keyFromPath(segments: string[]): string | null {
  const [kind, ...rest] = segments;
  switch (kind) {
    case 'drive':
      return driveKey(rest);
    case 'github':
      return githubKey(rest);
    case 'gist':
      return gistKey(rest);
    case 'notebooks':
      return rest.length > 0 ? nonEmpty('notebooks:', withoutIpynb(rest.join('/'))) : null;
    default:
      return null;
  }
}

function driveKey(rest: string[]): string | null {
  const [fileId] = rest;
  if (rest.length !== 1 || fileId === undefined || !DRIVE_ID.test(fileId)) return null;
  return `drive:${fileId}`;
}

/** `/github/<owner>/<repo>/blob/<ref>/<path>.ipynb`; a ref with slashes just joins the path: keys stay unique. */
function githubKey(rest: string[]): string | null {
  const [owner, repo, blob, ...refAndPath] = rest;
  if (owner === undefined || repo === undefined || blob !== 'blob' || refAndPath.length < 2) return null;
  return `github:${owner.toLowerCase()}/${repo.toLowerCase()}/${withoutIpynb(refAndPath.join('/'))}`;
}

/** `/gist/<user>/<gistId>[/<file>.ipynb]`: the user is dropped because the gist id alone is unique. */
function gistKey(rest: string[]): string | null {
  const [user, gistId, ...file] = rest;
  if (user === undefined || gistId === undefined) return null;
  const fileName = withoutIpynb(file.join('/'));
  return fileName === '' ? `gist:${gistId}` : `gist:${gistId}/${fileName}`;
}

/** `#fileId=<URL-encoded URL>`, possibly combined with other parts such as `scrollTo=`. */
function keyFromFragment(hash: string): string | null {
  const part = hash
    .replace(/^#/, '')
    .split('&')
    .find((p) => p.startsWith('fileId='));
  if (part === undefined) return null;
  const value = safeDecode(part.slice('fileId='.length)).trim();
  if (value === '') return null;
  return BARE_DRIVE_ID.test(value) ? `drive:${value}` : `url:${value}`;
}

function withoutIpynb(path: string): string {
  return path.endsWith('.ipynb') ? path.slice(0, -'.ipynb'.length) : path;
}

function nonEmpty(prefix: string, value: string): string | null {
  return value === '' ? null : prefix + value;
}

function parseUrl(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** A malformed escape (`%E0%A4%A`) is kept as written rather than failing the whole URL. */
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

const TITLE_SUFFIX = /\s+[-–—|]\s+(?:google\s+)?colab(?:oratory)?\s*$/i;
const BARE_PRODUCT_NAME = /^(?:google\s+)?colab(?:oratory)?$/i;

/**
 * The notebook's name from `document.title`: "<name> - Colab" (older "<name> - Colaboratory"). Titles without the
 * suffix (seen with some locales) are taken whole. A page still loading shows only the product name: that gives ''.
 * Control and bidirectional characters are removed: the name is shown in the popup and in notifications.
 */
export function notebookTitleFromDocumentTitle(title: string): string {
  const name = withoutUnsafeText(title).trim().replace(TITLE_SUFFIX, '').trim();
  if (BARE_PRODUCT_NAME.test(name)) return '';
  return cut(name, TEXT_LIMITS.title);
}
