import * as v from 'valibot';
import browser from 'webextension-polyfill';
import { checkUi } from '../colab';
import { t } from '../lib/i18n';
import { TabRequestSchema, type CheckUiReply, type ClaimReply, type HelloReply, type PageMessage } from '../messaging/protocol';
import type { NotebookRecord } from '../state/schema';
import { loadNotebook, loadSettings, watchNotebook, watchSettings } from '../state/store';
import { createFailureWatch } from './failure-watch';
import { listenToOutputFrames } from './frame-reports';
import { createNotice } from './notice';
import { needsPersonNotice, noticeFor } from './notices';
import { trackNotebook } from './notebook-tracker';
import { createRestartRunner, type RestartRunner } from './restart-runner';
import { OrphanedError, sendToWorker } from './send';

/**
 * The content script of Colab's top frame: wires the page watcher, the frame reports, the restart runner and the
 * notice to the service worker, for the notebook the tab shows now.
 */
function main() {
  if (window.top !== window) return;
  const notice = createNotice(document, t('noticeDismiss'));
  let key: string | null = null;
  let tabId: number | null = null;
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

  const send = async <R,>(message: PageMessage): Promise<R | null> => {
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

  const watch = createFailureWatch(document, {
    failure: (verdict, source) => key && report({ type: 'page-failure', key, detectedAt: Date.now(), source, verdict }),
    marker: (match) => key && report({ type: 'page-marker', key, detectedAt: Date.now(), pattern: match.pattern, line: match.line }),
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

  const createRunner = (tab: number) =>
    createRestartRunner({
      doc: document,
      tabId: tab,
      claim: async (attempt) => (key && (await send<ClaimReply>({ type: 'page-claim', key, attempt }))) || { granted: false, reason: 'no answer' },
      result: async (attempt, outcome) => {
        if (key) await send({ type: 'page-result', key, attempt, ...outcome });
      },
      beforeAction: () => watch.forgetExecutions(),
      afterAction: () => {
        for (const message of held.splice(0)) void send(message);
      },
    });

  const onNotebook = async (nextKey: string | null, title: string) => {
    if (nextKey !== key) {
      unwatch();
      runner?.stop();
      watch.setActive(false);
      notice.hide();
      shown = '';
      key = nextKey;
    }
    const hello = await send<HelloReply>({ type: 'page-hello', key: nextKey, title });
    if (!hello || key !== nextKey) return;
    tabId = hello.tabId;
    token = hello.token;
    runner ??= createRunner(tabId);
    if (!nextKey) return;
    unwatch();
    unwatch = watchNotebook(nextKey, follow);
    follow(await loadNotebook(nextKey));
  };

  void loadSettings().then((settings) => watch.configure(settings));
  stops.push(watchSettings((settings) => watch.configure(settings)));
  stops.push(listenToOutputFrames(window, () => token, (cell, frameReport) => {
    if (frameReport.kind === 'error-output') watch.frameError(cell, frameReport.text);
    else watch.frameMarker(cell, { pattern: frameReport.pattern, line: frameReport.line });
  }));
  stops.push(trackNotebook(document, (nextKey, title) => void onNotebook(nextKey, title)));

  // "Check Colab UI" from the popup: a dry run that opens the Runtime menu and closes it again.
  const onRequest = (message: unknown, sender: browser.Runtime.MessageSender): Promise<CheckUiReply> | undefined => {
    if (sender.id !== browser.runtime.id || sender.tab || !v.is(TabRequestSchema, message)) return undefined;
    if (runner?.busy) return Promise.resolve({ ready: false, step: 'busy', detail: t('checkBusy') });
    return checkUi(document).then((result) => (result.ready
      ? { ready: true, detail: result.detail }
      : { ready: false, step: result.step, detail: result.saw ? `${result.detail}; saw: ${result.saw}` : result.detail }));
  };
  browser.runtime.onMessage.addListener(onRequest);
  stops.push(() => browser.runtime.onMessage.removeListener(onRequest));
}

main();
