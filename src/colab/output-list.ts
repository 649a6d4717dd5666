/**
 * A place's outputs as a list (the page's static renderer of a cell, or an output frame's #output-body, §4.2): how
 * many, in which order, with Colab's numbers. What orders a run's outputs across places (detector/output-order.ts).
 */

import type { OutputList } from '../detector/execution-gate';
import { MAX_ORDER_IDS } from '../limits';
import { outputNumber } from './cells';
import { OUTPUT } from './selectors';
import { mainOutputTail, outputsIn } from './stream-tail';

/** How many outputs a place shows, and the numbers of the newest MAX_ORDER_IDS of them, in order. */
export function outputList(outputs: readonly Element[]): OutputList & { ids: Array<number | null> } {
  return { count: outputs.length, ids: outputs.slice(-MAX_ORDER_IDS).map(outputNumber) };
}

/** The cell's outputs in the page's renderer now, and the end of what they show (mainOutputTail). */
export function pageOutputs(cell: Element): OutputList & { mark: string } {
  const renderer = cell.querySelector(OUTPUT.staticRenderer);
  return { ...outputList(renderer ? outputsIn(renderer) : []), mark: mainOutputTail(cell) };
}

/** The position of `output` among the outputs of the page renderer holding it (-1 outside one). */
export function pageIndexOf(output: Element): number {
  const renderer = output.closest(OUTPUT.staticRenderer);
  return renderer ? outputsIn(renderer).indexOf(output) : -1;
}
