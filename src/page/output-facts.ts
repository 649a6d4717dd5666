import { mainOutputTail, outputAreaOf, outputNumber, pageIndexOf, pageOutputs } from '../colab';
import type { EndFacts, ErrorShown, FrameEnd, PageMark } from '../detector/execution-gate';
import { PAGE } from '../detector/output-order';
import type { FrameReport } from '../messaging/protocol';

type FrameError = Extract<FrameReport['report'], { kind: 'error-output' }>;
type FrameAnswer = Extract<FrameReport['report'], { kind: 'stream-tail' }>;

/**
 * What the page gathers about an execution's outputs for its record (detector/execution-gate.ts): where each error
 * output showed and when, the page's marks, how its frames' outputs end. Each output frame is a place of its own,
 * numbered in the order the page meets them; one made while cells are under way is dated, with the page's mark then:
 * an output it shows while it loads came after it was made.
 */
export interface OutputFacts {
  /** An output frame was added to the page while cells are under way (output-watcher.ts: not at the first look). */
  frameMade(frame: Element): void;
  /** An error output `element` of `cell` arrived in the page now. */
  pageError(cell: Element, element: Element, text: string): { error: ErrorShown; marks: PageMark[] };
  /** An output frame of `cell` reported an error output. */
  frameError(cell: Element, frame: Element, report: FrameError): { error: ErrorShown; marks: PageMark[] };
  /** How an output frame's outputs end, as it answered. */
  frameEnd(frame: Element, answer: FrameAnswer): FrameEnd;
  /** The cell's outputs in the page now. */
  pageNow(cell: Element): EndFacts['page'];
}

export function createOutputFacts(): OutputFacts {
  const places = new WeakMap<Element, number>();
  let frames = 0;
  /** When each frame made while cells ran was made, and the end of its cell's page outputs then. */
  const made = new WeakMap<Element, PageMark>();

  const placeOf = (frame: Element): number => {
    let place = places.get(frame);
    if (place === undefined) {
      place = ++frames;
      places.set(frame, place);
    }
    return place;
  };

  /** When what the frame says arrived did: exactly, or since the frame was made (ever, when that is not known). */
  const span = (frame: Element, { at, exact }: { at: number; exact: boolean }) => ({
    from: exact ? at : (made.get(frame)?.at ?? 0),
    to: at,
  });

  return {
    frameMade(frame) {
      // The output area alone: a smaller tree to search than the cell, and no cell lookup for a frame of another.
      const area = outputAreaOf(frame);
      if (area) made.set(frame, { at: Date.now(), mark: mainOutputTail(area) });
    },
    pageError(cell, element, text) {
      const at = Date.now();
      const error = { text, place: PAGE, index: pageIndexOf(element), id: outputNumber(element), from: at, to: at };
      return { error, marks: [{ at, mark: mainOutputTail(cell) }] };
    },
    frameError(cell, frame, report) {
      const { text, index, id } = report;
      const error = { text, place: placeOf(frame), index, id, ...span(frame, report) };
      // Read as the report comes: the page as it was when the frame saw the output, give or take the message's way.
      const marks = [{ at: report.at, mark: mainOutputTail(cell) }];
      const madeMark = made.get(frame);
      return { error, marks: madeMark && !report.exact ? [madeMark, ...marks] : marks };
    },
    frameEnd(frame, answer) {
      const { count, ids, error } = answer;
      return { place: placeOf(frame), count, ids, error, ...span(frame, answer) };
    },
    pageNow(cell) {
      const { count, ids, mark } = pageOutputs(cell);
      return { count, ids, mark };
    },
  };
}
