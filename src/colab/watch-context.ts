/**
 * What the page observer (observer.ts) and its watchers, one per kind of element (cells, outputs, toasts, the connect
 * button, dialogs), share: the handlers they report to, the one MutationObserver, and the batch being read.
 */

import type { OutputKind, RunState } from './cells';
import type { DialogKind } from './dialogs';

export interface PageHandlers {
  /**
   * A cell's run state changed, at `at` (the time of the page's change, which may be read SETTLE_MS later). A cell's
   * first readable state is recorded silently unless it is queued or running (then it comes as a change from
   * 'idle'): a cell appearing with a saved error is no execution of this page's.
   */
  cellState?(cell: Element, id: string | null, state: RunState, previous: RunState, at: number): void;
  /**
   * A new output element in a cell's static renderer (main document): an error output, or any output with
   * `wantAllText`. Outputs that arrive with their cell are not reported, but saved outputs that Colab renders late
   * into a cell already on the page (scrolled into view, §4.1) are: act only on cells seen running (cellState).
   */
  outputAdded?(cell: Element, id: string | null, element: Element, kind: OutputKind): void;
  /** Text appended to a stream output afterwards (only with `wantAllText`). */
  streamText?(cell: Element, id: string | null, text: string): void;
  /** An iframe was added by itself (a cell's output frame, made when the cell first needs one). */
  frameAdded?(frame: Element): void;
  /** A snackbar opened, with its text, e.g. "Your session crashed after using all available RAM. Get more RAM". */
  toast?(text: string, host: Element): void;
  dialogOpened?(kind: DialogKind, dialog: Element): void;
  /**
   * The connect button changed, while it is watched (`PageObserver.watchKernel`), after the batch's cell states were
   * reported: `PageObserver.kernelBusy()` tells what it shows now.
   */
  kernelChanged?(): void;
}

/** Only the class attribute of one element. */
export const CLASS_ONLY: MutationObserverInit = { attributes: true, attributeFilter: ['class'] };

/** The batch of records being read: one task's changes. */
export interface Batch {
  /** Counts batches: a toast's showing is told from a later one by it. */
  number: number;
  /** When its changes were made: its callback ends the task that made them. */
  at: number;
  /** The first look at the page: what it finds is the page as it was loaded (hooked, not reported). */
  initial: boolean;
}

export interface WatchContext {
  readonly handlers: PageHandlers;
  /**
   * The page observer's one MutationObserver: the records of one task come in one callback, in the order they
   * happened. Watchers observe through it what the document's tree does not show (shadow roots, one element's class).
   */
  readonly observer: MutationObserver;
  readonly batch: Batch;
  /** Reads the cells' changes that wait (cell-watcher.ts): called before anything else is reported. */
  settle(): void;
  /** Watches the class attribute of `el` alone (once): classes change all over the page, and are not watched there. */
  watchClass(el: Element): void;
}
