import { isColabHost } from '../site/hosts';
import { isNotebookKey } from './storage-keys';

/**
 * Stable notebook identity from a Colab URL (REFERENCE.md §6, §12.1, §12.2). The key names one notebook however the
 * user reached it: the host, query parameters (`authuser`, `usp`, `hl`, `dbu`, `sandboxMode`), fragments
 * (`#scrollTo=`, `#notebook-main`, `#mcpProxyToken=`, `#datalabBackendUrl=`, `#create=true`), trailing slashes and
 * percent-encoding differences all map to the same key.
 *
 * Decisions:
 * - Only Colab's hosts count (site/origins.ts: the content scripts match nothing else), and the host is not part of
 *   the key: the same Drive notebook opened on colab.research.google.com and on colab.google.com is one notebook.
 * - A scratch notebook (§12.2: `/notebooks/empty.ipynb` with any query or fragment, as colab-mcp and
 *   google-colab-cli open it; `/#create=true`, a new notebook not saved yet) is a new notebook each time: its
 *   address names no notebook (`notebookKeyFromUrl` gives null, scratch.ts's `isScratchUrl` true). The service worker
 *   gives the page that shows one a key made of the tab and the page document (`pageNotebookKey`), for as long as
 *   it shows it.
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

/** Keys of scratch notebooks start so (scratch.ts); alone, it is what an address of a scratch notebook gives here. */
export const SCRATCH_PREFIX = 'scratch:';

/** The notebook key the address names; null for none and for a scratch notebook (which has no key of its own). */
export function notebookKeyFromUrl(url: string): string | null {
  const key = notebookOfUrl(url);
  return key === SCRATCH_PREFIX ? null : key;
}

/**
 * The key of the notebook a page shows: the address's, or for a scratch notebook `scratch:<pageId>`, where `pageId`
 * names the page document in its tab (`<tabId>-<document id>`). Null: no notebook.
 */
export function pageNotebookKey(url: string, pageId: string): string | null {
  const key = notebookOfUrl(url);
  return key === SCRATCH_PREFIX ? key + pageId : key;
}

/** The address's notebook key, SCRATCH_PREFIX for a scratch notebook, or null. */
export function notebookOfUrl(url: string): string | null {
  const parsed = parseUrl(url);
  if (parsed?.protocol !== 'https:' || !isColabHost(parsed.hostname)) return null;
  const segments = parsed.pathname
    .split('/')
    .filter((s) => s !== '')
    .map(safeDecode);
  const key = fromPath(segments) ?? fromFragment(parsed.hash, segments.length === 0);
  // Decoding can give what storage refuses (a control or bidirectional character, an over-long #fileId=): no notebook.
  return key === SCRATCH_PREFIX || (key !== null && isNotebookKey(key)) ? key : null;
}

function fromPath(segments: string[]): string | null {
  const [kind, ...rest] = segments;
  if (kind?.startsWith(FILE_ID) && rest.length === 0) return fileIdKey(kind);
  switch (kind) {
    case 'drive':
      return driveKey(rest);
    case 'github':
      return githubKey(rest);
    case 'gist':
      return gistKey(rest);
    case 'notebooks':
      return notebooksKey(rest);
    default:
      return null;
  }
}

/** `/notebooks/<path>.ipynb`: Colab's bundled notebooks (intro.ipynb…); its empty one is a scratch notebook. */
function notebooksKey(rest: string[]): string | null {
  const path = withoutIpynb(rest.join('/'));
  return path === 'empty' ? SCRATCH_PREFIX : nonEmpty('notebooks:', path);
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
function fromFragment(hash: string, root: boolean): string | null {
  const parts = hash.replace(/^#/, '').split('&');
  const fileId = parts.find((p) => p.startsWith(FILE_ID));
  if (fileId !== undefined) return fileIdKey(fileId);
  return root && parts.includes('create=true') ? SCRATCH_PREFIX : null;
}

function fileIdKey(part: string): string | null {
  const value = safeDecode(part.slice(FILE_ID.length)).trim();
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
