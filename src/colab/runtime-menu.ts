/** The Runtime menu of Colab's Closure menubar (REFERENCE.md §1.1, §1.2). */

import { type Failed, fail } from '../state/failed-step';
import { openDialogs } from './dialogs';
import { dispatchMouseSequence, isVisible, nodeText, pressEscape, squash, waitFor } from './dom';
import { COMMAND, DANGEROUS_COMMANDS, DANGEROUS_LABEL, LABELS, MENU, TOOLBAR, TRANSLATED_LABELS } from './selectors';

export interface MenuOptions {
  /** How long to wait for the menu to show (default 3000 ms). */
  timeoutMs?: number;
}

export type OpenMenuResult =
  | { ok: true; menu: HTMLElement; button: HTMLElement; openedByUs: boolean }
  | Failed<'open-menu'>;

export interface LocatedItem {
  item: Element;
  via: 'command' | 'label';
  label: string;
  disabled: boolean;
}

export type FindItemResult = ({ ok: true } & LocatedItem) | Failed<'find-item'>;

/** `#runtime-menu-button`, else the menubar button captioned "Runtime" (#2), in any language Colab was seen in. */
export function findRuntimeButton(doc: Document): HTMLElement | null {
  const byId = doc.querySelector<HTMLElement>(MENU.runtimeButton);
  if (byId) return byId;
  return (
    [...doc.querySelectorAll<HTMLElement>(MENU.menuButton)].find((b) =>
      MENU.runtimeCaption.test(squash((b.querySelector(MENU.menuButtonCaption) ?? b).textContent)),
    ) ?? null
  );
}

const RUN_COMMANDS = `[command="${COMMAND.runAll}"], [command="${COMMAND.restartAndRunAll}"]`;

/**
 * The Runtime menu: `#runtime-menu` (#3), else the popup the Runtime button names (`aria-controls`/`aria-owns`).
 * Never just "a Closure menu": the connect button's dropdown is one too, holding "Disconnect and delete runtime"
 * (§11.3). Null until first opened (Closure renders menus lazily).
 */
export function findRuntimeMenu(doc: Document, button = findRuntimeButton(doc)): HTMLElement | null {
  const byId = doc.querySelector<HTMLElement>(MENU.runtimeMenu);
  if (byId) return byId;
  for (const attr of MENU.popupRefs) {
    const named = button?.getAttribute(attr)?.trim();
    const popup = named ? doc.getElementById(named) : null;
    if (popup?.matches(MENU.popup)) return popup;
  }
  return null;
}

function visiblePopups(doc: Document): HTMLElement[] {
  return [...doc.querySelectorAll<HTMLElement>(MENU.popup)].filter(isVisible);
}

/**
 * The Runtime menu, shown. Without an id or ARIA link to know it by, the one popup holding the run commands that
 * became visible after our own press on the Runtime button (`shownBefore`: the popups visible before it, such as a
 * connect menu left open); null when that cannot be told.
 */
function shownRuntimeMenu(doc: Document, button: HTMLElement, shownBefore: Set<Element> | null): HTMLElement | null {
  const known = findRuntimeMenu(doc, button);
  if (known) return isVisible(known) ? known : null;
  if (!shownBefore) return null;
  const fresh = visiblePopups(doc).filter((m) => !shownBefore.has(m) && m.querySelector(RUN_COMMANDS));
  return fresh.length === 1 ? (fresh[0] ?? null) : null;
}

/**
 * Opens the Runtime menu the way a person does: Closure's MenuButton toggles on mousedown/mouseup, so a press is
 * dispatched only when `aria-expanded` is not already "true" (a second press would close it, §1.2). A menu button
 * that is not shown (the header collapsed with its caret, §11.3) is not pressed: the caller takes the toolbar path.
 */
export async function openRuntimeMenu(doc: Document, opts: MenuOptions = {}): Promise<OpenMenuResult> {
  const button = findRuntimeButton(doc);
  if (!button)
    return fail('open-menu', 'menubar-missing', "no Runtime menu button: Colab's menu bar is not on the page");
  if (!isVisible(button)) {
    return fail(
      'open-menu',
      'header-collapsed',
      "the Runtime menu button is hidden: Colab's header is collapsed (its ^ caret)",
    );
  }
  const wasExpanded = button.getAttribute('aria-expanded') === 'true';
  const shownBefore = wasExpanded ? null : new Set<Element>(visiblePopups(doc));
  if (!wasExpanded) dispatchMouseSequence(button, 'press');
  const menu = await waitFor(() => shownRuntimeMenu(doc, button, shownBefore), {
    root: doc,
    timeoutMs: opts.timeoutMs ?? 3000,
  });
  if (menu) return { ok: true, menu, button, openedByUs: !wasExpanded };
  const present = findRuntimeMenu(doc, button);
  const saw =
    `aria-expanded=${button.getAttribute('aria-expanded')}; menu ` +
    `${present ? `present, display=${present.style.display || 'default'}` : 'not found'}`;
  // Pressed open but not known as the Runtime menu: Closure's MenuButton closes it on a second press.
  if (!wasExpanded && button.getAttribute('aria-expanded') === 'true') dispatchMouseSequence(button, 'press');
  return fail('open-menu', 'menu-did-not-open', saw);
}

/** Label text of a menu item without its keyboard hint (`.goog-menuitem-accel`, §1.1), or an md-menu headline. */
export function itemLabel(item: Element): string {
  const content = item.querySelector(`${MENU.itemContent}, ${TOOLBAR.itemLabel}`) ?? item;
  let text = '';
  for (const node of content.childNodes) {
    if (node.nodeType !== Node.ELEMENT_NODE || !(node as Element).classList.contains(MENU.itemAccel))
      text += nodeText(node);
  }
  return squash(text);
}

function isDangerous(item: Element): boolean {
  return DANGEROUS_COMMANDS.includes(item.getAttribute('command') ?? '') || DANGEROUS_LABEL.test(itemLabel(item));
}

export function isItemDisabled(item: Element): boolean {
  return (
    item.classList.contains(MENU.itemDisabled) ||
    item.getAttribute('aria-disabled') === 'true' ||
    item.hasAttribute('disabled')
  );
}

function menuItems(menu: ParentNode): Element[] {
  return [...menu.querySelectorAll(`${MENU.item}, ${TOOLBAR.item}, [command]`)];
}

/** "command: label" of every item, for failure reports (e.g. which items a renamed menu offers). */
export function describeItems(menu: ParentNode): string {
  return menuItems(menu)
    .map((el) => `${el.getAttribute('command') ?? '?'}: ${itemLabel(el)}`)
    .join('; ');
}

/** The label fallbacks of a command: English, and the other languages Colab was seen in. */
function labelsOf(command: string): readonly RegExp[] {
  return [...(LABELS[command] ?? []), ...(TRANSLATED_LABELS[command] ?? [])];
}

/**
 * Finds the item by `command` (any UI language), else by its label (English, or another language Colab was seen
 * in); never a dangerous item (§1.1): the command list and a label regex are both checked on whatever is found.
 * Reports disabled without refusing.
 */
export function locateMenuItem(menu: ParentNode, command: string, labels = labelsOf(command)): LocatedItem | null {
  if (DANGEROUS_COMMANDS.includes(command)) return null;
  const byCommand = menu.querySelector(`[command="${command}"]`);
  const item =
    byCommand ?? menuItems(menu).find((el) => !isDangerous(el) && labels.some((re) => re.test(itemLabel(el))));
  if (!item || isDangerous(item)) return null;
  return { item, via: byCommand ? 'command' : 'label', label: itemLabel(item), disabled: isItemDisabled(item) };
}

export function findMenuItem(menu: ParentNode, command: string, labels = labelsOf(command)): FindItemResult {
  const byCommand = menu.querySelector(`[command="${command}"]`);
  if (DANGEROUS_COMMANDS.includes(command) || (byCommand && isDangerous(byCommand))) {
    return fail('find-item', 'item-dangerous', `${command}: "${byCommand ? itemLabel(byCommand) : ''}"`);
  }
  const found = locateMenuItem(menu, command, labels);
  if (!found) return fail('find-item', 'item-missing', `items: ${describeItems(menu)}`);
  if (found.disabled) return fail('find-item', 'item-disabled', `${found.via} ${command}: "${found.label}"`);
  return { ok: true, ...found };
}

/** Closure MenuItem acts on mouseup after a mousedown, at the item's own coordinates (§1.2); click is harmless. */
export function activateMenuItem(item: Element): void {
  dispatchMouseSequence(item, 'click');
}

/**
 * Closes a menu we opened and did not use: Escape first (Closure closes on it), then a second press on the menu
 * button (MenuButton toggles). Escape is skipped while a dialog is open, where it would cancel that dialog instead.
 * Resolves to whether the menu is hidden.
 */
export async function closeMenu(doc: Document, menu: Element, opts: MenuOptions = {}): Promise<boolean> {
  const hidden = () => (!isVisible(menu) ? true : null);
  const settle = opts.timeoutMs ?? 500;
  if (hidden()) return true;
  if (openDialogs(doc).length === 0) {
    pressEscape(menu);
    if (await waitFor(hidden, { root: doc, timeoutMs: settle })) return true;
  }
  const button = findRuntimeButton(doc);
  if (button && isVisible(menu)) dispatchMouseSequence(button, 'press');
  return !!(await waitFor(hidden, { root: doc, timeoutMs: settle }));
}
