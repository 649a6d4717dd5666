/**
 * Captures of what the guard met in Colab's page when it acted or checked (state/page-capture.ts says what is kept):
 * the structure of the Runtime menu it opened, of a dialog it confirmed, refused or left to the person, of a notice.
 * Tags, attributes, open shadow roots, and only the labels of buttons and menu items and the titles of dialogs: a value
 * that could hold other text (an address, a form's value, a toast's message) is kept as an empty attribute, and a
 * dialog's body is left out.
 */

import { CAPTURE_LIMITS } from '../limits';
import { colabLanguage } from '../site/page-language';
import type { CaptureNode, PageCapture } from '../state/page-capture';
import { openDialogs } from './dialogs';
import { squash } from './dom';
import { MENU, TOAST } from './selectors';

/** Attributes whose values say how the page is built, not what it says: kept as they are. */
const STRUCTURAL = new Set([
  'id',
  'class',
  'role',
  'command',
  'slot',
  'dialogaction',
  'dialog-action',
  'dialog-confirm',
  'dialog-dismiss',
  'data-mdc-dialog-action',
  'type',
  'method',
  'open',
  'opened',
  'disabled',
  'soft-disabled',
  'hidden',
  'style',
  'tabindex',
  'icon',
  'aria-disabled',
  'aria-expanded',
  'aria-haspopup',
  'aria-controls',
  'aria-owns',
  'aria-hidden',
  'aria-checked',
  'aria-selected',
  'aria-modal',
  // A dialog's title as Colab writes it (mwc-dialog); never the notebook's words.
  'heading',
]);
/** Kept only on a button or a menu item, where they are its label (mwc-button's `label`) or its action (`value`). */
const LABELS = new Set(['label', 'aria-label', 'title', 'value']);

/**
 * Elements whose text is a label: buttons and menu items of every form Colab has used (§1, §2, §11.2), and a dialog's
 * title (Colab's words, as mwc-dialog's `heading` is; a paper-dialog's `h2`, an md-dialog's headline).
 */
const LABELLED =
  'button, [role=button], [role=menuitem], [role=menuitemcheckbox], [role=menuitemradio], md-text-button, ' +
  'md-filled-button, md-outlined-button, md-filled-tonal-button, mwc-button, paper-button, md-menu-item, ' +
  '.goog-menuitem, .goog-menu-button, h1, h2, h3, [slot=headline], .mdc-dialog__title';

interface Walk {
  left: number;
  cut: number;
}

function attributesOf(el: Element, labelled: boolean): Record<string, string> | undefined {
  const attrs: Record<string, string> = {};
  for (const { name, value } of el.attributes) {
    const kept = STRUCTURAL.has(name) || (labelled && LABELS.has(name));
    attrs[name] = kept ? value.slice(0, CAPTURE_LIMITS.attribute) : '';
  }
  return Object.keys(attrs).length ? attrs : undefined;
}

function ownText(el: Element | ShadowRoot): string {
  let text = '';
  for (const node of el.childNodes) if (node.nodeType === 3) text += node.textContent;
  return squash(text).slice(0, CAPTURE_LIMITS.text);
}

function childrenOf(parent: Element | ShadowRoot, walk: Walk, depth: number, labelled: boolean): CaptureNode[] {
  const nodes: CaptureNode[] = [];
  for (const child of parent.children) {
    const node = nodeOf(child, walk, depth, labelled);
    if (node) nodes.push(node);
  }
  return nodes;
}

function nodeOf(el: Element, walk: Walk, depth: number, inLabel: boolean): CaptureNode | null {
  if (walk.left <= 0 || depth > CAPTURE_LIMITS.depth) {
    walk.cut++;
    return null;
  }
  walk.left--;
  const labelled = inLabel || el.matches(LABELLED);
  const node: CaptureNode = { tag: el.localName };
  const attrs = attributesOf(el, labelled);
  if (attrs) node.attrs = attrs;
  const text = labelled ? ownText(el) : '';
  if (text) node.text = text;
  if (el.shadowRoot) {
    const shadow = childrenOf(el.shadowRoot, walk, depth + 1, labelled);
    if (shadow.length) node.shadow = shadow;
  }
  const children = childrenOf(el, walk, depth + 1, labelled);
  if (children.length) node.children = children;
  return node;
}

/** A capture of `roots` (outermost first), within CAPTURE_LIMITS. */
export function capture(
  doc: Document,
  roots: readonly Element[],
  kind: PageCapture['kind'],
  occasion: PageCapture['occasion'],
): PageCapture {
  const walk: Walk = { left: CAPTURE_LIMITS.nodes, cut: 0 };
  const nodes = roots.flatMap((root) => nodeOf(root, walk, 0, false) ?? []);
  const taken: PageCapture = { v: 1, kind, occasion, at: Date.now(), language: colabLanguage(doc), nodes };
  if (walk.cut) taken.cut = walk.cut;
  return taken;
}

/** The Runtime menu as the guard opened it, with the menu bar its button sits in (the button alone, without one). */
export function captureRuntimeMenu(button: Element, menu: Element, occasion: PageCapture['occasion']): PageCapture {
  const bar = button.closest(MENU.menubar) ?? button;
  return capture(button.ownerDocument, bar.contains(menu) ? [bar] : [bar, menu], 'runtime-menu', occasion);
}

/** A dialog the guard met. */
export function captureDialog(dialog: Element, occasion: PageCapture['occasion']): PageCapture {
  return capture(dialog.ownerDocument, [dialog], 'dialog', occasion);
}

/** Every dialog open in the page, and every toast host (Colab's notices), when the guard left something to a person. */
export function captureNotices(doc: Document, occasion: PageCapture['occasion']): PageCapture[] {
  const dialogs = openDialogs(doc).map((dialog) => captureDialog(dialog, occasion));
  const toasts = [...doc.querySelectorAll(TOAST.host)];
  return toasts.length ? [...dialogs, capture(doc, toasts, 'notice', occasion)] : dialogs;
}
