import { COLAB_HOSTS, isColabHost } from './hosts';

/** Colab's pages in the forms the extension names them: origins, match patterns, addresses (hosts.ts lists them). */

/** `https://<host>` for each Colab host. */
export const COLAB_ORIGINS: readonly string[] = /* @__PURE__ */ COLAB_HOSTS.map((host) => `https://${host}`);

/** Manifest match patterns for Colab's pages (content scripts, host permissions, `tabs.query`). */
export const COLAB_MATCHES: string[] = /* @__PURE__ */ COLAB_HOSTS.map((host) => `https://${host}/*`);

export function isColabOrigin(origin: string): boolean {
  return COLAB_ORIGINS.includes(origin);
}

/** Whether `url` is a page of Colab's app (https, one of its hosts), whatever it shows. */
export function isColabUrl(url: string | undefined): boolean {
  if (!url || !URL.canParse(url)) return false;
  const { protocol, hostname } = new URL(url);
  return protocol === 'https:' && isColabHost(hostname);
}

/**
 * Colab's output frames: served at this path from random subdomains of googleusercontent.com (REFERENCE.md §4.2,
 * §4.3), on every Colab domain (hosts.ts says why they keep a rule of their own).
 */
export const OUTPUT_FRAME_PATH = '/outputframe.html';
export const OUTPUT_FRAME_HOST = /^[a-z0-9-]+(\.[a-z0-9-]+)*\.googleusercontent\.com$/;

export function isOutputFrameOrigin(origin: string): boolean {
  const scheme = 'https://';
  return origin.startsWith(scheme) && OUTPUT_FRAME_HOST.test(origin.slice(scheme.length));
}

/** What manifest.json writes for Colab's pages (host permissions, the page script's matches); the build expands it. */
export const COLAB_PAGES = '<colab-pages>';

/** `patterns` with `<colab-pages>` as COLAB_MATCHES; throws if it is not there (the build must not drop it). */
export function expandColabPages(patterns: readonly string[]): string[] {
  if (!patterns.includes(COLAB_PAGES)) throw new Error(`expected ${COLAB_PAGES} among ${patterns.join(', ')}`);
  return patterns.flatMap((pattern) => (pattern === COLAB_PAGES ? COLAB_MATCHES : [pattern]));
}
