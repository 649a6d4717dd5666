/**
 * Where Colab's notebook app is served (REFERENCE.md §12.1): the one list of Colab's hosts. Everything else that names
 * Colab's pages is made from it (origins.ts): the manifest's content-script matches and host permissions
 * (vite.config.ts), the message senders the service worker accepts, the tabs it looks at, and the addresses that name
 * a notebook (state/notebook-key.ts, where the host is no part of a notebook's identity).
 * - colab.research.google.com: the main domain.
 * - colab.google.com: googlecolab/colab-mcp's `COLAB_ALT_DOMAIN` (2025-12), linked by READMEs for /drive/ and /github/.
 * - colab.sandbox.google.com: linked by Google maintainers (google-deepmind/gemma#85, 2025), google-colab-cli's --host.
 * Output frames keep their own rule (`OUTPUT_FRAME_HOST`, origins.ts): which frame host pages on the other domains
 * use is not known, and "Check Colab UI" says so when a page's frames come from a host the guard does not know. A
 * module of its own, this small: the always-loaded page script carries it.
 */
export const COLAB_HOSTS: readonly string[] = [
  'colab.research.google.com',
  'colab.google.com',
  'colab.sandbox.google.com',
];

export function isColabHost(hostname: string): boolean {
  return COLAB_HOSTS.includes(hostname);
}
