import { isColabHost } from '../colab/origins';
import { cut, TEXT_LIMITS } from '../limits';
import { isNotebookKey, withoutUnsafeText } from './storage-keys';

/**
 * Stable notebook identity from a Colab URL (REFERENCE.md §6, §12.1, §12.2). The key names one notebook however the
 * user reached it: the host, query parameters (`authuser`, `usp`, `hl`, `dbu`, `sandboxMode`), fragments
 * (`#scrollTo=`, `#notebook-main`, `#mcpProxyToken=`, `#datalabBackendUrl=`, `#create=true`), trailing slashes and
 * percent-encoding differences all map to the same key.
 *
 * Decisions:
 * - Only Colab's hosts count (colab/origins.ts: the content scripts match nothing else), and the host is not part of
 *   the key: the same Drive notebook opened on colab.research.google.com and on colab.google.com is one notebook.
 * - A scratch notebook (§12.2: `/notebooks/empty.ipynb` with any query or fragment, as colab-mcp and
 *   google-colab-cli open it; `/#create=true`, a new notebook not saved yet) is a new notebook each time: its
 *   address names no notebook (`notebookKeyFromUrl` gives null, `isScratchUrl` true). The page that shows one gives
 *   it a key of its own for as long as it shows it (`scratchKey`), which the service worker ties to the tab.
 * - `/` alone names no notebook.
 * - Path segments are percent-decoded, so `my%20nb.ipynb` and `my nb.ipynb` give the same key.
 * - GitHub owner and repository names are case-insensitive on GitHub, so they are lower-cased; ref and path are not.
 * - `fileId=` in the fragment (`/#fileId=`, the legacy `/notebook#fileId=`) or as the path (`/fileId=`): a bare Drive
 *   id is `drive:<id>`, anything else (a URL) `url:<decoded>`.
 */

const DRIVE_ID = /^[A-Za-z0-9_-]+$/;
// Drive ids are 25+ characters; a shorter bare value in #fileId= is more likely something else, so it stays `url:`.
const BARE_DRIVE_ID = /^[A-Za-z0-9_-]{25,}$/;
const FILE_ID = 'fileId=';

/** Keys of scratch notebooks: `scratch:<tab id>-<page id>` once the service worker has tied one to its tab. */
export const SCRATCH_PREFIX = 'scratch:';
const SCRATCH = { scratch: true } as const;

type Parsed = { key: string } | typeof SCRATCH | null;

export function notebookKeyFromUrl(url: string): string | null {
  const parsed = parseNotebookUrl(url);
  return parsed && 'key' in parsed ? parsed.key : null;
}

/** Whether the address shows a scratch notebook (a new one each time it is opened). */
export function isScratchUrl(url: string): boolean {
  return parseNotebookUrl(url) === SCRATCH;
}

export function isScratchKey(key: string): boolean {
  return key.startsWith(SCRATCH_PREFIX);
}

/**
 * The key a page gives the notebook it shows: the address's, or for a scratch notebook `scratch:<pageId>`, where
 * `pageId` names the page document (any copy of the page script in it gives the same one). Null: no notebook.
 */
export function pageNotebookKey(url: string, pageId: string): string | null {
  const parsed = parseNotebookUrl(url);
  if (parsed === SCRATCH) return SCRATCH_PREFIX + pageId;
  return parsed && 'key' in parsed ? parsed.key : null;
}

/**
 * A page's scratch key tied to the tab that shows it (`scratch:<tabId>-<pageId>`): page ids are unique only within a
 * tab's history. Other keys are returned as they are.
 */
export function scratchKeyOfTab(key: string, tabId: number): string {
  if (!isScratchKey(key)) return key;
  const pageId = key.slice(SCRATCH_PREFIX.length).split('-').at(-1) ?? '';
  return `${SCRATCH_PREFIX}${tabId}-${pageId}`;
}

/** Whether the address can show the notebook `key`: its own address, or any scratch address for a scratch key. */
export function urlShowsNotebook(url: string, key: string): boolean {
  return isScratchKey(key) ? isScratchUrl(url) : notebookKeyFromUrl(url) === key;
}

function parseNotebookUrl(url: string): Parsed {
  const parsed = parseUrl(url);
  if (parsed?.protocol !== 'https:' || !isColabHost(parsed.hostname)) return null;
  const segments = parsed.pathname
    .split('/')
    .filter((s) => s !== '')
    .map(safeDecode);
  const found = fromPath(segments) ?? fromFragment(parsed.hash, segments.length === 0);
  if (found === null || !('key' in found)) return found;
  // Decoding can give what storage refuses (a control or bidirectional character, an over-long #fileId=): no notebook.
  return isNotebookKey(found.key) ? found : null;
}

function fromPath(segments: string[]): Parsed {
  const [kind, ...rest] = segments;
  if (kind?.startsWith(FILE_ID) && rest.length === 0) return fileIdKey(kind);
  switch (kind) {
    case 'drive':
      return asKey(driveKey(rest));
    case 'github':
      return asKey(githubKey(rest));
    case 'gist':
      return asKey(gistKey(rest));
    case 'notebooks':
      return notebooksKey(rest);
    default:
      return null;
  }
}

function asKey(key: string | null): Parsed {
  return key === null ? null : { key };
}

/** `/notebooks/<path>.ipynb`: Colab's bundled notebooks (intro.ipynb…); its empty one is a scratch notebook. */
function notebooksKey(rest: string[]): Parsed {
  const path = withoutIpynb(rest.join('/'));
  if (path === 'empty') return SCRATCH;
  return asKey(nonEmpty('notebooks:', path));
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

/**
 * The fragment: `fileId=<URL-encoded URL or Drive id>`, possibly among other parts such as `scrollTo=`; at the root,
 * `create=true` is a new notebook, not saved yet.
 */
function fromFragment(hash: string, root: boolean): Parsed {
  const parts = hash.replace(/^#/, '').split('&');
  const fileId = parts.find((p) => p.startsWith(FILE_ID));
  if (fileId !== undefined) return fileIdKey(fileId);
  return root && parts.includes('create=true') ? SCRATCH : null;
}

function fileIdKey(part: string): Parsed {
  const value = safeDecode(part.slice(FILE_ID.length)).trim();
  if (value === '') return null;
  return { key: BARE_DRIVE_ID.test(value) ? `drive:${value}` : `url:${value}` };
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
