import { notebookKeyFromUrl, notebookTitleFromDocumentTitle } from '../state/notebook-key';

/**
 * Colab is a single-page app: opening another notebook in the same tab changes the URL and the title without a
 * reload. Calls back with the notebook key and name whenever either changes (history events and the <title> element,
 * no polling), until `signal` aborts.
 */
export function trackNotebook(
  doc: Document,
  onChange: (key: string | null, title: string) => void,
  signal: AbortSignal,
): void {
  let last = '';
  const check = () => {
    const key = notebookKeyFromUrl(doc.location.href);
    const title = notebookTitleFromDocumentTitle(doc.title);
    const signature = `${key}\n${title}`;
    if (signature === last) return;
    last = signature;
    onChange(key, title);
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
