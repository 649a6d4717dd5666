/**
 * The page observer's watcher of cells and their run states: each cell's run button (its shadow root, or the one
 * element of it that holds the state), the class of older cells whose button holds none, and when each changed cell
 * is read (at the batch's end, or together a moment later while its execution is under way).
 */

import { cellId, cellOf, cellRunState, isUnderWay, type RunState } from './cells';
import { CELL } from './selectors';
import { CLASS_ONLY, type WatchContext } from './watch-context';

/**
 * How long the changes of a cell whose execution is under way may wait, to be read with others. A Run all
 * changes each cell in small tasks of its own (running, then its end): read a moment later, most of its cells are
 * read once, at their end, several in one task. Nothing is judged before what waits is read (reports, the blindness
 * check), and a failing cell or a command is read at once. A second: one timer a second of a Run all, and a hidden
 * tab's timers wake once a second anyway.
 */
export const SETTLE_MS = 1000;

/** A run button's whole shadow tree, while where its state element sits is not known (not rendered yet, drifted). */
const RUN_BUTTON_TREE: MutationObserverInit = {
  subtree: true,
  childList: true,
  attributes: true,
  attributeFilter: ['class'],
};

/**
 * What is known of one run button: its state element (where Colab renders one as its shadow root's child,
 * watchRunButton) and its cell's watch, once found (a button stays in its cell). A record of its shadow root or state
 * element leads here in one lookup.
 */
interface ButtonWatch {
  readonly button: Element;
  stateElement: Element | null;
  cell: CellWatch | null;
}

/**
 * What is known of one cell: its run button, its last state read (undefined before the first), whether its changes
 * are read at once while its execution is under way (hurry), and its id.
 */
interface CellWatch {
  readonly cell: Element;
  run: ButtonWatch | null;
  state: RunState | undefined;
  /** When it last changed (the batch that said so). */
  changedAt: number;
  hurry: boolean;
  /** Read once (Colab keeps a cell's id for its life): reading a DOM string costs a copy each time. */
  id: string | null | undefined;
}

export type CellWatcher = ReturnType<typeof watchCells>;

export function watchCells(ctx: WatchContext) {
  const { observer: mo, batch, handlers } = ctx;
  /** The host of each watched run button's shadow root and state element (its records' target): one lookup. */
  const runButtonOwner = new WeakMap<Node, ButtonWatch>();
  /** Each run button's and each cell's watch: a change of state costs a lookup or two, not one per fact. */
  const buttonWatches = new WeakMap<Element, ButtonWatch>();
  const cellWatches = new WeakMap<Element, CellWatch>();
  /** Cells whose state may have changed in the current batch, read once at its end. */
  const changedCells = new Set<CellWatch>();
  /** Cells with an execution under way that may have changed since: read together (settle), SETTLE_MS later at most. */
  const settling = new Set<CellWatch>();
  let settleTimer: ReturnType<typeof setTimeout> | undefined;

  function cellWatchOf(cell: Element): CellWatch {
    let watch = cellWatches.get(cell);
    if (!watch) {
      watch = { cell, run: null, state: undefined, changedAt: batch.at, hurry: false, id: undefined };
      cellWatches.set(cell, watch);
    }
    return watch;
  }

  function buttonWatchOf(button: Element): ButtonWatch {
    let watch = buttonWatches.get(button);
    if (!watch) {
      watch = { button, stateElement: null, cell: null };
      buttonWatches.set(button, watch);
    }
    return watch;
  }

  function idOf(watch: CellWatch): string | null {
    if (watch.id === undefined) watch.id = cellId(watch.cell);
    return watch.id;
  }

  function runButtonIn(watch: CellWatch): ButtonWatch | null {
    if (watch.run?.button.isConnected) return watch.run;
    const button = watch.cell.querySelector(CELL.runButton);
    if (!button) return null;
    watch.run = buttonWatchOf(button);
    return watch.run;
  }

  function updateCell(watch: CellWatch): void {
    const run = runButtonIn(watch);
    const button = run?.button ?? null;
    // No state element known: cellRunState looks for one anywhere in the button (undefined), or has no button (null).
    const stateElement = run ? (run.stateElement ?? undefined) : null;
    // A run button whose shadow root Lit has not rendered yet would read as idle: wait for the render.
    if (!stateElement && button?.shadowRoot && !button.shadowRoot.firstElementChild) return;
    const state = cellRunState(watch.cell, button, stateElement);
    if (!stateElement) ctx.watchClass(watch.cell);
    const previous = watch.state;
    watch.state = state;
    const underWay = isUnderWay(state);
    if (!underWay) watch.hurry = false;
    // A cell first seen queued or running is an execution under way (a reload mid-run, a cell rendered late).
    const changed = previous === undefined ? underWay : previous !== state;
    if (changed) handlers.cellState?.(watch.cell, idOf(watch), state, previous ?? 'idle', watch.changedAt);
  }

  /**
   * A run button's state is read from one element of its shadow root, which Colab renders as the root's child (§4.1,
   * the captures): its class, and the root's children (the first render, a state element replaced), are all that is
   * observed. The icon and the count are rendered again at every change, and each of those records costs a callback's
   * worth of work per cell. Elsewhere (not rendered yet, a drifted layout) the whole tree is observed.
   */
  function watchRunButton(run: ButtonWatch): void {
    const root = run.button.shadowRoot;
    if (!root) return;
    runButtonOwner.set(root, run);
    const state = root.querySelector(CELL.execution);
    if (state?.parentNode !== root) {
      run.stateElement = null;
      mo.observe(root, RUN_BUTTON_TREE);
      return;
    }
    runButtonOwner.set(state, run);
    run.stateElement = state;
    mo.observe(root, { childList: true });
    mo.observe(state, CLASS_ONLY);
  }

  /** The watch of the button's cell, found once (not remembered while the button is in no cell). */
  function cellOfButton(run: ButtonWatch): CellWatch | null {
    if (run.cell) return run.cell;
    const cell = cellOf(run.button);
    if (cell) pairButton(run, cellWatchOf(cell));
    return run.cell;
  }

  function pairButton(run: ButtonWatch, watch: CellWatch): void {
    run.cell = watch;
    watch.run = run;
  }

  function buttonChanged(run: ButtonWatch): void {
    const watch = cellOfButton(run);
    if (watch) cellChanged(watch);
  }

  /**
   * A cell idle so far is read at the batch's end: an execution's start is never late. Once under way, its running and
   * its end wait (SETTLE_MS), unless it hurries.
   */
  function cellChanged(watch: CellWatch): void {
    watch.changedAt = batch.at;
    const waits = isUnderWay(watch.state) && !watch.hurry;
    (waits ? settling : changedCells).add(watch);
  }

  /** Reads the cells that wait, in the order they first changed. */
  function settle(): void {
    // Nothing waits, and no timer is set (set only while something waits): the common case, at every printed line.
    if (settling.size === 0) return;
    clearTimeout(settleTimer);
    settleTimer = undefined;
    // Copied: a report made while reading may ask to settle again.
    const cells = [...settling];
    settling.clear();
    for (const watch of cells) updateCell(watch);
  }

  function hookRunButton(run: ButtonWatch): void {
    const root = run.button.shadowRoot;
    if (root && !runButtonOwner.has(root)) watchRunButton(run);
    buttonChanged(run);
  }

  return {
    settle,
    /** Whether `root` is a watched run button's shadow root. */
    owns: (root: Node): boolean => runButtonOwner.has(root),
    /**
     * A record whose target is a run button's state element or shadow root (the commonest), taken here: false for any
     * other. One of its root (not its state element) says the root got new children: its state element may be new.
     */
    takeRecord(target: Node): boolean {
      const run = runButtonOwner.get(target);
      if (!run) return false;
      if (run.stateElement !== target) watchRunButton(run);
      buttonChanged(run);
      return true;
    },
    /** A record inside a watched shadow root other than a state element: its button changed, if `root` is one's. */
    shadowRecord(root: Node): void {
      const run = runButtonOwner.get(root);
      if (run) buttonChanged(run);
    },
    hookButton: (button: Element) => hookRunButton(buttonWatchOf(button)),
    /** A cell appeared, or its class changed (older cells show their state by it). */
    cellChanged: (cell: Element) => cellChanged(cellWatchOf(cell)),
    /** A run button's title changed (older run buttons say their state by it). */
    buttonChanged: (button: Element) => buttonChanged(buttonWatchOf(button)),
    /** A cell of the cell list at the first look: its run button is found near its top, paired first. */
    hookListed(cell: Element): void {
      const watch = cellWatchOf(cell);
      cellChanged(watch);
      const button = cell.querySelector(CELL.runButton);
      if (!button) return;
      const run = buttonWatchOf(button);
      pairButton(run, watch);
      hookRunButton(run);
    },
    idOf: (cell: Element): string | null => idOf(cellWatchOf(cell)),
    /** `cell` showed an error output: its end, if it fails, is judged the moment it comes. */
    errorShown(cell: Element): void {
      cellWatchOf(cell).hurry = true;
    },
    hurry(cell: Element): void {
      const watch = cellWatches.get(cell);
      if (!watch) return;
      watch.hurry = true;
      if (settling.has(watch)) settle();
    },
    /** The batch's end: its changed cells are read, and a timer set for those that wait. */
    flush(): void {
      // Most batches of a Run all change no cell to read now: no iterator made for nothing.
      if (changedCells.size > 0) {
        for (const watch of changedCells) updateCell(watch);
        changedCells.clear();
      }
      if (settling.size > 0) settleTimer ??= setTimeout(settle, SETTLE_MS);
    },
    stop: () => clearTimeout(settleTimer),
  };
}
