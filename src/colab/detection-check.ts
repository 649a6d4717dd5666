/**
 * What detection needs from the live page: the cells, their run states, and every output frame inside a cell's output
 * area, served from a host the guard's frame script runs on (§4.2; on Colab's other domains the frames' host is not
 * known, §12.1). When Colab's markup drifts, each of these goes missing without an error; "Check Colab UI" says which
 * one. Reads the page once, on request.
 */

import { OUTPUT_FRAME_HOST, OUTPUT_FRAME_PATH } from '../site/origins';
import { type Failed, fail } from '../state/failed-step';
import { cellOf, findCells } from './cells';
import { deepQueryAll } from './dom';
import { CELL, OUTPUT } from './selectors';

export type DetectionCheck =
  | { ok: true; detail: string }
  | Failed<'find-cells' | 'read-run-states' | 'unknown-frame-host' | 'match-output-frames'>;

export function checkDetection(doc: Document): DetectionCheck {
  const cells = findCells(doc);
  if (cells.length === 0) {
    return fail('find-cells', 'no-cells', `no notebook cells found (${CELL.cell}): no failure can be seen`);
  }
  const code = cells.filter((cell) => cell.querySelector(CELL.runButton));
  const readable = code.filter(runStateReadable).length;
  if (readable === 0) {
    const what = code.length ? `none of ${code.length} run buttons shows a readable state` : 'no cell has a run button';
    const saw = `${what} (${CELL.runButton} ${CELL.execution}): no cell can be seen running`;
    return fail('read-run-states', 'no-run-states', saw);
  }
  const strangers = [...new Set(outputFrames(doc, false).map((frame) => new URL(frame.src).hostname))];
  if (strangers.length > 0) {
    const saw = "Colab's output frames come from a host the guard does not know: errors shown there cannot be seen";
    return fail('unknown-frame-host', strangers.join(', '), saw);
  }
  const frames = outputFrames(doc);
  const loose = frames.filter((frame) => !frame.matches(OUTPUT.frame) || !cellOf(frame)).length;
  if (loose > 0) {
    const outside = `${loose} of ${frames.length} output frames are outside a cell's output area`;
    return fail('match-output-frames', 'frames-outside-cells', `${outside}: their errors cannot be seen`);
  }
  const seen = `${cells.length} cells, ${readable} of ${code.length} run states readable`;
  return { ok: true, detail: `${seen}, ${frames.length} output frames in their cells` };
}

/** A run state is readable from the run button's state element (2024-08 →) or its title (before). */
function runStateReadable(cell: Element): boolean {
  const button = cell.querySelector(CELL.runButton);
  if (!button) return false;
  return (
    !!(button.shadowRoot?.querySelector(CELL.execution) ?? button.querySelector(CELL.execution)) ||
    button.hasAttribute('title')
  );
}

/**
 * Every iframe showing Colab's output frame page, wherever it sits (open shadow roots included), from a host the
 * frame script runs on (`knownHost`), or from any other https host.
 */
function outputFrames(doc: Document, knownHost = true): HTMLIFrameElement[] {
  return deepQueryAll<HTMLIFrameElement>(doc, 'iframe').filter((frame) => {
    if (!URL.canParse(frame.src)) return false;
    const url = new URL(frame.src);
    return (
      url.protocol === 'https:' &&
      url.pathname === OUTPUT_FRAME_PATH &&
      OUTPUT_FRAME_HOST.test(url.hostname) === knownHost
    );
  });
}
