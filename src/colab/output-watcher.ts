/**
 * The page observer's watcher of outputs: error outputs (and, while all text is wanted, every output and the text
 * appended to streams) that arrive in a cell already on the page, and output frames made by themselves.
 */

import { cellOf, outputElementOf, outputKind } from './cells';
import { streamAppender } from './dom';
import { OUTPUT, OUTPUT_CORE } from './selectors';
import type { WatchContext } from './watch-context';

/**
 * What marks an error output: its own class. An element with one inside another output (a display_data copying
 * Colab's markup) is found too, and reported as that output, which is no error.
 */
export const ERROR_MARKS = OUTPUT_CORE.errorClasses.map((name) => `.${name}`).join(', ');

/** What the output watcher asks of the cell watcher. */
export interface OutputCells {
  idOf(cell: Element): string | null;
  /** `cell` showed an error output. */
  errorShown(cell: Element): void;
}

export type OutputWatcher = ReturnType<typeof watchOutputs>;

/**
 * `wantAllText`: report every output, not only errors, and text appended to streams (costs a look at every output
 * and printed line, so off unless marker patterns exist).
 */
export function watchOutputs(ctx: WatchContext, cells: OutputCells, wantAllText: boolean) {
  const { handlers } = ctx;
  let wantAll = wantAllText;
  const outputOfTarget = new WeakMap<Node, Element | null>();
  /** Outputs reported by outputAdded in the current batch: their text records are not "appended" text. */
  const fresh = new Set<Element>();
  const appended = streamAppender();

  return {
    get wantAll(): boolean {
      return wantAll;
    },
    setWantAll(on: boolean): void {
      wantAll = on;
    },
    /** The output element holding `node`, cached per node: a stream's `pre` receives every printed line. */
    holding(node: Node | null): Element | null {
      if (!node) return null;
      let out = outputOfTarget.get(node);
      if (out === undefined) {
        out = outputElementOf(node, OUTPUT.staticRenderer);
        outputOfTarget.set(node, out);
      }
      return out;
    },
    /** A renderer added by itself shows nothing to report: only errors are wanted and it holds no error mark. */
    nothingIn(renderer: Element): boolean {
      return !wantAll && !renderer.querySelector(ERROR_MARKS);
    },
    /** `el`: an output, or an error mark; the outermost output holding it is reported once a batch. */
    report(el: Element): void {
      const out = outputElementOf(el, OUTPUT.staticRenderer);
      if (!out || fresh.has(out)) return;
      const kind = outputKind(out);
      if (kind !== 'error' && !wantAll) return;
      const cell = cellOf(out);
      if (!cell) return;
      fresh.add(out);
      if (kind === 'error') cells.errorShown(cell);
      ctx.settle();
      handlers.outputAdded?.(cell, cells.idOf(cell), out, kind);
    },
    /** A record inside the output `out`: text appended to a stream, said while all text is wanted. */
    streamRecord(out: Element, record: MutationRecord): void {
      if (!wantAll || fresh.has(out) || outputKind(out) !== 'stream') return;
      const cell = cellOf(out);
      const text = cell && appended(record);
      if (!cell || !text) return;
      ctx.settle();
      handlers.streamText?.(cell, cells.idOf(cell), text);
    },
    /** An iframe added by itself: a cell's output frame (not said at the first look). */
    frameAdded(frame: Element): void {
      if (!ctx.batch.initial) handlers.frameAdded?.(frame);
    },
    flush(): void {
      if (fresh.size > 0) fresh.clear();
    },
  };
}
