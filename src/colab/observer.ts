/**
 * Watches a Colab page: run-state transitions, new outputs, new output frames, toasts and dialogs.
 * One MutationObserver for the document and the shadow roots that must be watched (run buttons for their state
 * classes, snackbars for the open class; shadow mutations do not reach document observers, §8), one for text, only
 * while markers want it, and one for the connect button, only while asked.
 * Incremental: each record costs O(1) plus the size of the nodes it adds; nothing re-reads the whole page.
 * Colab is an SPA with lazily rendered cells and outputs (§4.1), so everything is hooked as it appears.
 *
 * This module is the dispatcher: it takes each batch of records and hands each to the watcher of its kind of
 * element, each with its own state: cells and run states (cell-watcher.ts), outputs (output-watcher.ts), toasts
 * (toast-watcher.ts), the connect button (connect-watcher.ts), dialogs (dialog-watcher.ts). What a subtree added
 * to the page holds for them is found by subtree-scan.ts.
 */

import { watchCells } from './cell-watcher';
import { isCell } from './cells';
import { watchConnectButton } from './connect-watcher';
import { watchDialogs } from './dialog-watcher';
import { watchOutputs } from './output-watcher';
import { CELL, DIALOG, OUTPUT, TOAST } from './selectors';
import { scanSubtrees } from './subtree-scan';
import { watchToasts } from './toast-watcher';
import { type Batch, CLASS_ONLY, type PageHandlers, type WatchContext } from './watch-context';

export { SETTLE_MS } from './cell-watcher';
export { toastText } from './toast-watcher';
export type { PageHandlers } from './watch-context';

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

/** `Node.ELEMENT_NODE`, without looking up the global `Node` at every added node. */
const ELEMENT_NODE = 1;

/**
 * One observer for the document and the parts it cannot see or does not watch everywhere (run buttons' and toasts'
 * shadow roots; the class of the cells and dialogs that show their state by it): the records of one task come in one
 * callback, in the order they happened, and each changed cell is read once per batch. The connect button, which
 * changes at every cell of a Run all, has an observer of its own, on only while asked (watchKernel).
 * Classes change all over the page all the time, and a current cell's classes repeat its run button's state (§4.1):
 * the class attribute is watched only on older cells, whose run button holds no state element, and on MDC dialogs.
 */
export function observeColabPage(doc: Document, handlers: PageHandlers, opts: PageObserverOptions = {}): PageObserver {
  const batch: Batch = { number: 0, at: Date.now(), initial: true };
  /** Elements whose class attribute is watched on their own. */
  const classWatched = new WeakSet<Element>();
  const mo = new MutationObserver((records) => onBatch(withRest(records, textMo)));
  /** Text changes in the document, observed only while all text is wanted (markers): streams print all night. */
  let textMo: MutationObserver | null = null;
  const ctx: WatchContext = {
    handlers,
    observer: mo,
    batch,
    // The cell watcher's, made next with this context.
    settle: () => cells.settle(),
    watchClass(el) {
      if (classWatched.has(el)) return;
      classWatched.add(el);
      mo.observe(el, CLASS_ONLY);
    },
  };
  const cells = watchCells(ctx);
  const outputs = watchOutputs(ctx, cells, !!opts.wantAllText);
  const toasts = watchToasts(ctx);
  const connect = watchConnectButton(ctx);
  const dialogs = watchDialogs(ctx);
  const subtrees = scanSubtrees(batch, { cells, outputs, toasts, connect, dialogs });

  /**
   * The tree of each record target, remembered where it is the document or a watched shadow root: nodes stay in the
   * tree they are made in (a detached one may be inserted again, so its own root is not remembered).
   */
  const rootOfTarget = new WeakMap<Node, Node>();
  function rootOf(target: Node): Node {
    let root = rootOfTarget.get(target);
    if (root) return root;
    root = target.getRootNode();
    if (root === doc || toasts.owns(root) || cells.owns(root)) rootOfTarget.set(target, root);
    return root;
  }

  function onAttribute(el: Element, name: string | null): void {
    if (name === 'class') {
      if (isCell(el)) cells.cellChanged(el);
      else if (el.matches(DIALOG.mdc)) dialogs.check(el);
    } else if (name === TOAST.labelAttr && el.localName === TOAST.host) {
      toasts.reshow(el);
    } else if (name === 'title' && el.localName === CELL.runButton) {
      cells.buttonChanged(el);
    } else if (name === 'open' || name === 'opened') {
      if (el.matches(DIALOG.hosts)) dialogs.check(el);
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
    if (count === 0 && !outputs.wantAll) return;
    // What a cell's run adds most, alone: its output renderer or an output frame, never inside an output.
    if (count === 1) {
      const first = added[0] as Element;
      const tag = first.localName;
      if (tag === OUTPUT.staticRenderer || tag === 'iframe') {
        subtrees.scan(first, tag);
        return;
      }
    }
    // Inside an output (every printed line lands here): only stream text matters; no structure to hook.
    const out = outputs.holding(record.type === 'characterData' ? target.parentNode : target);
    if (out) {
      outputs.streamRecord(out, record);
      return;
    }
    // Indexed: a NodeList iterated with for…of goes through the iterator protocol, call by call.
    for (let i = 0; i < count; i++) {
      const node = added[i] as Node;
      if (node.nodeType === ELEMENT_NODE) subtrees.scan(node as Element);
    }
  }

  /** Toasts first (they were seen in the batch), then cell states, then the connect button: its reader sees them. */
  function flush(): void {
    toasts.flush();
    subtrees.forget();
    cells.flush();
    outputs.flush();
    connect.flush();
  }

  function onBatch(records: MutationRecord[]): void {
    batch.number++;
    batch.at = Date.now();
    let previous: MutationRecord | undefined;
    for (const record of records) {
      const target = record.target;
      // A run button's state element is its own key, and the commonest; anything else is found by its root, unless
      // the subtree scanned last in this batch holds it.
      if (!cells.takeRecord(target) && !subtrees.holds(target)) {
        const root = rootOf(target);
        if (root === doc) onDocumentRecord(record, target, previous);
        else if (!toasts.shadowRecord(root, target)) cells.shadowRecord(root);
      }
      previous = record;
    }
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
  if (outputs.wantAll) observeText();
  if (doc.documentElement) subtrees.firstLook(doc.documentElement);
  flush();
  batch.initial = false;

  return {
    disconnect() {
      cells.stop();
      mo.disconnect();
      textMo?.disconnect();
      connect.stop();
    },
    setWantAllText(on: boolean) {
      if (on === outputs.wantAll) return;
      // The records so far were made under the old choice.
      const pending = withRest(mo.takeRecords(), textMo);
      outputs.setWantAll(on);
      textMo?.disconnect();
      textMo = null;
      if (on) observeText();
      if (pending.length > 0) onBatch(pending);
    },
    kernelBusy: connect.busy,
    watchKernel: connect.watch,
    settle: cells.settle,
    hurry: cells.hurry,
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
