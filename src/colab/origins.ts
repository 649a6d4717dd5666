/**
 * Where Colab's notebook app is served (REFERENCE.md §12.1): the one list of Colab's origins. The manifest's content
 * script matches and host permissions (vite.config.ts), the message senders the service worker accepts, the tabs it
 * looks at, and the addresses that name a notebook all come from here. A notebook's identity does not depend on the
 * host it was opened on (state/notebook-key.ts).
 * - colab.research.google.com: the main domain.
 * - colab.google.com: googlecolab/colab-mcp's `COLAB_ALT_DOMAIN` (2025-12), linked by READMEs for /drive/ and /github/.
 * - colab.sandbox.google.com: linked by Google maintainers (google-deepmind/gemma#85, 2025), google-colab-cli's --host.
 * Output frames keep their own rule (`OUTPUT_CORE.frameHost`): which frame host pages on the other domains use is not
 * known, and "Check Colab UI" says so when a page's frames come from a host the guard does not know.
 */
export const COLAB_HOSTS = ['colab.research.google.com', 'colab.google.com', 'colab.sandbox.google.com'] as const;

/** `https://<host>` for each Colab host. */
export const COLAB_ORIGINS: readonly string[] = /* @__PURE__ */ COLAB_HOSTS.map((host) => `https://${host}`);

/** Manifest match patterns for Colab's pages (content scripts, host permissions, `tabs.query`). */
export const COLAB_MATCHES: string[] = /* @__PURE__ */ COLAB_HOSTS.map((host) => `https://${host}/*`);

export function isColabHost(hostname: string): boolean {
  return (COLAB_HOSTS as readonly string[]).includes(hostname);
}

export function isColabOrigin(origin: string): boolean {
  return COLAB_ORIGINS.includes(origin);
}

/** Whether `url` is a page of Colab's app (https, one of its hosts), whatever it shows. */
export function isColabUrl(url: string | undefined): boolean {
  if (!url || !URL.canParse(url)) return false;
  const { protocol, hostname } = new URL(url);
  return protocol === 'https:' && isColabHost(hostname);
}

/** What manifest.json writes for Colab's pages (host permissions, the page script's matches); the build expands it. */
export const COLAB_PAGES = '<colab-pages>';

/** `patterns` with `<colab-pages>` as COLAB_MATCHES; throws if it is not there (the build must not drop it). */
export function expandColabPages(patterns: readonly string[]): string[] {
  if (!patterns.includes(COLAB_PAGES)) throw new Error(`expected ${COLAB_PAGES} among ${patterns.join(', ')}`);
  return patterns.flatMap((pattern) => (pattern === COLAB_PAGES ? COLAB_MATCHES : [pattern]));
}
