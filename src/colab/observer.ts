/**
 * Watches a Colab page: run-state transitions, new outputs, new output frames, toasts and dialogs.
 * One MutationObserver for the document and the shadow roots that must be watched (run buttons for their state
 * classes, snackbars for the open class; shadow mutations do not reach document observers, §8), one for text, only
 * while markers want it, and one for the connect button, only while asked.
 * Incremental: each record costs O(1) plus the size of the nodes it adds; nothing re-reads the whole page.
 * Colab is an SPA with lazily rendered cells and outputs (§4.1), so everything is hooked as it appears.
 */

import {
  cellId,
  cellOf,
  cellRunState,
  isCell,
  isUnderWay,
  type OutputKind,
  outputElementOf,
  outputKind,
  type RunState,
} from './cells';
import { classifyDialog, type DialogKind, dialogHost, isOpenDialog } from './dialogs';
import { nodeText, squash, streamAppender } from './dom';
import { kernelBusyAt } from './kernel-state';
import { CELL, CONNECT, DIALOG, OUTPUT, OUTPUT_CORE, TOAST } from './selectors';

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

export interface PageObserverOptions {
  /**
   * Report every new output, not only errors, and text appended to streams: costs a look at every output and printed
   * line, so off unless marker patterns exist.
   */
  wantAllText?: boolean;
}

export interface PageObserver {
  disconnect(): void;
  setWantAllText(on: boolean): void;
  /** Whether the connect button shows the runtime busy running code (§5.4), read now; false without one. */
  kernelBusy(): boolean;
  /**
   * Whether the connect button's changes are reported (kernelChanged); off at first. Colab renders it anew at every
   * cell of a Run all, so it is watched only while someone needs its changes.
   */
  watchKernel(on: boolean): void;
  /** Reads now the cells whose changes wait to be read together (`SETTLE_MS`): before something else is judged. */
  settle(): void;
  /**
   * `cell`'s changes are read at once until its execution ends (it may be failing, or run a command whose end is
   * judged); read now if they wait.
   */
  hurry(cell: Element): void;
}

/**
 * How long the changes of a cell whose execution is under way may wait, to be read with others. A Run all
 * changes each cell in small tasks of its own (running, then its end): read a moment later, most of its cells are
 * read once, at their end, several in one task. Nothing is judged before what waits is read (reports, the blindness
 * check), and a failing cell or a command is read at once. A second: one timer a second of a Run all, and a hidden
 * tab's timers wake once a second anyway.
 */
export const SETTLE_MS = 1000;

/** `Node.ELEMENT_NODE`, without looking up the global `Node` at every added node. */
const ELEMENT_NODE = 1;

/** What the document observer hooks when it appears: one selector, so a new subtree costs one query. */
const HOOKS = [CELL.cell, CELL.runButton, TOAST.host, DIALOG.hosts, DIALOG.mdc, CONNECT.host].join(', ');
/** The same and the outputs, for subtrees added to a page already shown (their outputs are new, scan()). */
const HOOKS_AND_OUTPUTS = `${HOOKS}, ${OUTPUT.element}`;
/**
 * What marks an error output: its own class. An element with one inside another output (a display_data copying
 * Colab's markup) is found too, and reported as that output, which is no error.
 */
const ERROR_MARKS = OUTPUT_CORE.errorClasses.map((name) => `.${name}`).join(', ');

/**
 * The hooks and the error marks, while only errors are wanted: most outputs are not errors, and a new subtree without
 * a mark costs one query that finds nothing.
 */
const HOOKS_AND_ERRORS = `${HOOKS}, ${ERROR_MARKS}`;

/** A run button's whole shadow tree, while where its state element sits is not known (not rendered yet, drifted). */
const RUN_BUTTON_TREE: MutationObserverInit = {
  subtree: true,
  childList: true,
  attributes: true,
  attributeFilter: ['class'],
};

/** Only the class attribute of one element. */
const CLASS_ONLY: MutationObserverInit = { attributes: true, attributeFilter: ['class'] };

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

/**
 * One observer for the document and the parts it cannot see or does not watch everywhere (run buttons' and toasts'
 * shadow roots; the class of the cells and dialogs that show their state by it): the records of one task come in one
 * callback, in the order they happened, and each changed cell is read once per batch. The connect button, which
 * changes at every cell of a Run all, has an observer of its own, on only while asked (watchKernel).
 * Classes change all over the page all the time, and a current cell's classes repeat its run button's state (§4.1):
 * the class attribute is watched only on older cells, whose run button holds no state element, and on MDC dialogs.
 */
export function observeColabPage(doc: Document, handlers: PageHandlers, opts: PageObserverOptions = {}): PageObserver {
  let wantAll = !!opts.wantAllText;
  const outputOfTarget = new WeakMap<Node, Element | null>();
  /**
   * The host of each watched shadow root, and of each run button's state element (its records' target), by kind:
   * a record is told from its target in one lookup.
   */
  const runButtonOwner = new WeakMap<Node, ButtonWatch>();
  const toastOwner = new WeakMap<Node, Element>();
  /** Each run button's and each cell's watch: a change of state costs a lookup or two, not one per fact. */
  const buttonWatches = new WeakMap<Element, ButtonWatch>();
  const cellWatches = new WeakMap<Element, CellWatch>();
  /** Snackbars open and already reported, with the batch and text of the report: one report per message shown. */
  const toastShown = new WeakMap<Element, { batch: number; text: string }>();
  let batch = 0;
  /** When the current batch's changes were made: its callback ends the task that made them. */
  let batchAt = Date.now();
  const dialogsOpen = new WeakSet<Element>();
  /** Outputs reported by outputAdded in the current batch: their text records are not "appended" text. */
  const fresh = new Set<Element>();
  /** The root of the subtree scanned last in the current batch. */
  let lastScanned: Element | null = null;
  /** Cells whose state may have changed in the current batch, read once at its end. */
  const changedCells = new Set<CellWatch>();
  /** Cells with an execution under way that may have changed since: read together (settle), SETTLE_MS later at most. */
  const settling = new Set<CellWatch>();
  let settleTimer: ReturnType<typeof setTimeout> | undefined;
  const appended = streamAppender();
  let initial = true;
  let connectHost: Element | null = null;
  /** The connect button's shadow root, observed while watchKernel is on; null while off. */
  let kernelMo: MutationObserver | null = null;
  /** A new connect button appeared while watched: said at the batch's end. */
  let kernelTouched = false;

  /**
   * The tree of each record target, remembered where it is the document or a watched shadow root: nodes stay in the
   * tree they are made in (a detached one may be inserted again, so its own root is not remembered).
   */
  const rootOfTarget = new WeakMap<Node, Node>();
  function rootOf(target: Node): Node {
    let root = rootOfTarget.get(target);
    if (root) return root;
    root = target.getRootNode();
    if (root === doc || toastOwner.has(root) || runButtonOwner.has(root)) {
      rootOfTarget.set(target, root);
    }
    return root;
  }

  /** Elements whose class attribute is watched on their own. */
  const classWatched = new WeakSet<Element>();

  const mo = new MutationObserver((records) => onBatch(withRest(records, textMo)));
  /** Text changes in the document, observed only while all text is wanted (markers): streams print all night. */
  let textMo: MutationObserver | null = null;

  /** The output element holding `node`, cached per node: a stream's `pre` receives every printed line. */
  function outputOf(node: Node | null): Element | null {
    if (!node) return null;
    let out = outputOfTarget.get(node);
    if (out === undefined) {
      out = outputElementOf(node, OUTPUT.staticRenderer);
      outputOfTarget.set(node, out);
    }
    return out;
  }

  function cellWatchOf(cell: Element): CellWatch {
    let watch = cellWatches.get(cell);
    if (!watch) {
      watch = { cell, run: null, state: undefined, changedAt: batchAt, hurry: false, id: undefined };
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

  const idOfCell = (cell: Element) => idOf(cellWatchOf(cell));

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
    if (!stateElement) watchClass(watch.cell);
    const previous = watch.state;
    watch.state = state;
    const underWay = isUnderWay(state);
    if (!underWay) watch.hurry = false;
    // A cell first seen queued or running is an execution under way (a reload mid-run, a cell rendered late).
    const changed = previous === undefined ? underWay : previous !== state;
    if (changed) handlers.cellState?.(watch.cell, idOf(watch), state, previous ?? 'idle', watch.changedAt);
  }

  function watchToast(toast: Element): void {
    const root = toast.shadowRoot;
    if (!root || toastOwner.has(root)) return;
    toastOwner.set(root, toast);
    mo.observe(root, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
      attributeFilter: ['class'],
    });
  }

  function watchConnectButton(host: Element): void {
    connectHost = host;
    if (!kernelMo) return;
    observeConnectButton(kernelMo, host);
    kernelTouched = true;
  }

  function observeConnectButton(observer: MutationObserver, host: Element): void {
    if (host.shadowRoot) observer.observe(host.shadowRoot, { subtree: true, childList: true, characterData: true });
  }

  function watchClass(el: Element): void {
    if (classWatched.has(el)) return;
    classWatched.add(el);
    mo.observe(el, CLASS_ONLY);
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
    watch.changedAt = batchAt;
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

  function checkToast(host: Element): void {
    const surface = host.shadowRoot?.querySelector(TOAST.surface);
    if (!surface?.classList.contains(TOAST.openClass) && !host.hasAttribute('open')) {
      toastShown.delete(host);
      return;
    }
    const text = toastText(host);
    // Another message in the toast still open (its label rewritten in place) is a new showing too; text added after
    // the reported one (the action link rendering a moment later) is not.
    const reported = toastShown.get(host)?.text;
    if (!text || (reported !== undefined && text.startsWith(reported))) return;
    toastShown.set(host, { batch, text });
    if (initial) return;
    settle();
    handlers.toast?.(text, host);
  }

  /**
   * A crash toast is sticky: a second crash overnight shows again in the toast still open. Setting the label, or
   * MDC's opening class, on a toast reported in an earlier batch is a new showing (even with the same text).
   */
  function reshowToast(host: Element): void {
    if ((toastShown.get(host)?.batch ?? batch) < batch) toastShown.delete(host);
    checkToast(host);
  }

  function checkDialog(el: Element): void {
    const dialog = dialogHost(el);
    if (!isOpenDialog(dialog)) {
      dialogsOpen.delete(dialog);
      return;
    }
    if (dialogsOpen.has(dialog)) return;
    dialogsOpen.add(dialog);
    if (initial) return;
    settle();
    handlers.dialogOpened?.(classifyDialog(dialog), dialog);
  }

  function hookRunButton(run: ButtonWatch): void {
    const root = run.button.shadowRoot;
    if (root && !runButtonOwner.has(root)) watchRunButton(run);
    buttonChanged(run);
  }

  /** By kind, the commonest first: a notebook's hooks are almost all cells and run buttons. */
  function hook(el: Element): void {
    const tag = el.localName;
    if (tag === CELL.runButton) {
      hookRunButton(buttonWatchOf(el));
    } else if (isCell(el)) {
      cellChanged(cellWatchOf(el));
    } else if (tag === TOAST.host) {
      watchToast(el);
      checkToast(el);
    } else if (tag === CONNECT.host) {
      watchConnectButton(el);
    } else {
      if (el.matches(DIALOG.mdc)) watchClass(el);
      if (el.matches(DIALOG.hosts)) checkDialog(el);
    }
  }

  /** `el`: an output, or an error mark (HOOKS_AND_ERRORS); the outermost output holding it is reported once a batch. */
  function reportOutput(el: Element): void {
    const out = outputElementOf(el, OUTPUT.staticRenderer);
    if (!out || fresh.has(out)) return;
    const kind = outputKind(out);
    if (kind !== 'error' && !wantAll) return;
    const cell = cellOf(out);
    if (!cell) return;
    fresh.add(out);
    const watch = cellWatchOf(cell);
    // Its end, if it fails, is judged the moment it comes.
    if (kind === 'error') watch.hurry = true;
    settle();
    handlers.outputAdded?.(cell, idOf(watch), out, kind);
  }

  /**
   * Outputs are reported only when they arrive in a cell already on the page: outputs that come with their cell
   * (the notebook rendering after load, a cell re-created) are saved outputs, not new failures. One query finds both.
   */
  function scan(root: Element, tag = root.localName): void {
    lastScanned = root;
    // What a cell's run adds most (an output renderer, an output frame) holds no hook, and an error only with a mark:
    // while only errors are wanted, one look for a mark settles it.
    if (tag === 'iframe') {
      if (!initial) handlers.frameAdded?.(root);
      return;
    }
    if (tag === OUTPUT.staticRenderer && !wantAll && !root.querySelector(ERROR_MARKS)) return;
    // At the first look (firstLook) only hooks are taken: one query, cheaper than a lookup per hook selector.
    const selector = initial ? HOOKS : wantAll ? HOOKS_AND_OUTPUTS : HOOKS_AND_ERRORS;
    const found = root.matches(selector) ? [root, ...root.querySelectorAll(selector)] : root.querySelectorAll(selector);
    const outputs: Element[] = [];
    let withCell = false;
    for (const el of found) {
      if (initial) {
        hook(el);
      } else if (el.matches(HOOKS)) {
        withCell ||= isCell(el);
        hook(el);
      } else {
        outputs.push(el);
      }
    }
    if (!withCell) for (const el of outputs) reportOutput(el);
  }

  /**
   * The first look at the page, without one query over all its elements (a long notebook's are almost all inside its
   * cells): every subtree beside the path to the cell list is searched for hooks, and in the list each cell gives its
   * run button, found near its top (§4.1: the query stops there). Whatever else the list holds is searched whole,
   * and a page without a cell list is searched whole.
   */
  function firstLook(root: Element): void {
    const list = root.querySelector(CELL.list);
    if (!list) {
      scan(root);
      return;
    }
    for (let node: Element = list; node !== root; ) {
      const parent = node.parentElement as Element;
      for (let el = parent.firstElementChild; el; el = el.nextElementSibling) if (el !== node) scan(el);
      if (parent.matches(HOOKS)) hook(parent);
      node = parent;
    }
    for (let el = list.firstElementChild; el; el = el.nextElementSibling) {
      // Nearly every child is a cell: one match (the selector checks the id too), not isCell's quick reject first.
      if (!el.matches(CELL.cell)) {
        scan(el);
        continue;
      }
      const watch = cellWatchOf(el);
      cellChanged(watch);
      const button = el.querySelector(CELL.runButton);
      if (!button) continue;
      // Paired first, so hooking it does not look for its cell.
      const run = buttonWatchOf(button);
      pairButton(run, watch);
      hookRunButton(run);
    }
  }

  function onStream(out: Element, record: MutationRecord): void {
    if (!wantAll || fresh.has(out) || outputKind(out) !== 'stream') return;
    const cell = cellOf(out);
    const text = cell && appended(record);
    if (!cell || !text) return;
    settle();
    handlers.streamText?.(cell, idOfCell(cell), text);
  }

  function onAttribute(el: Element, name: string | null): void {
    if (name === 'class') {
      if (isCell(el)) cellChanged(cellWatchOf(el));
      else if (el.matches(DIALOG.mdc)) checkDialog(el);
    } else if (name === TOAST.labelAttr && el.localName === TOAST.host) {
      reshowToast(el);
    } else if (name === 'title' && el.localName === CELL.runButton) {
      buttonChanged(buttonWatchOf(el));
    } else if (name === 'open' || name === 'opened') {
      if (el.matches(DIALOG.hosts)) checkDialog(el);
    }
  }

  /** A record of the document's own tree: attributes of hooked elements, added subtrees, text inside outputs. */
  function onDocumentRecord(record: MutationRecord, target: Node, previous: MutationRecord | undefined): void {
    if (record.type === 'attributes') {
      // A class changed twice in a row on one element (a state's classes toggled one by one) is read once.
      const repeated = previous?.target === target && previous.attributeName === record.attributeName;
      if (!repeated) onAttribute(target as Element, record.attributeName);
      return;
    }
    const added = record.addedNodes;
    const count = added.length;
    // Nodes only removed (Run all clearing every queued cell's outputs) matter only to the stream text, if wanted.
    if (!wantAll && count === 0) return;
    // What a cell's run adds most, alone: its output renderer or an output frame, never inside an output.
    if (count === 1) {
      const first = added[0] as Element;
      const tag = first.localName;
      if (tag === OUTPUT.staticRenderer || tag === 'iframe') {
        scan(first, tag);
        return;
      }
    }
    // Inside an output (every printed line lands here): only stream text matters; no structure to hook.
    const out = outputOf(record.type === 'characterData' ? target.parentNode : target);
    if (out) {
      onStream(out, record);
      return;
    }
    // Indexed: a NodeList iterated with for…of goes through the iterator protocol, call by call.
    for (let i = 0; i < count; i++) {
      const node = added[i] as Node;
      if (node.nodeType === ELEMENT_NODE) scan(node as Element);
    }
  }

  /**
   * A record in a watched shadow root: a run button's tree, a toast's (collected in `toasts`, made at the batch's
   * first toast record).
   */
  function onShadowRecord(
    root: Node,
    target: Node,
    toasts: Map<Element, boolean> | null,
  ): Map<Element, boolean> | null {
    const toast = toastOwner.get(root);
    if (toast) {
      const seen = toasts ?? new Map<Element, boolean>();
      seen.set(toast, !!seen.get(toast) || !!(target as Element).classList?.contains(TOAST.openingClass));
      return seen;
    }
    const run = runButtonOwner.get(root);
    if (run) buttonChanged(run);
    return toasts;
  }

  /** Cell states first, then the connect button: a reader of both sees the batch's cells already. */
  function flush(): void {
    lastScanned = null;
    // Most batches of a Run all change no cell to read now and report no output: no iterator made for nothing.
    if (changedCells.size > 0) {
      for (const watch of changedCells) updateCell(watch);
      changedCells.clear();
    }
    if (fresh.size > 0) fresh.clear();
    if (settling.size > 0) settleTimer ??= setTimeout(settle, SETTLE_MS);
    if (!kernelTouched) return;
    kernelTouched = false;
    handlers.kernelChanged?.();
  }

  function onBatch(records: MutationRecord[]): void {
    batch++;
    batchAt = Date.now();
    let toasts: Map<Element, boolean> | null = null;
    let previous: MutationRecord | undefined;
    for (const record of records) {
      const target = record.target;
      // A run button's state element is its own key, and the commonest; anything else is found by its root.
      const run = runButtonOwner.get(target);
      if (run) {
        // Not its state element: the root got new children, and its state element may be new (or rendered at last).
        if (run.stateElement !== target) watchRunButton(run);
        buttonChanged(run);
      } else if (!(lastScanned && (target === lastScanned || lastScanned.contains(target)))) {
        // (Inside the subtree scanned last in this batch, say a renderer added and then its first output, a record
        // says nothing new: the scan saw the subtree as it is now, and reported an output in it with its text. The
        // commonest is that root itself, told without a call.)
        const root = rootOf(target);
        if (root === doc) onDocumentRecord(record, target, previous);
        else toasts = onShadowRecord(root, target, toasts);
      }
      previous = record;
    }
    if (toasts) for (const [host, reopened] of toasts) (reopened ? reshowToast : checkToast)(host);
    flush();
  }

  const observeText = () => {
    textMo = new MutationObserver((records) => onBatch(withRest(records, mo)));
    textMo.observe(doc, { subtree: true, characterData: true, characterDataOldValue: true });
  };

  mo.observe(doc, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ['title', 'open', 'opened', TOAST.labelAttr],
  });
  if (wantAll) observeText();
  if (doc.documentElement) firstLook(doc.documentElement);
  flush();
  initial = false;

  return {
    disconnect() {
      clearTimeout(settleTimer);
      mo.disconnect();
      textMo?.disconnect();
      kernelMo?.disconnect();
    },
    setWantAllText(on: boolean) {
      if (on === wantAll) return;
      // The records so far were made under the old choice.
      const pending = withRest(mo.takeRecords(), textMo);
      wantAll = on;
      textMo?.disconnect();
      textMo = null;
      if (on) observeText();
      if (pending.length > 0) onBatch(pending);
    },
    kernelBusy() {
      return !!connectHost && kernelBusyAt(connectHost);
    },
    watchKernel(on: boolean) {
      if (!on) {
        kernelMo?.disconnect();
        kernelMo = null;
        return;
      }
      if (kernelMo) return;
      // Created after the page observer, so called back after it in a task: the batch's cell states come first.
      kernelMo = new MutationObserver(() => handlers.kernelChanged?.());
      if (connectHost) observeConnectButton(kernelMo, connectHost);
    },
    settle,
    hurry(cell) {
      const watch = cellWatches.get(cell);
      if (!watch) return;
      watch.hurry = true;
      if (settling.has(watch)) settle();
    },
  };
}

/**
 * `records` and what the other observer has queued: the first of the two called back in a task takes the other's
 * records of that task (it is then not called back), so that one batch holds the task's records. Nothing is
 * allocated when there is nothing more (at every batch).
 */
function withRest(records: MutationRecord[], other: MutationObserver | null): MutationRecord[] {
  const more = other?.takeRecords();
  return more?.length ? records.concat(more) : records;
}

/**
 * A snackbar's message. Where the label lives is unverified (§5.1), so all candidates are read: the `labeltext`
 * attribute, the MDC label (or all text) in the shadow root, and slotted light-DOM text other than the close icon.
 */
export function toastText(host: Element): string {
  const shadow = host.shadowRoot;
  const inShadow = shadow?.querySelector(TOAST.label)?.textContent ?? shadow?.textContent;
  let light = '';
  for (const node of host.childNodes) {
    if (node.nodeType === Node.ELEMENT_NODE && (node as Element).matches(TOAST.notText)) continue;
    light += nodeText(node);
  }
  const parts = [host.getAttribute(TOAST.labelAttr), inShadow, light].map(squash).filter(Boolean);
  return [...new Set(parts)].join(' ');
}
