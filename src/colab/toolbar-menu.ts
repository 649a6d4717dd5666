/**
 * Fallback path: the 2025+ M3 toolbar's "Run all" split button (REFERENCE.md §1.3, #10). Material Web components
 * act on ordinary `click` events (unlike the Closure menubar), given to their inner control (`clickInnermost`).
 * Medium confidence: no source automated this path.
 */

import { type Failed, fail } from '../state/failed-step';
import { deepQuery, pressEscape, waitFor } from './dom';
import { findMenuItem, type LocatedItem, locateMenuItem } from './runtime-menu';
import { TOOLBAR } from './selectors';

export interface ToolbarOptions {
  /** How long to wait for the md-menu to open (default 3000 ms). */
  timeoutMs?: number;
}

export type ToolbarResult = ({ ok: true } & LocatedItem) | Failed<'open-menu' | 'find-item'>;

function toolbarRoot(doc: Document): ShadowRoot | null {
  return deepQuery(doc, TOOLBAR.host)?.shadowRoot ?? null;
}

/** Whether the split button is present (for the dry run's report). */
export function hasToolbarMenu(doc: Document): boolean {
  return !!toolbarRoot(doc)?.querySelector(TOOLBAR.moreActions);
}

/** "More actions" → md-menu → the item with `command`, clicked. Closes the menu again when it cannot be used. */
export async function chooseToolbarCommand(
  doc: Document,
  command: string,
  opts: ToolbarOptions = {},
): Promise<ToolbarResult> {
  const root = toolbarRoot(doc);
  const more = root?.querySelector<HTMLElement>(TOOLBAR.moreActions);
  const menu = root?.querySelector(TOOLBAR.menu);
  if (!root || !more || !menu)
    return fail('open-menu', 'toolbar-missing', root ? 'no More actions button or md-menu' : `no ${TOOLBAR.host}`);
  const wasOpen = menu.hasAttribute('open');
  if (!wasOpen) clickInnermost(more);
  const opened = await waitFor(() => menu.hasAttribute('open'), { root, timeoutMs: opts.timeoutMs ?? 3000 });
  if (!opened) return fail('open-menu', 'toolbar-menu-did-not-open', 'md-menu has no [open]');
  const found = findMenuItem(menu, command);
  if (!found.ok) {
    if (!wasOpen) await closeToolbarMenu(menu);
    return found;
  }
  clickInnermost(found.item);
  return found;
}

export type ToolbarCheck = ({ ok: true } & Omit<LocatedItem, 'item'>) | Failed<'open-menu' | 'find-item'>;

/** The dry run of `chooseToolbarCommand`: opens the md-menu, finds the item, closes the menu without choosing it. */
export async function checkToolbarCommand(
  doc: Document,
  command: string,
  opts: ToolbarOptions = {},
): Promise<ToolbarCheck> {
  const root = toolbarRoot(doc);
  const more = root?.querySelector<HTMLElement>(TOOLBAR.moreActions);
  const menu = root?.querySelector(TOOLBAR.menu);
  if (!root || !more || !menu)
    return fail('open-menu', 'toolbar-missing', `no ${TOOLBAR.host} with a More actions menu`);
  const wasOpen = menu.hasAttribute('open');
  if (!wasOpen) clickInnermost(more);
  const opened = await waitFor(() => menu.hasAttribute('open'), { root, timeoutMs: opts.timeoutMs ?? 3000 });
  if (!opened) return fail('open-menu', 'toolbar-menu-did-not-open', 'md-menu has no [open]');
  const found = locateMenuItem(menu, command);
  if (!wasOpen) await closeToolbarMenu(menu);
  if (!found) return fail('find-item', 'item-missing', 'not in the toolbar menu');
  return { ok: true, via: found.via, label: found.label, disabled: found.disabled };
}

/** The split button's main half, "Run all" (`#toolbar-run-button`); true when it was there to click. */
export function clickToolbarRunAll(doc: Document): boolean {
  const button = toolbarRoot(doc)?.querySelector(TOOLBAR.runAllButton);
  if (button) clickInnermost(button);
  return !!button;
}

/**
 * `.click()` on the innermost control of a Material host (`li#item` of md-menu-item, `button#button` of md-*-button):
 * Material Web's md-menu-item handles selection on its shadow `li#item`, so a click on the host alone selects
 * nothing, while a click inside bubbles (composed) through every host and reaches listeners on the hosts too.
 */
export function clickInnermost(el: Element): void {
  let target = el;
  for (
    let inner = target.shadowRoot?.querySelector(TOOLBAR.innerControl);
    inner;
    inner = inner.shadowRoot?.querySelector(TOOLBAR.innerControl)
  ) {
    target = inner;
  }
  (target as HTMLElement).click();
}

/** Escape on the menu (md-menu closes on it), else clear its reflected `open` attribute. */
async function closeToolbarMenu(menu: Element): Promise<void> {
  pressEscape(menu);
  const closed = await waitFor(() => !menu.hasAttribute('open'), { root: menu, timeoutMs: 300 });
  if (!closed) menu.removeAttribute('open');
}
