import * as v from 'valibot';
import { cellOf, isColabOutputFrame, outputFrameOfSource } from '../colab';
import { FRAME_CHANNEL, streamTailRequest } from '../messaging/frame-channel';
import { type FrameReport, FrameReportSchema } from '../messaging/protocol';
import { isOutputFrameOrigin } from '../site/origins';

/**
 * Reports from Colab's cross-origin output frames. Accepted only from a googleusercontent.com origin, from the window
 * of an output iframe inside a cell of this page, and carrying this tab's token (scripts in output frames never see it;
 * Colab's top-frame scripts do, as they receive the same messages).
 */
export function listenToOutputFrames(
  win: Window,
  token: () => string | null,
  onReport: (cell: Element, report: FrameReport['report'], frame: HTMLIFrameElement) => void,
  signal: AbortSignal,
): void {
  const listener = (event: MessageEvent) => {
    // Colab's frames post to the page all the time (sizes, widgets): ours carry a port, told without reading (copying)
    // the data of theirs; only our channel's messages are validated.
    if (event.ports.length === 0) return;
    if ((event.data as { channel?: unknown } | null)?.channel !== FRAME_CHANNEL || !isOutputFrameOrigin(event.origin))
      return;
    const parsed = v.safeParse(FrameReportSchema, event.data);
    if (!parsed.success || parsed.output.token !== token()) return;
    const frame = outputFrameOfSource(win.document, event.source);
    const cell = frame && cellOf(frame);
    if (cell) onReport(cell, parsed.output.report, frame);
  };
  win.addEventListener('message', listener, { signal });
}

/**
 * Asks an output frame for the end of its stream outputs; it answers with a 'stream-tail' report carrying `id`.
 * False when `frame` is no Colab output frame, so that nothing will answer. Sent to the frame's origin only, now if
 * it has loaded, and each time it loads until `signal` ends (answers after the first count for nothing).
 */
export function askStreamTail(frame: HTMLIFrameElement, id: number, signal: AbortSignal): boolean {
  const url = parseUrl(frame.src);
  if (!url || !isColabOutputFrame(url)) return false;
  const ask = () => frame.contentWindow?.postMessage(streamTailRequest(id), url.origin);
  // A frame created as its cell stopped may still be loading: asked once it has loaded (again if it loads again).
  frame.addEventListener('load', ask, { signal });
  if (!isStillBlank(frame)) ask();
  return true;
}

/**
 * Until its page commits, an iframe holds a blank document of its parent's origin, whose location is readable (a
 * loaded output frame's is not): a request posted to it would be lost, and logged as an error in Colab's console.
 */
function isStillBlank(frame: HTMLIFrameElement): boolean {
  try {
    return frame.contentWindow?.location.href === 'about:blank';
  } catch {
    return false;
  }
}

/** `URL.parse` is newer than the Chrome this extension supports (111). */
function parseUrl(href: string): URL | null {
  try {
    return new URL(href);
  } catch {
    return null;
  }
}
