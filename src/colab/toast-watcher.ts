/**
 * The page observer's watcher of toasts (snackbars): each one's shadow root, where it shows it is open, and each
 * message it shows, said once (a crash toast is sticky: a second crash overnight shows again in the toast still open).
 */

import { nodeText, squash } from './dom';
import { TOAST } from './selectors';
import type { WatchContext } from './watch-context';

/** What the toast's shadow root says of it: its open class, its label, its text. */
const TOAST_TREE: MutationObserverInit = {
  subtree: true,
  childList: true,
  characterData: true,
  attributes: true,
  attributeFilter: ['class'],
};

export type ToastWatcher = ReturnType<typeof watchToasts>;

export function watchToasts(ctx: WatchContext) {
  const { batch, handlers } = ctx;
  /** The host of each watched toast's shadow root. */
  const toastOwner = new WeakMap<Node, Element>();
  /** Snackbars open and already reported, with the batch and text of the report: one report per message shown. */
  const toastShown = new WeakMap<Element, { batch: number; text: string }>();
  /** The toasts whose shadow roots changed in this batch, and whether MDC was opening one: made at the first. */
  let changed: Map<Element, boolean> | null = null;

  function check(host: Element): void {
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
    toastShown.set(host, { batch: batch.number, text });
    if (batch.initial) return;
    ctx.settle();
    handlers.toast?.(text, host);
  }

  /** Setting the label, or MDC's opening class, on a toast reported in an earlier batch is a new showing. */
  function reshow(host: Element): void {
    if ((toastShown.get(host)?.batch ?? batch.number) < batch.number) toastShown.delete(host);
    check(host);
  }

  return {
    reshow,
    /** Whether `root` is a watched toast's shadow root. */
    owns: (root: Node): boolean => toastOwner.has(root),
    /** A toast appeared: its shadow root is watched, and what it shows now is read. */
    hook(host: Element): void {
      const root = host.shadowRoot;
      if (root && !toastOwner.has(root)) {
        toastOwner.set(root, host);
        ctx.observer.observe(root, TOAST_TREE);
      }
      check(host);
    },
    /** A record inside `root`, read at the batch's end if it is a toast's: false for any other root. */
    shadowRecord(root: Node, target: Node): boolean {
      const toast = toastOwner.get(root);
      if (!toast) return false;
      changed ??= new Map<Element, boolean>();
      changed.set(toast, !!changed.get(toast) || !!(target as Element).classList?.contains(TOAST.openingClass));
      return true;
    },
    /** The batch's end: each toast changed is read once, from how it is now. */
    flush(): void {
      if (!changed) return;
      const toasts = changed;
      changed = null;
      for (const [host, reopened] of toasts) (reopened ? reshow : check)(host);
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
