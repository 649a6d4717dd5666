/**
 * Watches a Colab page: run-state transitions, new outputs, new output frames, toasts and dialogs.
 * One MutationObserver for the document, one more shared by the shadow roots that must be watched (run buttons for
 * their state classes, snackbars for the open class; shadow mutations do not reach document observers, §8).
 * Incremental: each record costs O(1) plus the size of the nodes it adds; nothing re-reads the whole page.
 * Colab is an SPA with lazily rendered cells and outputs (§4.1), so everything is hooked as it appears.
 */

import {
  cellId,
  cellOf,
  cellRunState,
  isCell,
  type OutputKind,
  outputElementOf,
  outputKind,
  type RunState,
} from './cells';
import { classifyDialog, type DialogKind, dialogHost, isOpenDialog } from './dialogs';
import { nodeText, squash, streamAppender } from './dom';
import { kernelBusyAt } from './kernel-state';
import { CELL, CONNECT, DIALOG, OUTPUT, TOAST } from './selectors';

export interface PageHandlers {
  /**
   * A cell's run state changed. A cell's first readable state is recorded silently unless it is queued or running
   * (then it comes as a change from 'idle'): a cell appearing with a saved error is no execution of this page's.
   */
  cellState?(cell: Element, id: string | null, state: RunState, previous: RunState): void;
  /**
   * A new output element in a cell's static renderer (main document), with the text it was added with. Outputs that
   * arrive with their cell are not reported, but saved outputs that Colab renders late into a cell already on the
   * page (scrolled into view, §4.1) are: act only on cells seen running (cellState) in this page.
   */
  outputAdded?(cell: Element, id: string | null, element: Element, kind: OutputKind): void;
  /** Text appended to a stream output afterwards (only with `wantStreamText`). */
  streamText?(cell: Element, id: string | null, text: string): void;
  /** A snackbar opened, with its text, e.g. "Your session crashed after using all available RAM. Get more RAM". */
  toast?(text: string, host: Element): void;
  dialogOpened?(kind: DialogKind, dialog: Element): void;
  /** The connect button shows the runtime busy running code, or not (§5.4): its first readable state, then changes. */
  kernelBusy?(busy: boolean): void;
}

export interface PageObserverOptions {
  /** Report text appended to streams: costs a look at every printed line, so off unless marker patterns exist. */
  wantStreamText?: boolean;
}

export interface PageObserver {
  disconnect(): void;
  setWantStreamText(on: boolean): void;
}

/**
 * What the document observer hooks when it appears, in one selector so a new subtree costs one query. Outputs are
 * looked for apart, and only where they are reported: the notebook's own outputs are most of a page.
 */
const HOOKS = [CELL.cell, CELL.runButton, TOAST.host, DIALOG.hosts, CONNECT.host].join(', ');

/** A run button's whole shadow tree, while where its state element sits is not known (not rendered yet, drifted). */
const RUN_BUTTON_TREE: MutationObserverInit = {
  subtree: true,
  childList: true,
  attributes: true,
  attributeFilter: ['class'],
};

export function observeColabPage(doc: Document, handlers: PageHandlers, opts: PageObserverOptions = {}): PageObserver {
  let wantStream = !!opts.wantStreamText;
  const states = new WeakMap<Element, RunState>();
  const outputOfTarget = new WeakMap<Node, Element | null>();
  const shadowOwner = new WeakMap<Node, Element>();
  /** The cell of each run button, found once: a button stays in its cell (checked, not searched, per change). */
  const buttonCell = new WeakMap<Element, Element>();
  /** Snackbars open and already reported, with the batch and text of the report: one report per message shown. */
  const toastShown = new WeakMap<Element, { batch: number; text: string }>();
  /**
   * Mutations of one task: both observers' callbacks run in the same microtask, the shadow one first, so the batch
   * is counted once for both (else a toast whose label and open class change in one task reads as shown twice).
   */
  let batch = 0;
  let batchOpen = false;
  const nextBatch = () => {
    if (batchOpen) return;
    batch++;
    batchOpen = true;
    queueMicrotask(() => {
      batchOpen = false;
    });
  };
  const dialogsOpen = new WeakSet<Element>();
  /** Outputs reported by outputAdded in the current batch: their text records are not "appended" text. */
  const fresh = new Set<Element>();
  const appended = streamAppender();
  let initial = true;
  let kernelBusy: boolean | undefined;

  const shadowMo = new MutationObserver(onShadow);
  const mo = new MutationObserver(onDocument);

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

  function updateCell(cell: Element): void {
    const button = cell.querySelector(CELL.runButton);
    // A run button whose shadow root Lit has not rendered yet would read as idle: wait for the render.
    if (button?.shadowRoot && !button.shadowRoot.firstElementChild) return;
    const state = cellRunState(cell, button);
    const previous = states.get(cell);
    states.set(cell, state);
    // A cell first seen queued or running is an execution under way (a reload mid-run, a cell rendered late).
    const changed = previous === undefined ? state === 'pending' || state === 'running' : previous !== state;
    if (changed) handlers.cellState?.(cell, cellId(cell), state, previous ?? 'idle');
  }

  function watchShadow(host: Element, init: MutationObserverInit): void {
    const root = host.shadowRoot;
    if (!root || shadowOwner.has(root)) return;
    shadowOwner.set(root, host);
    shadowMo.observe(root, init);
  }

  /**
   * A run button's state is read from one element of its shadow root, which Colab renders as the root's child (§4.1,
   * the captures): its class, and the root's children (the first render, a state element replaced), are all that is
   * observed. The icon and the count are rendered again at every change, and each of those records costs a callback's
   * worth of work per cell. Elsewhere (not rendered yet, a drifted layout) the whole tree is observed.
   */
  function watchRunButton(button: Element): void {
    const root = button.shadowRoot;
    if (!root) return;
    shadowOwner.set(root, button);
    const state = root.querySelector(CELL.execution);
    if (state?.parentNode !== root) {
      shadowMo.observe(root, RUN_BUTTON_TREE);
      return;
    }
    shadowMo.observe(root, { childList: true });
    shadowMo.observe(state, { attributes: true, attributeFilter: ['class'] });
  }

  function cellOfButton(button: Element): Element | null {
    const known = buttonCell.get(button);
    if (known?.contains(button)) return known;
    const cell = cellOf(button);
    if (cell) buttonCell.set(button, cell);
    return cell;
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
    if (!initial) handlers.toast?.(text, host);
  }

  /**
   * A crash toast is sticky: a second crash overnight shows again in the toast still open. Setting the label, or
   * MDC's opening class, on a toast reported in an earlier batch is a new showing (even with the same text).
   */
  function reshowToast(host: Element): void {
    if ((toastShown.get(host)?.batch ?? batch) < batch) toastShown.delete(host);
    checkToast(host);
  }

  function checkKernel(host: Element): void {
    const busy = kernelBusyAt(host);
    if (busy === kernelBusy) return;
    kernelBusy = busy;
    handlers.kernelBusy?.(busy);
  }

  function checkDialog(el: Element): void {
    const dialog = dialogHost(el);
    if (!isOpenDialog(dialog)) {
      dialogsOpen.delete(dialog);
      return;
    }
    if (dialogsOpen.has(dialog)) return;
    dialogsOpen.add(dialog);
    if (!initial) handlers.dialogOpened?.(classifyDialog(dialog), dialog);
  }

  function hook(el: Element): void {
    if (isCell(el)) updateCell(el);
    const tag = el.localName;
    if (tag === CELL.runButton) {
      if (el.shadowRoot && !shadowOwner.has(el.shadowRoot)) watchRunButton(el);
      const cell = cellOfButton(el);
      if (cell) updateCell(cell);
    } else if (tag === TOAST.host) {
      watchShadow(el, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
        attributeFilter: ['class'],
      });
      checkToast(el);
    } else if (tag === CONNECT.host) {
      watchShadow(el, { subtree: true, childList: true, characterData: true });
      checkKernel(el);
    }
    if (el.matches(DIALOG.hosts)) checkDialog(el);
  }

  function reportOutput(el: Element): void {
    if (outputElementOf(el, OUTPUT.staticRenderer) !== el) return;
    const cell = cellOf(el);
    if (!cell) return;
    fresh.add(el);
    handlers.outputAdded?.(cell, cellId(cell), el, outputKind(el));
  }

  /**
   * Outputs are reported only when they arrive in a cell already on the page: outputs that come with their cell
   * (the notebook rendering after load, a cell re-created) are saved outputs, not new failures.
   */
  function scan(root: Element): void {
    if (root.matches(HOOKS)) hook(root);
    for (const el of root.querySelectorAll(HOOKS)) hook(el);
    if (initial || root.matches(CELL.cell) || root.querySelector(CELL.cell)) return;
    if (root.matches(OUTPUT.element)) reportOutput(root);
    for (const el of root.querySelectorAll(OUTPUT.element)) reportOutput(el);
  }

  function onStream(out: Element, record: MutationRecord): void {
    if (!wantStream || fresh.has(out) || outputKind(out) !== 'stream') return;
    const cell = cellOf(out);
    const text = cell && appended(record);
    if (cell && text) handlers.streamText?.(cell, cellId(cell), text);
  }

  function onAttribute(el: Element, name: string | null): void {
    if (name === 'class') {
      if (isCell(el)) updateCell(el);
      else if (el.classList.contains('mdc-dialog')) checkDialog(el);
    } else if (name === TOAST.labelAttr && el.localName === TOAST.host) {
      reshowToast(el);
    } else if (name === 'title' && el.localName === CELL.runButton) {
      const cell = cellOfButton(el);
      if (cell) updateCell(cell);
    } else if (name === 'open' || name === 'opened') {
      if (el.matches(DIALOG.hosts)) checkDialog(el);
    }
  }

  function onDocument(records: MutationRecord[]): void {
    nextBatch();
    let previous: MutationRecord | undefined;
    for (const record of records) {
      const target = record.target;
      if (record.type === 'attributes') {
        // A class changed twice in a row on one element (a state's classes toggled one by one) is read once.
        const repeated = previous?.target === target && previous.attributeName === record.attributeName;
        previous = record;
        if (!repeated) onAttribute(target as Element, record.attributeName);
        continue;
      }
      previous = record;
      // Inside an output (every printed line lands here): only stream text matters; no structure to hook.
      const out = outputOf(record.type === 'characterData' ? target.parentNode : target);
      if (out) {
        onStream(out, record);
        continue;
      }
      for (const node of record.addedNodes) if (node.nodeType === Node.ELEMENT_NODE) scan(node as Element);
    }
    fresh.clear();
  }

  function onShadow(records: MutationRecord[]): void {
    nextBatch();
    const hosts = new Set<Element>();
    const reopened = new Set<Element>();
    for (const record of records) {
      const root = record.target.getRootNode();
      const host = shadowOwner.get(root);
      if (!host) continue;
      hosts.add(host);
      if ((record.target as Element).classList?.contains(TOAST.openingClass)) reopened.add(host);
      // A run button's root got new children: its state element may be new (or rendered at last).
      if (record.target === root && host.localName === CELL.runButton) watchRunButton(host);
    }
    for (const host of hosts) {
      if (host.localName === TOAST.host) (reopened.has(host) ? reshowToast : checkToast)(host);
      else if (host.localName === CONNECT.host) checkKernel(host);
      else {
        const cell = cellOfButton(host);
        if (cell) updateCell(cell);
      }
    }
  }

  const observe = () =>
    mo.observe(doc, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ['class', 'title', 'open', 'opened', TOAST.labelAttr],
      characterData: wantStream,
      characterDataOldValue: wantStream,
    });

  observe();
  if (doc.documentElement) scan(doc.documentElement);
  initial = false;

  return {
    disconnect() {
      mo.disconnect();
      shadowMo.disconnect();
    },
    setWantStreamText(on: boolean) {
      if (on === wantStream) return;
      const pending = mo.takeRecords();
      mo.disconnect();
      wantStream = on;
      observe();
      onDocument(pending);
    },
  };
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
