/**
 * The page observer's watcher of dialogs: each one that opens is said once, with its kind, until it closes. MDC
 * dialogs show they are open by their class, which is watched on them alone; the others by an attribute.
 */

import { classifyDialog, dialogHost, isOpenDialog } from './dialogs';
import { DIALOG } from './selectors';
import type { WatchContext } from './watch-context';

export type DialogWatcher = ReturnType<typeof watchDialogs>;

export function watchDialogs(ctx: WatchContext) {
  const { batch, handlers } = ctx;
  const dialogsOpen = new WeakSet<Element>();

  /** `el`: a dialog, or an element inside one, that may have opened or closed. */
  function check(el: Element): void {
    const dialog = dialogHost(el);
    if (!isOpenDialog(dialog)) {
      dialogsOpen.delete(dialog);
      return;
    }
    if (dialogsOpen.has(dialog)) return;
    dialogsOpen.add(dialog);
    if (batch.initial) return;
    ctx.settle();
    handlers.dialogOpened?.(classifyDialog(dialog), dialog);
  }

  return {
    check,
    /** An element the page observer hooks that is no cell, button or toast: a dialog host, an MDC dialog, or both. */
    hook(el: Element): void {
      if (el.matches(DIALOG.mdc)) ctx.watchClass(el);
      if (el.matches(DIALOG.hosts)) check(el);
    },
  };
}
