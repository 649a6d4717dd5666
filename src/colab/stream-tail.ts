/**
 * The end of a cell's stream output, read from the DOM without reading all of it (REFERENCE.md §4.2: stdout streams
 * into the main document's static renderer, or into the cell's output frame). A training run's stream can hold
 * megabytes; when its execution ends, only its last few KiB say how it ended (detector/shell-tail.ts).
 */

import { tailOf } from '../detector/text';
import { MAX_SHELL_TAIL_CHARS } from '../limits';
import { outputElementOf, outputKind } from './cells';
import { OUTPUT, OUTPUT_CORE } from './selectors';

/**
 * The last `maxChars` of the text of `outputs` (stream output elements in page order, stdout and stderr alike),
 * without the line the cut went through. Walks text nodes from the last one backwards and stops once it has enough:
 * the cost is O(maxChars) however long the stream, never a whole element's textContent. Separate outputs are
 * separate lines.
 */
export function streamTail(outputs: readonly Element[], maxChars = MAX_SHELL_TAIL_CHARS): string {
  const chunks: string[] = [];
  // One character more than the bound tells tailOf that the text was cut.
  let wanted = maxChars + 1;
  for (let i = outputs.length - 1; i >= 0 && wanted > 0; i--) {
    if (i < outputs.length - 1) {
      chunks.push('\n');
      wanted--;
    }
    const root = outputs[i];
    if (root) wanted = readBackwards(root, wanted, chunks);
  }
  return tailOf(chunks.reverse().join(''), maxChars);
}

/** Pushes the text of `root`'s last text nodes onto `chunks`, newest first, until `wanted` characters are taken. */
function readBackwards(root: Element, wanted: number, chunks: string[]): number {
  let left = wanted;
  // Text nodes only (comments such as lit's markers are not text), in document order, from the last one back.
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.lastChild(); node && left > 0; node = walker.previousNode()) {
    // `left` > 0: the node's last `left` characters, or all of them.
    const taken = (node as Text).data.slice(-left);
    chunks.push(taken);
    left -= taken.length;
  }
  return left;
}

/**
 * The end of what a cell's main-document outputs show (its static renderer), any kind: compared before and after,
 * it tells whether the cell printed anything in between (a run going on after an error output). `scope`: the cell,
 * or its output area (a smaller tree to search: the output frame just added).
 */
export function mainOutputTail(scope: Element, maxChars = 256): string {
  // One renderer per output area (§4.2): the first found is the one.
  const renderer = scope.querySelector(OUTPUT.staticRenderer);
  return renderer ? streamTail([renderer], maxChars) : '';
}

/** The output area holding `frame` (what mainOutputTail reads for the frame's cell), or null. */
export function outputAreaOf(frame: Element): Element | null {
  return frame.closest(OUTPUT.area);
}

/**
 * The outputs under `scope` (a cell's output area, or an output frame's #output-body), in page order: the outermost
 * output elements. What an output holds is its own, whatever its classes.
 */
export function outputsIn(scope: Element): Element[] {
  return [...scope.querySelectorAll(OUTPUT_CORE.element)].filter((el) => outputElementOf(el, scope) === el);
}

/** The stream outputs under `scope` (outputsIn), stdout and stderr alike. */
export function streamOutputsIn(scope: Element): Element[] {
  return outputsIn(scope).filter((el) => outputKind(el) === 'stream');
}
