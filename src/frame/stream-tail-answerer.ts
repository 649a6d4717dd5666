import { frameEnding } from '../colab/output-frame-reader';
import { STREAM_TAIL_MAX_WAIT_MS, STREAM_TAIL_QUIET_MS } from '../limits';
import { isStreamTailRequest } from '../messaging/frame-channel';
import type { FrameReport } from '../messaging/protocol';
import type { Arrivals } from './arrivals';

/**
 * When the frame's cell stops, the top frame asks how the frame's outputs end: the end of its stream output, its
 * outputs' count and numbers, whether its last output is an error output and when that one arrived. The answer also
 * tells the top frame that every error output the frame
 * held has been posted (they go first). Only the page above may ask (`event.source` is its window: only its own
 * document's scripts post as it); the answer goes to that page's Colab origin alone, as the worker names it
 * (report-to-page.ts). Listens from the start, as the cell may stop while the frame's hello is on its way, and answers
 * once the frame has been still for a moment: a frame created as its cell stopped may still be receiving the cell's
 * last outputs. `respond` posts the answer as a report (the frame reporter's rules: guarded notebooks only, the
 * current token).
 */
export function answerStreamTailRequests(
  doc: Document,
  parent: Window,
  respond: (report: FrameReport['report']) => void,
  arrivals: Arrivals,
  signal: AbortSignal,
): void {
  const win = doc.defaultView ?? window;
  const ids: number[] = [];
  let deadline = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const answer = () => {
    changes.disconnect();
    const { last, ...ending } = frameEnding(doc);
    const arrived = arrivals.of(last);
    for (const id of ids.splice(0)) respond({ kind: 'stream-tail', id, ...ending, ...arrived });
  };
  const settle = () => {
    clearTimeout(timer);
    timer = setTimeout(answer, Math.min(STREAM_TAIL_QUIET_MS, deadline - Date.now()));
  };
  const changes = new MutationObserver(settle);
  const onMessage = (event: MessageEvent) => {
    // Any other message tells that Colab delivers to the frame (arrivals.ts): one listener for both.
    if (event.source !== parent || !isStreamTailRequest(event.data)) return arrivals.delivered();
    if (!ids.length) {
      deadline = Date.now() + STREAM_TAIL_MAX_WAIT_MS;
      changes.observe(doc, { childList: true, subtree: true, characterData: true });
    }
    ids.push(event.data.id);
    settle();
  };
  win.addEventListener('message', onMessage, { signal });
  signal.addEventListener('abort', () => {
    clearTimeout(timer);
    changes.disconnect();
  });
}
