import { checkDetection, checkUi } from '../colab';
import { t } from '../lib/i18n';
import type { CheckUiReply, PageStateReply } from '../messaging/protocol';
import { colabLanguage } from '../site/page-language';
import { keepCapture, type PageCapture } from '../state/page-capture';
import { childLifetime } from './lifetime';
import { liveSessionDeps } from './live-deps';
import { type NotebookSession, type PageNotebook, startNotebookSession } from './notebook-session';

export type { PageNotebook } from './notebook-session';

/**
 * The guard proper, loaded into a Colab page only once it is switched on for the notebook there (or the popup asks
 * for a UI check). It keeps one session per notebook the tab shows (notebook-session.ts); `context` is the content
 * script's own lifetime, which ends when the extension is updated or removed under the page.
 */
export interface PageGuard {
  setNotebook(notebook: PageNotebook): void;
  checkUi(): Promise<CheckUiReply>;
  /** Whether the page is watched, once its notebook's record has been read. */
  pageState(): Promise<PageStateReply>;
}

export interface ScriptContext {
  signal: AbortSignal;
  /** The extension is gone from under this script: end everything it does. */
  invalidate(): void;
}

export function createPageGuard(doc: Document, context: ScriptContext): PageGuard {
  let session: { notebook: NotebookSession; lifetime: AbortController } | null = null;
  /** What the guard met in Colab's page, newest last (state/page-capture.ts): the UI check hands them over. */
  let captures: PageCapture[] = [];
  const capture = (taken: PageCapture) => {
    captures = keepCapture(captures, taken);
  };

  return {
    setNotebook(notebook) {
      if (context.signal.aborted) return;
      if (session && session.notebook.key === notebook.key) {
        session.notebook.setToken(notebook.token);
        return;
      }
      session?.lifetime.abort();
      session = null;
      const { key } = notebook;
      if (!key) return;
      const lifetime = childLifetime(context.signal);
      const started = startNotebookSession(
        doc,
        { ...notebook, key },
        lifetime.signal,
        context.invalidate,
        capture,
        liveSessionDeps,
      );
      session = { notebook: started, lifetime };
    },
    async pageState() {
      if (!session) return { key: null, watching: false };
      const { key } = session.notebook;
      return { key, watching: await session.notebook.watching() };
    },
    async checkUi() {
      const language = colabLanguage(doc);
      if (session?.notebook.busy) {
        return { ready: false, failed: { step: 'busy', reason: 'busy', saw: t('checkBusy') }, language, captures };
      }
      const detection = checkDetection(doc);
      if (!detection.ok) return { ready: false, failed: detection.failed, language, captures };
      const result = await checkUi(doc, { capture });
      if (!result.ok) return { ready: false, failed: result.failed, language, captures };
      // Colab greys the item out while no runtime is connected: a restart now would fail at this step.
      if (result.disabled) {
        const failed = { step: 'find-item', reason: 'item-disabled', saw: result.detail } as const;
        return { ready: false, failed, language, captures };
      }
      return { ready: true, detail: `${result.detail}; ${detection.detail}`, language, captures };
    },
  };
}
