/**
 * What the page observer does with a subtree added to the page: one query finds what it holds that a watcher hooks
 * (cells, run buttons, toasts, the connect button, dialogs) and, once the page is shown, the new outputs in it.
 * The first look at the page goes through the cell list instead of one query over every element.
 */

import type { CellWatcher } from './cell-watcher';
import { isCell } from './cells';
import type { ConnectWatcher } from './connect-watcher';
import type { DialogWatcher } from './dialog-watcher';
import { ERROR_MARKS, type OutputWatcher } from './output-watcher';
import { CELL, CONNECT, DIALOG, OUTPUT, TOAST } from './selectors';
import type { ToastWatcher } from './toast-watcher';
import type { Batch } from './watch-context';

/** What the document observer hooks when it appears: one selector, so a new subtree costs one query. */
export const HOOKS = [CELL.cell, CELL.runButton, TOAST.host, DIALOG.hosts, DIALOG.mdc, CONNECT.host].join(', ');
/** The same and the outputs, for subtrees added to a page already shown (their outputs are new, scan()). */
const HOOKS_AND_OUTPUTS = `${HOOKS}, ${OUTPUT.element}`;
/**
 * The hooks and the error marks, while only errors are wanted: most outputs are not errors, and a new subtree without
 * a mark costs one query that finds nothing.
 */
const HOOKS_AND_ERRORS = `${HOOKS}, ${ERROR_MARKS}`;

export interface Watchers {
  cells: CellWatcher;
  outputs: OutputWatcher;
  toasts: ToastWatcher;
  connect: ConnectWatcher;
  dialogs: DialogWatcher;
}

export type SubtreeScan = ReturnType<typeof scanSubtrees>;

export function scanSubtrees(batch: Batch, { cells, outputs, toasts, connect, dialogs }: Watchers) {
  /** The root of the subtree scanned last in the current batch. */
  let lastScanned: Element | null = null;

  /** By kind, the commonest first: a notebook's hooks are almost all cells and run buttons. */
  function hook(el: Element): void {
    const tag = el.localName;
    if (tag === CELL.runButton) cells.hookButton(el);
    else if (isCell(el)) cells.cellChanged(el);
    else if (tag === TOAST.host) toasts.hook(el);
    else if (tag === CONNECT.host) connect.hook(el);
    else dialogs.hook(el);
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
      outputs.frameAdded(root);
      return;
    }
    if (tag === OUTPUT.staticRenderer && outputs.nothingIn(root)) return;
    // At the first look (firstLook) only hooks are taken: one query, cheaper than a lookup per hook selector.
    const selector = batch.initial ? HOOKS : outputs.wantAll ? HOOKS_AND_OUTPUTS : HOOKS_AND_ERRORS;
    const found = root.matches(selector) ? [root, ...root.querySelectorAll(selector)] : root.querySelectorAll(selector);
    const added: Element[] = [];
    let withCell = false;
    for (const el of found) {
      if (batch.initial) {
        hook(el);
      } else if (el.matches(HOOKS)) {
        withCell ||= isCell(el);
        hook(el);
      } else {
        added.push(el);
      }
    }
    if (!withCell) for (const el of added) outputs.report(el);
  }

  return {
    scan,
    /**
     * Whether `target` is inside the subtree scanned last in this batch (say a renderer added and then its first
     * output): its record says nothing new, as the scan saw the subtree as it is now, and reported an output in it
     * with its text. The commonest is that root itself, told without a call.
     */
    holds: (target: Node): boolean => !!lastScanned && (target === lastScanned || lastScanned.contains(target)),
    /** The batch's end. */
    forget(): void {
      lastScanned = null;
    },
    /**
     * The first look at the page, without one query over all its elements (a long notebook's are almost all inside
     * its cells): every subtree beside the path to the cell list is searched for hooks (the path itself, the
     * notebook's containers, is none), and in the list each cell gives its run button, found near its top (§4.1: the
     * query stops there). Whatever else the list holds is searched whole, and a page without a cell list is searched
     * whole.
     */
    firstLook(root: Element): void {
      const list = root.querySelector(CELL.list);
      if (!list) {
        scan(root);
        return;
      }
      for (let node: Element = list; node !== root; ) {
        const parent = node.parentElement as Element;
        for (let el = parent.firstElementChild; el; el = el.nextElementSibling) if (el !== node) scan(el);
        node = parent;
      }
      for (let el = list.firstElementChild; el; el = el.nextElementSibling) {
        // Nearly every child is a cell: one match (the selector checks the id too), not isCell's quick reject first.
        if (el.matches(CELL.cell)) cells.hookListed(el);
        else scan(el);
      }
    },
  };
}
