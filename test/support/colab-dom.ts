/**
 * Test helpers for the Colab DOM (unit tests only): the real captures with real shadow roots, and a small fake Closure
 * menu.
 */

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const SNIPPETS = resolve(import.meta.dirname, '../fixtures/colab-dom/snippets');

export function snippet(name: string): string {
  return readFileSync(resolve(SNIPPETS, name), 'utf8');
}

/**
 * Chrome's MHTML serializes open shadow roots as `<template shadowmode="open">`; happy-dom 21 does not parse
 * declarative shadow DOM, so each such template becomes its parent's shadow root here (innermost first).
 */
export function attachShadows(root: ParentNode): void {
  for (const t of [...root.querySelectorAll<HTMLTemplateElement>('template[shadowmode], template[shadowrootmode]')]) {
    const host = t.parentElement;
    if (!host || host.shadowRoot) continue;
    attachShadows(t.content);
    host.attachShadow({ mode: 'open' }).append(t.content);
    t.remove();
  }
}

/** Appends HTML (a capture or a hand-built replica) with its shadow roots; returns the top-level elements. */
export function mount(html: string, parent: ParentNode = document.body): Element[] {
  const tpl = document.createElement('template');
  tpl.innerHTML = html;
  attachShadows(tpl.content);
  const elements = [...tpl.content.children];
  parent.append(tpl.content);
  return elements;
}

export function setRect(el: Element, left: number, top: number, width: number, height: number): void {
  el.getBoundingClientRect = () =>
    ({
      left,
      top,
      width,
      height,
      right: left + width,
      bottom: top + height,
      x: left,
      y: top,
      toJSON: () => ({}),
    }) as DOMRect;
}

export interface RecordedEvent {
  type: string;
  target: string;
  button: number;
  buttons: number;
  x: number;
  y: number;
  bubbles: boolean;
  cancelable: boolean;
  composed: boolean;
  hasView: boolean;
}

/** Records mouse/pointer events reaching `root` (capture phase), with the target's id or command. */
export function recordEvents(
  root: EventTarget,
  types = ['mouseover', 'pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click'],
): RecordedEvent[] {
  const log: RecordedEvent[] = [];
  for (const type of types) {
    root.addEventListener(
      type,
      (e) => {
        const m = e as MouseEvent;
        const t = e.target as Element;
        log.push({
          type,
          target: t.getAttribute('command') || t.id || t.localName,
          button: m.button,
          buttons: m.buttons,
          x: m.clientX,
          y: m.clientY,
          bubbles: e.bubbles,
          cancelable: e.cancelable,
          composed: e.composed,
          hasView: m.view != null,
        });
      },
      true,
    );
  }
  return log;
}

export interface FakeMenu {
  commands: string[];
  /** Labels of the activated items. */
  labels: string[];
  isOpen(): boolean;
}

/**
 * A goog.ui.MenuButton/Menu stand-in with the behaviour §1.2 describes: the button toggles on a left mousedown
 * (click does nothing), an item acts on mouseup only after a mousedown on it, and not at the opening coordinates;
 * acting or Escape hides the menu. With `lazy`, the menu is created on first open.
 */
export function fakeClosureMenu(
  doc: Document,
  opts: {
    lazy?: boolean;
    ignoreEscape?: boolean;
    /** Lay the items out at the button's own coordinates (no layout), where Closure ignores the mouseup. */
    itemsAtButton?: boolean;
    onCommand?: (command: string) => void;
    /** The popup's id (default `runtime-menu`; Colab could ship it with a Closure auto-id only). */
    menuId?: string;
    /** The menu button (default `#runtime-menu-button`). */
    button?: Element;
  } = {},
): FakeMenu {
  const menuId = opts.menuId ?? 'runtime-menu';
  const button = opts.button ?? doc.getElementById('runtime-menu-button')!;
  setRect(button, 300, 10, 60, 20);
  let template: Element | null = doc.getElementById(menuId);
  if (opts.lazy && template) template.remove();
  else template = null;
  let opening: { x: number; y: number } | null = null;
  let active: Element | null = null;
  const commands: string[] = [];
  const labels: string[] = [];
  const menu = (): Element | null => doc.getElementById(menuId);
  const setOpen = (open: boolean) => {
    let m = menu();
    if (open && !m && template) {
      m = template;
      doc.body.append(m);
    }
    if (!m) return;
    m.setAttribute(
      'style',
      open ? 'visibility: visible; left: 300px; top: 32px; user-select: none;' : 'display: none; user-select: none;',
    );
    button.setAttribute('aria-expanded', String(open));
    if (open) wireItems(m);
  };
  const isOpen = () => button.getAttribute('aria-expanded') === 'true';
  const wired = new WeakSet<Element>();
  const wireItems = (m: Element) => {
    [...m.querySelectorAll('.goog-menuitem')].forEach((item, i) => {
      if (opts.itemsAtButton) setRect(item, 300, 10, 60, 20);
      else setRect(item, 300, 40 + i * 24, 220, 24);
      if (wired.has(item)) return;
      wired.add(item);
      item.addEventListener('mousedown', (e) => {
        if ((e as MouseEvent).button === 0) active = item;
      });
      item.addEventListener('mouseup', (e) => {
        const m2 = e as MouseEvent;
        const atOpening = opening && m2.clientX === opening.x && m2.clientY === opening.y;
        if (active !== item || atOpening || item.classList.contains('goog-menuitem-disabled')) return;
        setOpen(false);
        const command = item.getAttribute('command') ?? '';
        commands.push(command);
        labels.push(item.textContent ?? '');
        opts.onCommand?.(command);
      });
    });
  };
  button.addEventListener('mousedown', (e) => {
    const m = e as MouseEvent;
    if (m.button !== 0) return;
    opening = { x: m.clientX, y: m.clientY };
    setOpen(!isOpen());
  });
  doc.addEventListener('keydown', (e) => {
    if (!opts.ignoreEscape && (e as KeyboardEvent).keyCode === 27 && isOpen()) setOpen(false);
  });
  return { commands, labels, isOpen };
}

/** Sets the classes of a cell's run-button state div (the 2024-08+ state source, §4.1). */
export function setRunState(cell: Element, classes: string): void {
  cell
    .querySelector('colab-run-button')!
    .shadowRoot!.querySelector('.cell-execution')!.className = `cell-execution ${classes}`;
}

export const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));
