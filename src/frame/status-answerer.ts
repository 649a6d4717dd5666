import { isStatusRequest, type NotebookStatus, STATUS_ANSWER, type StatusAnswer } from '../messaging/status-api';
import type { AskWorker } from './report-to-page';

/**
 * The notebook status API (messaging/status-api.ts) in an output frame: a request posted by code in this very window
 * is answered on this window alone; other windows (Colab's page above included) are not answered, and neither is
 * anyone when the worker gives no status (the user switched the API off). Requests arriving while one is on its way
 * share its answer, so a notebook asking in a loop costs one question to the worker at a time.
 */
export function answerStatusRequests(win: Window, ask: AskWorker, signal: AbortSignal): void {
  let pending: Promise<NotebookStatus | null | undefined> | null = null;
  const onRequest = (event: MessageEvent) => {
    if (event.source !== win || !isStatusRequest(event.data)) return;
    const { id } = event.data;
    pending ??= ask({ type: 'frame-status' }).finally(() => {
      pending = null;
    });
    void pending.then((status) => {
      // Posted to this window itself: '*' names no other receiver, and works whatever the frame's origin.
      if (status && !signal.aborted) {
        win.postMessage({ colabOomGuard: STATUS_ANSWER, id, status } satisfies StatusAnswer, '*');
      }
    });
  };
  win.addEventListener('message', onRequest, { signal });
}
