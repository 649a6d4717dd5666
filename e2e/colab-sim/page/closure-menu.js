// Colab's top menubar: Closure goog.ui.MenuButton + goog.ui.Menu + goog.ui.MenuItem (§1.1, §1.2), reproducing the
// closure-library semantics that make scripted clicks fail:
//  - Controls listen to mouseover / mousedown / mouseup / mouseout only. There is no click listener: `el.click()`
//    does nothing.
//  - control.js handleMouseDown: only the left button (`e.button === 0`) makes a control active.
//  - menubutton.js handleMouseDown: once active, toggles the menu (`setOpen(!isOpen())`); the menu is created and
//    appended to <body> on first open, and remembers the opening mousedown's coordinates (`openingCoords`).
//  - menuitem.js handleMouseUp: a mouseup at exactly `openingCoords` is ignored (the menu just popped up under the
//    pointer); the coordinates are forgotten after the first item mouseup either way.
//  - control.js handleMouseUp: an item acts only if it is active, i.e. it got a mousedown (or was highlighted while
//    the mouse button was still held after opening: container.js handleHighlightItem, Mac-style drag selection).
//  - A mousedown outside the button and the menu, or Escape, closes the menu.

import { record } from './log.js';
import { h, within } from './util.js';

/** Closure's goog.ui.IdGenerator: ':0', ':1', … ':2a' (base 36). */
let nextId = 0;
const closureId = () => `:${(nextId++).toString(36)}`;

const MENU_IDS = ['file', 'edit', 'view', 'insert', 'runtime', 'tools', 'help'];

/** @typedef {{menu: string, command: string, label: string, accel?: string, hasCommandAttribute: boolean}} ItemSpec */

/**
 * Renders `div.menubar-wrapper > div > div#top-menubar` with the seven menu buttons (exact nesting of the 2026
 * capture) and wires each to a lazily created menu.
 * @param {object} options
 * @param {Record<string,string>} options.captions  menu id -> caption
 * @param {(menuId: string) => Array<ItemSpec|'sep'>} options.itemsFor  the items of a menu, built at first open
 * @param {(item: ItemSpec) => boolean} options.isDisabled  re-evaluated at every open
 * @param {(command: string, item: MenuItem, menuId: string) => void} options.onAction
 * @param {boolean} [options.runtimeMenuId]  whether the Runtime popup has its `#runtime-menu` id (else a Closure
 *   auto-id only)
 */
export function createMenubar({ captions, itemsFor, isDisabled, onAction, runtimeMenuId = true }) {
  const menubar = h('div', {
    id: 'top-menubar',
    class: 'goog-menubar format-lightborder',
    role: 'menubar',
    tabindex: '0',
    style: 'user-select: none;',
  });
  for (const menuId of MENU_IDS) {
    const button = menuButtonElement(menuId, captions[menuId]);
    menubar.append(button);
    // Without `runtimeMenuId` the Runtime menu carries only a Closure auto-id, like any other popup.
    const popupId = menuId === 'runtime' && !runtimeMenuId ? closureId() : `${menuId}-menu`;
    new MenuButton(button, menuId, { itemsFor, isDisabled, onAction, popupId });
  }
  return h('div', { class: 'menubar-wrapper' }, h('div', {}, menubar));
}

/**
 * Makes any element a Closure MenuButton with a lazily created popup menu, as Colab does for the connect button's
 * "Additional connection options" dropdown (§11.3): a second `.goog-menu.goog-menu-vertical` on <body>, with a
 * Closure auto-id. Same semantics as the menubar's menus.
 * @param {Element} element
 * @param {string} menuId  the name used in the log ('connect' → 'connect-menu')
 * @param {{itemsFor: (menuId: string) => Array<ItemSpec|'sep'>, isDisabled: (item: ItemSpec) => boolean,
 *   onAction: (command: string, item: MenuItem, menuId: string) => void}} options
 */
export function attachClosureMenu(element, menuId, options) {
  new MenuButton(element, menuId, { ...options, popupId: closureId(), popupClass: 'goog-menu goog-menu-vertical' });
}

function menuButtonElement(menuId, caption) {
  const unselectable = { style: 'user-select: none;' };
  return h(
    'div',
    {
      class: 'goog-menu-button goog-inline-block',
      id: `${menuId}-menu-button`,
      role: 'button',
      'aria-expanded': 'false',
      'aria-haspopup': 'true',
      ...unselectable,
    },
    h(
      'div',
      { class: 'goog-inline-block goog-menu-button-outer-box', ...unselectable },
      h(
        'div',
        { class: 'goog-inline-block goog-menu-button-inner-box', ...unselectable },
        h('div', { class: 'goog-inline-block goog-menu-button-caption', ...unselectable }, caption),
        h('div', { class: 'goog-inline-block goog-menu-button-dropdown', ...unselectable }, '\u00a0'),
      ),
    ),
  );
}

/** Closure's isMouseActionButton: left button, and not Ctrl-click on a Mac. */
function isMouseActionButton(event) {
  return event.button === 0 && !(event.ctrlKey && /Mac/.test(navigator.platform));
}

class MenuButton {
  constructor(element, menuId, options) {
    this.element = element;
    this.menuId = menuId;
    this.options = options;
    this.menu = null;
    this.active = false;
    this.onDocumentMouseDown = (event) => {
      if (this.isOpen() && !this.contains(event.target)) this.setOpen(false, null, 'outside');
    };
    this.onDocumentKeyDown = (event) => {
      if (event.key === 'Escape' && this.isOpen()) this.setOpen(false, null, 'escape');
    };
    element.addEventListener('mouseover', (e) => this.handleMouseOver(e));
    element.addEventListener('mouseout', (e) => this.handleMouseOut(e));
    element.addEventListener('mousedown', (e) => this.handleMouseDown(e));
    element.addEventListener('mouseup', () => this.handleMouseUp());
  }

  isOpen() {
    return !!this.menu && this.menu.visible;
  }

  contains(node) {
    return node instanceof Node && (this.element.contains(node) || (!!this.menu && this.menu.element.contains(node)));
  }

  handleMouseOver(event) {
    if (!within(this.element, event.relatedTarget)) this.element.classList.add('goog-menu-button-hover');
  }

  handleMouseOut(event) {
    if (within(this.element, event.relatedTarget)) return;
    this.setActive(false);
    this.element.classList.remove('goog-menu-button-hover');
  }

  handleMouseDown(event) {
    event.preventDefault(); // Closure prevents text selection on controls
    this.element.classList.add('goog-menu-button-hover');
    if (isMouseActionButton(event)) this.setActive(true);
    if (!this.active) return;
    this.setOpen(!this.isOpen(), event, 'toggle');
    if (this.menu) this.menu.mouseButtonPressed = this.isOpen();
  }

  handleMouseUp() {
    // Control.handleMouseUp: an active menu button "performs its action", which only deactivates it.
    if (this.active) this.setActive(false);
    if (this.menu && !this.active) this.menu.mouseButtonPressed = false;
  }

  setActive(active) {
    this.active = active;
    this.element.classList.toggle('goog-menu-button-active', active);
  }

  setOpen(open, event, reason) {
    if (open === this.isOpen()) return;
    if (open) {
      if (!this.menu) this.menu = new Menu(this.menuId, this.options, (item) => this.handleAction(item));
      this.menu.show(this.element, event);
      this.element.setAttribute('aria-expanded', 'true');
      this.element.classList.add('goog-menu-button-open');
      document.addEventListener('mousedown', this.onDocumentMouseDown, true);
      document.addEventListener('keydown', this.onDocumentKeyDown, true);
      record('menu-open', { menu: this.menuId });
    } else {
      this.menu.hide();
      this.element.setAttribute('aria-expanded', 'false');
      this.element.classList.remove('goog-menu-button-open');
      document.removeEventListener('mousedown', this.onDocumentMouseDown, true);
      document.removeEventListener('keydown', this.onDocumentKeyDown, true);
      record('menu-close', { menu: this.menuId, reason });
    }
  }

  handleAction(item) {
    this.setOpen(false, null, 'action');
    this.options.onAction(item.command, item, this.menuId);
  }
}

class Menu {
  constructor(menuId, { itemsFor, isDisabled, popupId, popupClass = 'goog-menu' }, onAction) {
    this.menuId = menuId;
    this.isDisabled = isDisabled;
    this.visible = false;
    this.openingCoords = null;
    this.mouseButtonPressed = false;
    this.highlighted = null;
    this.element = h('div', {
      class: popupClass,
      id: popupId,
      role: 'menu',
      'aria-haspopup': 'true',
      style: 'user-select: none; display: none;',
    });
    this.items = itemsFor(menuId).map((spec) =>
      spec === 'sep' ? new Separator() : new MenuItem(this, spec, onAction),
    );
    this.element.append(...this.items.map((item) => item.element));
    this.element.addEventListener('mousedown', () => {
      this.mouseButtonPressed = true; // container.js handleMouseDown
    });
    document.addEventListener('mouseup', () => {
      this.mouseButtonPressed = false; // container.js handleDocumentMouseUp
    });
    document.body.append(this.element); // a child of <body> after the app layout (§1.1)
  }

  show(anchor, event) {
    for (const item of this.items) item.setEnabled?.(!this.isDisabled(item.spec));
    const rect = anchor.getBoundingClientRect();
    const style = this.element.style;
    style.removeProperty('display');
    style.visibility = 'visible';
    style.left = `${Math.round(rect.left + window.scrollX)}px`;
    style.top = `${Math.round(rect.bottom + window.scrollY)}px`;
    this.visible = true;
    // menu.js setVisible: remember where the opening mousedown happened.
    this.openingCoords = event && typeof event.clientX === 'number' ? { x: event.clientX, y: event.clientY } : null;
  }

  hide() {
    this.element.style.display = 'none';
    this.visible = false;
    this.setHighlighted(null);
    for (const item of this.items) item.setActive?.(false);
  }

  setHighlighted(item) {
    if (this.highlighted === item) return;
    this.highlighted?.setHighlightedClass(false);
    this.highlighted = item;
    if (!item) return;
    item.setHighlightedClass(true);
    if (this.mouseButtonPressed) item.setActive(true); // container.js handleHighlightItem (drag selection)
  }
}

class Separator {
  constructor() {
    this.element = h('div', {
      class: 'goog-menuseparator goog-menuitem-disabled',
      'aria-disabled': 'true',
      role: 'separator',
      id: closureId(),
      style: 'user-select: none;',
    });
  }
}

class MenuItem {
  /** @param {ItemSpec} spec */
  constructor(menu, spec, onAction) {
    this.menu = menu;
    this.spec = spec;
    this.command = spec.command;
    this.onAction = onAction;
    this.enabled = true;
    this.active = false;
    const content = h('div', { class: 'goog-menuitem-content', style: 'user-select: none;' }, spec.label);
    if (spec.accel) content.append(h('span', { class: 'goog-menuitem-accel' }, spec.accel));
    this.element = h(
      'div',
      {
        command: spec.hasCommandAttribute ? spec.command : null,
        class: ' goog-menuitem ',
        role: 'menuitem',
        id: closureId(),
        style: 'user-select: none;',
      },
      content,
    );
    const el = this.element;
    el.addEventListener('mouseover', (e) => this.handleMouseOver(e));
    el.addEventListener('mouseout', (e) => this.handleMouseOut(e));
    el.addEventListener('mousedown', (e) => this.handleMouseDown(e));
    el.addEventListener('mouseup', (e) => this.handleMouseUp(e));
  }

  setEnabled(enabled) {
    this.enabled = enabled;
    this.element.classList.toggle('goog-menuitem-disabled', !enabled);
    if (enabled) this.element.removeAttribute('aria-disabled');
    else this.element.setAttribute('aria-disabled', 'true');
  }

  setHighlightedClass(on) {
    this.element.classList.toggle('goog-menuitem-highlight', on);
    if (!on) this.setActive(false);
  }

  setActive(active) {
    this.active = active && this.enabled;
    this.element.classList.toggle('goog-menuitem-active', this.active);
  }

  handleMouseOver(event) {
    if (within(this.element, event.relatedTarget) || !this.enabled) return;
    this.menu.setHighlighted(this);
  }

  handleMouseOut(event) {
    if (within(this.element, event.relatedTarget)) return;
    this.setActive(false);
    if (this.menu.highlighted === this) this.menu.setHighlighted(null);
  }

  handleMouseDown(event) {
    event.preventDefault();
    if (!this.enabled) return;
    this.menu.setHighlighted(this);
    if (isMouseActionButton(event)) this.setActive(true);
  }

  handleMouseUp(event) {
    const opening = this.menu.openingCoords;
    this.menu.openingCoords = null; // "so they're not used twice"
    if (opening && typeof event.clientX === 'number' && opening.x === event.clientX && opening.y === event.clientY)
      return;
    if (!this.enabled || !this.active) return;
    this.setActive(false);
    this.onAction(this);
  }
}
