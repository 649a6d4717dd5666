import { checkUi } from '../colab';
import { t } from '../lib/i18n';
import { cut, TEXT_LIMITS } from '../limits';
import type { CheckUiReply, ClaimReply, PageMessage } from '../messaging/protocol';
import { notebookKeyFromUrl } from '../state/notebook-key';
import type { NotebookRecord } from '../state/schema';
import { loadNotebook, loadSettings, watchNotebook, watchSettings } from '../state/store';
import { createFailureWatch } from './failure-watch';
import { listenToOutputFrames } from './frame-reports';
import { createNotice } from './notice';
import { needsPersonNotice, noticeFor, unclaimedNotice } from './notices';
import { createRestartRunner, type Outcome, type RestartRunner, withSaw } from './restart-runner';
import { OrphanedError, sendToWorker } from './send';

/**
 * The guard proper, loaded into a Colab page only once it is switched on for the notebook there (or the popup asks
 * for a UI check): the page watcher, the frame reports, the restart runner and the notice, for the notebook the tab
 * shows now.
 */
export interface PageNotebook {
  key: string | null;
  tabId: number;
  token: string;
}

export interface PageGuard {
  setNotebook(notebook: PageNotebook): void;
  checkUi(): Promise<CheckUiReply>;
}

export function createPageGuard(doc: Document): PageGuard {
  const notice = createNotice(doc, t('noticeDismiss'));
  let key: string | null = null;
  let token: string | null = null;
  let runner: RestartRunner | null = null;
  let unwatch = () => {};
  let shown = '';
  /** Reports seen while a restart is being performed wait for its result, so they count toward the new run. */
  const held: PageMessage[] = [];
  const stops: Array<() => void> = [];

  const stopAll = () => {
    for (const stop of stops.splice(0)) stop();
    unwatch();
    runner?.stop();
    watch.setActive(false);
    notice.hide();
  };

  const send = async <R>(message: PageMessage): Promise<R | null> => {
    try {
      return await sendToWorker<R>(message);
    } catch (error) {
      if (error instanceof OrphanedError) stopAll();
      return null;
    }
  };

  const report = (message: PageMessage) => {
    if (runner?.busy) held.push(message);
    else void send(message);
  };

  const watch = createFailureWatch(doc, {
    failure: (verdict, source) => {
      const now = Date.now();
      // The page does not track execution starts yet: the report's own time stands in for its execution's start.
      if (key) report({ type: 'page-failure', key, detectedAt: now, startedAt: now, source, verdict });
    },
    marker: (match) =>
      key && report({ type: 'page-marker', key, detectedAt: Date.now(), pattern: match.pattern, line: match.line }),
    disconnect: (line) => key && report({ type: 'page-disconnect', key, detectedAt: Date.now(), line }),
    needsPerson: (kind) => notice.show(needsPersonNotice(kind)),
  });

  const cancel = () => key && void send({ type: 'page-command', key, command: { type: 'cancel' } });

  const showNotice = (record: NotebookRecord) => {
    const content = record.enabled || record.status.kind === 'restarting' ? noticeFor(record, cancel) : null;
    const signature = content ? JSON.stringify(record.status) : '';
    if (signature === shown) return;
    shown = signature;
    if (content) notice.show(content);
    else notice.hide();
  };

  const follow = (record: NotebookRecord) => {
    if (record.key !== key) return;
    watch.setActive(record.enabled);
    runner?.follow(record);
    showNotice(record);
  };

  const createRunner = (tabId: number) =>
    createRestartRunner({
      doc,
      tabId,
      claim: async (attemptKey, attempt) => {
        const reply = (await send<ClaimReply>({ type: 'page-claim', key: attemptKey, attempt })) ?? {
          granted: false,
          reason: 'no answer',
        };
        // The tab may have opened another notebook while the claim was on its way: restart neither.
        if (!reply.granted || notebookKeyFromUrl(doc.location.href) === attemptKey) return reply;
        return { granted: false, reason: 'The tab shows another notebook now' };
      },
      result: async (attemptKey, attempt, outcome) => {
        await send({ type: 'page-result', key: attemptKey, attempt, ...clipOutcome(outcome) });
      },
      beforeAction: () => watch.forgetExecutions(),
      afterAction: () => {
        for (const message of held.splice(0)) void send(message);
      },
      unclaimed: (reason) => notice.show(unclaimedNotice(reason, cancel)),
    });

  void loadSettings().then((settings) => watch.configure(settings));
  stops.push(watchSettings((settings) => watch.configure(settings)));
  stops.push(
    listenToOutputFrames(
      doc.defaultView ?? window,
      () => token,
      (cell, frameReport) => {
        if (frameReport.kind === 'error-output') watch.frameError(cell, frameReport.text);
        watch.frameText(cell, frameReport.text);
      },
    ),
  );

  return {
    setNotebook(notebook) {
      token = notebook.token;
      runner ??= createRunner(notebook.tabId);
      if (notebook.key === key) return;
      unwatch();
      runner.stop();
      watch.setActive(false);
      notice.hide();
      shown = '';
      key = notebook.key;
      if (!key) return;
      let changed = false;
      unwatch = watchNotebook(key, (record) => {
        changed = true;
        follow(record);
      });
      // A change seen while the first read was on its way is newer than what that read returns.
      void loadNotebook(key).then((record) => changed || follow(record));
    },
    async checkUi() {
      if (runner?.busy) return { ready: false, step: 'busy', detail: t('checkBusy') };
      const result = await checkUi(doc);
      if (result.ready) return { ready: true, detail: result.detail };
      return { ready: false, step: result.step, detail: withSaw(result.detail, result.saw) };
    },
  };
}

/** What a failed step saw can be long; the service worker refuses a result whose texts exceed what it stores. */
function clipOutcome(outcome: Outcome): Outcome {
  if (outcome.ok) return outcome;
  return {
    ok: false,
    step: cut(outcome.step, TEXT_LIMITS.uiStep),
    detail: cut(outcome.detail, TEXT_LIMITS.detail),
  };
}
