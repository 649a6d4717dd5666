import * as v from 'valibot';
import { cellOfFrameSource } from '../colab';
import { type FrameReport, FrameReportSchema } from '../messaging/protocol';
import { isOutputFrameOrigin } from '../messaging/sender';

/**
 * Reports from Colab's cross-origin output frames. Accepted only from a googleusercontent.com origin, from the window
 * of an output iframe inside a cell of this page, and carrying this tab's token (scripts in output frames never see it;
 * Colab's top-frame scripts do, as they receive the same messages).
 */
export function listenToOutputFrames(
  win: Window,
  token: () => string | null,
  onReport: (cell: Element, report: FrameReport['report']) => void,
  signal: AbortSignal,
): void {
  const listener = (event: MessageEvent) => {
    if (!isOutputFrameOrigin(event.origin)) return;
    const parsed = v.safeParse(FrameReportSchema, event.data);
    if (!parsed.success || parsed.output.token !== token()) return;
    const cell = cellOfFrameSource(win.document, event.source);
    if (cell) onReport(cell, parsed.output.report);
  };
  win.addEventListener('message', listener, { signal });
}
