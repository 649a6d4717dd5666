import browser from 'webextension-polyfill';
import { OrphanedError } from '../lib/orphaned';
import type { ReplyTo } from '../messaging/protocol';
import { fromExtensionPage, isTabRequest, type TabRequest } from '../messaging/tab-request';
import { notebookStorageKey } from '../state/storage-keys';
import type { PageGuard, PageNotebook } from './guard';
import { trackNotebook } from './notebook-tracker';
import { sendToWorker } from './send-to-worker';

/**
 * Dispatched on the window by every copy of this script as it starts: the copy an update orphaned ends itself (WXT's
 * model). An event of its own type, not a window message: a message listener would run at every message the page's
 * frames post.
 */
const STARTED = 'colab-oom-guard:page-script-started';

/**
 * The content script of every Colab page, kept small: it tells the service worker what the tab shows (the worker
 * answers which notebook that is), and
 * loads the guard itself (guard.ts) only when the guard is on for that notebook or the popup asks for a UI check.
 * Everything it starts lives as long as `context`: once the extension is updated or removed under the page, the
 * orphaned script ends it all (a message to the worker fails, or the new copy announces itself).
 */
function main() {
  if (window.top !== window) return;
  // Taken once: each `browser.` in this always-loaded script costs bytes.
  const { runtime, storage } = browser;
  const context = new AbortController();
  const { signal } = context;
  const invalidate = () => context.abort();
  let notebook: PageNotebook | null = null;
  let guard: Promise<PageGuard> | null = null;

  // A failed import is forgotten, so that the next hello or storage change tries again.
  const loadGuard = () =>
    (guard ??= import('./guard')
      .then((module) => module.createPageGuard(document, { signal, invalidate }))
      .catch((error: unknown) => {
        guard = null;
        throw error;
      }));
  const withGuard = async () => {
    const loaded = await loadGuard();
    if (notebook) loaded.setNotebook(notebook);
    return loaded;
  };
  const startGuard = () => withGuard().catch(() => undefined);

  const isOn = async (key: string) => {
    const name = notebookStorageKey(key);
    return isEnabled((await storage.local.get(name))[name]);
  };

  // The page document's id: a scratch notebook's key is made of it (and of the tab). Every copy of this script in the
  // document (one injected after an update) has the same; a reload, which opens a new empty notebook, a new one.
  const page = performance.timeOrigin.toString(36);
  let latestHello = 0;
  let hellos = Promise.resolve();
  const greet = async (seq: number, url: string, title: string) => {
    const message = { type: 'page-hello', url, page, title, first: seq === 1 } as const;
    const hello = await sendToWorker(message).catch((error) => {
      if (error instanceof OrphanedError) invalidate();
      return null;
    });
    // A newer hello is queued: this answer is about a notebook or title the page has already left.
    if (!hello || seq !== latestHello || signal.aborted) return;
    const { key } = hello;
    notebook = { key, tabId: hello.tabId, token: hello.token };
    if (guard || (key && (await isOn(key)))) await startGuard();
  };
  trackNotebook(
    document,
    (url, title) => {
      const seq = ++latestHello;
      // One at a time: the worker must register the tab's notebooks in the order the page showed them.
      hellos = hellos.then(() => greet(seq, url, title)).catch(() => undefined);
    },
    signal,
  );

  const onStorage = (changes: Record<string, browser.Storage.StorageChange>, area: string) => {
    const key = notebook?.key;
    if (guard || area !== 'local' || !key) return;
    if (isEnabled(changes[notebookStorageKey(key)]?.newValue)) void startGuard();
  };
  storage.onChanged.addListener(onStorage);

  // "Check Colab UI" from the popup (a dry run that opens the Runtime menu and closes it again), or its question
  // whether this page is watched.
  const onMessage = (message: unknown, sender: browser.Runtime.MessageSender) => {
    const origin = runtime.getURL('');
    if (!fromExtensionPage(sender, runtime.id, origin) || !isTabRequest(message)) return undefined;
    // Either loads the guard: the popup asks for the page state only where the guard is on.
    return withGuard().then(
      (loaded): Promise<ReplyTo<TabRequest>> => (message.type === 'page-state' ? loaded.pageState() : loaded.checkUi()),
    );
  };
  runtime.onMessage.addListener(onMessage);

  // Only an orphaned copy ends on another's start: a page script posting this cannot stop a live guard.
  addEventListener(STARTED, () => !runtime.id && invalidate(), { signal });
  dispatchEvent(new Event(STARTED));
  signal.addEventListener('abort', () => {
    try {
      storage.onChanged.removeListener(onStorage);
      runtime.onMessage.removeListener(onMessage);
    } catch {
      // An orphaned script's API may throw: its listeners are dead already.
    }
  });
}

/** Only decides whether to load the guard: the guard validates the record fully when it reads it. */
function isEnabled(raw: unknown): boolean {
  return typeof raw === 'object' && raw !== null && (raw as { enabled?: unknown }).enabled === true;
}

main();
