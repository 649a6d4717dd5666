import { notebookTitleFromDocumentTitle, pageNotebookKey } from '../state/notebook-key';

/**
 * Colab is a single-page app: opening another notebook in the same tab changes the URL and the title without a
 * reload. Calls back with the notebook key and name whenever either changes (history events and the <title> element,
 * no polling), until `signal` aborts. A scratch notebook is keyed by the page document (its time origin): every copy of
 * this script in the page (one injected after an update) names it alike, and a reload, which opens a new empty
 * notebook, names a new one.
 */
export function trackNotebook(
  doc: Document,
  onChange: (key: string | null, title: string) => void,
  signal: AbortSignal,
): void {
  let last = '';
  const pageId = (doc.defaultView?.performance ?? performance).timeOrigin.toString(36);
  const check = () => {
    const key = pageNotebookKey(doc.location.href, pageId);
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
