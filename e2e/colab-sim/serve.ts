/**
 * What the simulator serves on Colab's real origins: the notebook page (scenario embedded as JSON), the page scripts
 * (plain ES modules from ./page, served as they are), and the cross-origin output frame page.
 */

import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COLAB_ORIGINS } from '../../src/site/origins';
import { resolveScenario } from './resolve';
import { LABEL_LANGUAGES, type LabelSet, type ResolvedScenario, type Scenario } from './scenario';

/** The default origin of a notebook's address; the simulator answers on each of Colab's origins (§12.1). */
export const COLAB_ORIGIN = 'https://colab.research.google.com';
export { COLAB_ORIGINS };
/** Where page assets live on both origins. Real Colab serves its bundles from elsewhere; no notebook path starts so. */
export const ASSET_PREFIX = '/_colab_sim/page/';

const PAGE_DIR = join(import.meta.dirname, 'page');
const CONTENT_TYPES: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' };
/** The files that may be served: fixed at startup, so a request can never name anything else. */
const ASSETS = new Set(readdirSync(PAGE_DIR).filter((name) => /^[a-z-]+\.(js|css)$/.test(name)));

export interface Response {
  status: number;
  contentType: string;
  body: string;
  headers?: Record<string, string>;
}

export const NOT_FOUND: Response = {
  status: 404,
  contentType: 'text/html; charset=utf-8',
  body: '<!doctype html><title>404</title><p>Not Found</p>',
};

/**
 * The notebooks one simulator serves, and its answer to any request, whatever carries requests to it (Playwright's
 * routes, Puppeteer's request interception): the notebook page for a registered path (query strings, fragments and a
 * trailing slash do not matter), the page assets, the output frame page; a 404 for anything else on Colab's and
 * googleusercontent's origins, and null for other hosts (the transport lets those through).
 */
export class SimServer {
  readonly #notebooks = new Map<string, ResolvedScenario>();

  /**
   * Registers a scenario for a path such as '/drive/abc123'; returns its URL on `origin` (by default
   * https://colab.research.google.com). The same path is served on every Colab origin.
   */
  notebook(path: string, scenario: Scenario, origin = COLAB_ORIGIN): string {
    if (!path.startsWith('/') || path.startsWith(ASSET_PREFIX)) throw new Error(`colab-sim: bad notebook path ${path}`);
    if (!COLAB_ORIGINS.includes(origin)) throw new Error(`colab-sim: ${origin} is not one of Colab's origins`);
    const key = normalisePath(new URL(path, origin).pathname);
    this.#notebooks.set(key, resolveScenario(key, scenario));
    return new URL(path, origin).href;
  }

  respond(url: URL, method: string): Response | null {
    const colab = COLAB_ORIGINS.includes(url.origin);
    if (!colab && !isUserContent(url)) return null;
    if (url.pathname.startsWith(ASSET_PREFIX)) return asset(url.pathname);
    if (!colab) return url.pathname === '/outputframe.html' ? outputFramePage() : NOT_FOUND;
    const scenario = method === 'GET' ? this.#notebooks.get(normalisePath(url.pathname)) : undefined;
    return scenario ? notebookPage(inLanguage(scenario, url.searchParams.get('hl'))) : NOT_FOUND;
  }
}

/** `?hl=` chooses Colab's interface language (§12.3, colabtools#25): the label set of that language, if any. */
function inLanguage(scenario: ResolvedScenario, hl: string | null): ResolvedScenario {
  const base = hl?.split(/[-_]/)[0]?.toLowerCase();
  const entries = Object.entries(LABEL_LANGUAGES) as Array<[LabelSet, string]>;
  const labels = entries.find(([, language]) => language.split('-')[0] === base)?.[0];
  return labels ? { ...scenario, ui: { ...scenario.ui, labels } } : scenario;
}

function isUserContent(url: URL): boolean {
  return url.protocol === 'https:' && url.hostname.endsWith('.googleusercontent.com');
}

function normalisePath(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

/** A page asset by its path under ASSET_PREFIX, or 404. Read on each request so edits show up on reload. */
export function asset(pathname: string): Response {
  const name = pathname.slice(ASSET_PREFIX.length);
  const type = name.split('.').pop() ?? '';
  if (!ASSETS.has(name) || !CONTENT_TYPES[type]) return NOT_FOUND;
  return { status: 200, contentType: CONTENT_TYPES[type], body: readFileSync(join(PAGE_DIR, name), 'utf8') };
}

/**
 * The notebook page. With `ui.csp`, a Google-style strict CSP (nonce + strict-dynamic, no 'unsafe-eval'): page
 * scripts cannot eval, as on Colab (§7); extension content scripts and CDP evaluation are not affected.
 */
export function notebookPage(scenario: ResolvedScenario): Response {
  const nonce = randomBytes(12).toString('base64');
  const json = JSON.stringify(scenario).replace(/</g, '\\u003c');
  // Preloading every module avoids a request waterfall along the import graph (page loads ~2x faster).
  const preloads = [...ASSETS]
    .filter((name) => name.endsWith('.js') && name !== 'frame.js')
    .map((name) => `<link rel="modulepreload" nonce="${nonce}" href="${ASSET_PREFIX}${name}">`)
    .join('\n');
  const body = `<!doctype html>
<html lang="${LABEL_LANGUAGES[scenario.ui.labels]}"><head><meta charset="utf-8">
<title>${escapeHtml(scenario.title)} - Colab</title>
<link rel="stylesheet" href="${ASSET_PREFIX}colab-sim.css">
${preloads}
<script type="application/json" id="colab-sim-scenario">${json}</script>
<script type="module" nonce="${nonce}" src="${ASSET_PREFIX}main.js"></script>
</head><body></body></html>`;
  const headers: Record<string, string> = {};
  if (scenario.ui.csp) {
    headers['content-security-policy'] =
      `script-src 'nonce-${nonce}' 'unsafe-inline' 'strict-dynamic' https: http: 'report-sample'; object-src 'none';` +
      ` base-uri 'self'`;
  }
  return { status: 200, contentType: 'text/html; charset=utf-8', body, headers };
}

/** outputframe.html (§4.2): the empty output area; the page script fills it from the parent's messages. */
export function outputFramePage(): Response {
  const body =
    `<!doctype html>
<html><head><meta charset="utf-8">
<link rel="stylesheet" href="${ASSET_PREFIX}outputframe.css">
<script type="module" src="${ASSET_PREFIX}frame.js"></script>
</head><body><div id="output-area"><span id="output-header"> </span><div id="output-body"></div>` +
    `<span id="output-footer"></span></div></body></html>`;
  return { status: 200, contentType: 'text/html; charset=utf-8', body };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
}
