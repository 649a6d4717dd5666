/**
 * Inside Colab's cross-origin output frame (REFERENCE.md §4.2, #16; snippet outputframe-body-samples):
 * `#output-area > #output-body > div.<output_type> > div.output_subarea > pre`. The frame's content script uses this
 * and reports to the top frame by postMessage; only here can tracebacks rendered in the frame be read.
 */

import { OUTPUT_FRAME_HOST, OUTPUT_FRAME_PATH } from '../site/origins';
import { type OutputKind, outputElementOf, outputKind } from './cells';
import { streamAppender } from './dom';
import { outputList } from './output-list';
import { OUTPUT_CORE } from './selectors';
import { outputsIn, streamTail } from './stream-tail';

/**
 * Colab's outputs live under #output-body, the document's first. The rest of the frame's body is the notebook's: HTML
 * and scripts it displays can put anything there, elements with an `error` class and an `#output-body` of their own
 * included, so it is never read; neither is what an output holds (only its own class says what it is).
 */
const outputBody = (doc: Document) => doc.getElementById(OUTPUT_CORE.frameBody);

/**
 * Whether this document is a Colab output frame: https, a googleusercontent.com host, path /outputframe.html.
 * The host is not required to contain "colab" (hosts are random, "<hash>-0-colab" is only typical, §4.2); the
 * path is Colab's own, and the top frame still checks `event.source` and the tab token before trusting a report.
 */
export function isColabOutputFrame(location: Pick<Location, 'protocol' | 'hostname' | 'pathname'>): boolean {
  return (
    location.protocol === 'https:' &&
    OUTPUT_FRAME_HOST.test(location.hostname) &&
    location.pathname === OUTPUT_FRAME_PATH
  );
}

/**
 * How the frame's outputs end, when its cell's execution ended: the end of its stream outputs (what a launched program
 * printed last), its outputs' list (their count and numbers), its last output, and whether that is an error output
 * (an earlier one is followed by others: its run went on after it).
 */
export function frameEnding(
  doc: Document,
): ReturnType<typeof outputList> & { text: string; error: boolean; last?: Element } {
  const outputs = frameOutputs(doc);
  const last = outputs.at(-1);
  const text = streamTail(outputs.filter((el) => outputKind(el) === 'stream'));
  return { text, error: !!last && outputKind(last) === 'error', last, ...outputList(outputs) };
}

/** The frame's outputs, in order. */
export function frameOutputs(doc: Document): Element[] {
  const body = outputBody(doc);
  return body ? outputsIn(body) : [];
}

/**
 * Calls `outputAdded` once for each output element, existing ones included: the frame exists only for its cell's
 * output, so what it holds when the script starts (at document_start, normally nothing) is as new as what arrives
 * later. With `streamText`, also calls it with the text appended to a stream output after it was reported.
 * Observes until `signal` aborts.
 */
export function observeOutputFrame(
  doc: Document,
  outputAdded: (kind: OutputKind, element: Element) => void,
  streamText: ((text: string) => void) | null,
  signal: AbortSignal,
): void {
  const reported = new WeakSet<Element>();
  /** Reported in the current batch: their text records are the initial text, not appended text. */
  const fresh = new Set<Element>();
  const appended = streamAppender();

  const report = (el: Element) => {
    if (reported.has(el) || outputElementOf(el, outputBody(doc)) !== el) return;
    reported.add(el);
    fresh.add(el);
    outputAdded(outputKind(el), el);
  };

  // `report` tells an output from the rest (`root` included): an element inside an output, or in none, is skipped.
  const scan = (root: Element) => [root, ...root.querySelectorAll(OUTPUT_CORE.element)].forEach(report);

  const onRecord = (record: MutationRecord) => {
    // A frame's document is its cell's output only: a few ancestors to the scope, no cache needed (the page's is).
    // A text node's output is its parent's.
    const out = outputElementOf(record.target, outputBody(doc));
    if (!out) {
      for (const node of record.addedNodes) if (node.nodeType === Node.ELEMENT_NODE) scan(node as Element);
      return;
    }
    if (!streamText || fresh.has(out) || outputKind(out) !== 'stream') return;
    const text = appended(record);
    if (text) streamText(text);
  };

  const mo = new MutationObserver((records) => {
    records.forEach(onRecord);
    fresh.clear();
  });
  const want = !!streamText;
  mo.observe(doc, { childList: true, subtree: true, characterData: want, characterDataOldValue: want });
  signal.addEventListener('abort', () => mo.disconnect());
  if (doc.documentElement) scan(doc.documentElement);
  fresh.clear();
}
