import { cut, TEXT_LIMITS } from '../limits';

/**
 * Colab is a single-page app: opening another notebook in the same tab changes the URL and the title without a
 * reload. Calls back with the page's address and title whenever either changes (history events and the <title>
 * element, no polling), until `signal` aborts. The service worker reads which notebook that is, and its name, from
 * them (state/notebook-key.ts, notebook-title.ts): this always-loaded script parses nothing.
 */
export function trackNotebook(
  doc: Document,
  onChange: (url: string, title: string) => void,
  signal: AbortSignal,
): void {
  let last = '';
  const check = () => {
    const url = doc.location.href;
    const title = cut(doc.title, TEXT_LIMITS.title);
    const signature = `${url}\n${title}`;
    if (signature === last) return;
    last = signature;
    onChange(url, title);
  };
  const win = doc.defaultView;
  win?.addEventListener('popstate', check, { signal });
  win?.addEventListener('hashchange', check, { signal });
  // pushState fires no event; Colab retitles the page whenever it shows another notebook.
  const mo = new MutationObserver(check);
  if (doc.head) mo.observe(doc.head, { childList: true, subtree: true, characterData: true });
  signal.addEventListener('abort', () => mo.disconnect());
  check();
}
