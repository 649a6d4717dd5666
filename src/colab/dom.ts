/** Small DOM helpers shared by the Colab operations and observers. No extension APIs. */

type Root = Document | DocumentFragment | Element;

function shadowOf(node: Node): ShadowRoot | null {
  return node.nodeType === Node.ELEMENT_NODE ? (node as Element).shadowRoot : null;
}

/** Every open shadow root at or below `root` (the root's own shadow root included). */
export function shadowRootsUnder(root: Root): ShadowRoot[] {
  const out: ShadowRoot[] = [];
  const visit = (r: Root) => {
    const own = shadowOf(r);
    if (!own) return;
    out.push(own);
    walk(own);
  };
  const walk = (r: Root) => {
    for (const el of r.querySelectorAll('*')) visit(el);
  };
  visit(root);
  walk(root);
  return out;
}

/** querySelectorAll that also searches open shadow roots, light DOM first. */
export function deepQueryAll<E extends Element = Element>(root: Root, selector: string): E[] {
  const out = [...root.querySelectorAll<E>(selector)];
  for (const sr of shadowRootsUnder(root)) out.push(...sr.querySelectorAll<E>(selector));
  return out;
}

/** The first match in the light DOM, else in open shadow roots (the common case costs one querySelector). */
export function deepQuery<E extends Element = Element>(root: Root, selector: string): E | null {
  const light = root.querySelector<E>(selector);
  if (light) return light;
  for (const sr of shadowRootsUnder(root)) {
    const hit = sr.querySelector<E>(selector);
    if (hit) return hit;
  }
  return null;
}

/** The parent element, crossing out of a shadow root to its host. */
function parentOrHost(el: Element): Element | null {
  if (el.parentElement) return el.parentElement;
  const root = el.getRootNode();
  return root.nodeType === Node.DOCUMENT_FRAGMENT_NODE && 'host' in root ? (root as ShadowRoot).host : null;
}

/** Text of an element including its open shadow roots, whitespace collapsed, bounded. */
export function deepText(el: Element, max = 2000): string {
  const parts = [el.textContent ?? ''];
  for (const sr of shadowRootsUnder(el)) parts.push(sr.textContent ?? '');
  return parts.join(' ').replace(/\s+/g, ' ').trim().slice(0, max);
}

/**
 * Mouse sequences that Closure goog.ui controls accept (§1.2): they act on mousedown/mouseup of the left button,
 * not on `click`. 'press' = mouseover, pointerdown, mousedown, pointerup, mouseup; 'click' adds a final click
 * (Material/Polymer buttons act on click). Pointer events cover a Closure build with pointer events enabled.
 * Coordinates are the element's own centre: MenuItem ignores a mouseup at the menu's opening coordinates.
 */
export function dispatchMouseSequence(el: Element, kind: 'press' | 'click'): void {
  const view = el.ownerDocument.defaultView;
  const r = el.getBoundingClientRect();
  const base = {
    bubbles: true,
    cancelable: true,
    composed: true,
    view,
    button: 0,
    clientX: r.left + r.width / 2,
    clientY: r.top + r.height / 2,
  };
  const Mouse = view?.MouseEvent ?? MouseEvent;
  const Pointer = view?.PointerEvent ?? (typeof PointerEvent === 'function' ? PointerEvent : undefined);
  const mouse = (type: string, buttons: number) => el.dispatchEvent(new Mouse(type, { ...base, buttons }));
  const pointer = (type: string, buttons: number) => {
    if (Pointer)
      el.dispatchEvent(new Pointer(type, { ...base, buttons, pointerId: 1, pointerType: 'mouse', isPrimary: true }));
  };
  mouse('mouseover', 0);
  pointer('pointerdown', 1);
  mouse('mousedown', 1);
  pointer('pointerup', 0);
  mouse('mouseup', 0);
  if (kind === 'click') mouse('click', 0);
}

/** Escape keydown (with the legacy keyCode that Closure's KeyHandler reads, §3). */
export function pressEscape(target: Element): void {
  const view = target.ownerDocument.defaultView;
  const Keyboard = view?.KeyboardEvent ?? KeyboardEvent;
  target.dispatchEvent(
    new Keyboard('keydown', {
      key: 'Escape',
      code: 'Escape',
      keyCode: 27,
      which: 27,
      bubbles: true,
      cancelable: true,
      composed: true,
      view,
    }),
  );
}

export interface WaitOptions {
  /** What to observe; default: the whole document of the call site. */
  root?: Document | ShadowRoot | Element;
  timeoutMs: number;
  /** Also observe the open shadow roots under `root`, including ones that appear while waiting. */
  observeShadowRoots?: boolean;
}

/**
 * Resolves to the first truthy value of `check`, re-evaluated after each batch of DOM mutations (MutationObserver,
 * no polling), or to null when `timeoutMs` passes (after a last check: layout-only changes fire no mutation).
 */
export function waitFor<T>(check: () => T | null | undefined | false, opts: WaitOptions): Promise<T | null> {
  const first = check();
  if (first) return Promise.resolve(first);
  const root = opts.root ?? document;
  return new Promise((resolve) => {
    const init: MutationObserverInit = { childList: true, subtree: true, attributes: true, characterData: true };
    const mo = new MutationObserver((records) => {
      if (opts.observeShadowRoots) observeNewShadowRoots(mo, records, init);
      const value = check();
      if (value) finish(value);
    });
    const finish = (value: T | null) => {
      mo.disconnect();
      clearTimeout(timer);
      resolve(value);
    };
    const timer = setTimeout(() => finish(check() || null), opts.timeoutMs);
    mo.observe(root, init);
    if (opts.observeShadowRoots) for (const sr of shadowRootsUnder(root)) mo.observe(sr, init);
  });
}

function observeNewShadowRoots(mo: MutationObserver, records: MutationRecord[], init: MutationObserverInit): void {
  for (const record of records) {
    for (const node of record.addedNodes) {
      if (node.nodeType === Node.ELEMENT_NODE) for (const sr of shadowRootsUnder(node as Element)) mo.observe(sr, init);
    }
  }
}

/**
 * Shown to the user: connected, not `display:none`/`hidden` on itself or an ancestor (crossing shadow hosts), not
 * `visibility:hidden`, and with a non-zero box. The size test is skipped in documents without layout (test DOMs
 * report all rects as zero), where the style tests alone decide.
 */
export function isVisible(el: Element): boolean {
  if (!el.isConnected) return false;
  const view = el.ownerDocument.defaultView;
  if (view?.getComputedStyle(el).visibility === 'hidden') return false;
  for (let n: Element | null = el; n; n = parentOrHost(n)) {
    if (n.hasAttribute('hidden') || view?.getComputedStyle(n).display === 'none') return false;
  }
  const r = el.getBoundingClientRect();
  return (r.width > 0 && r.height > 0) || !hasLayout(el.ownerDocument);
}

function hasLayout(doc: Document): boolean {
  return doc.documentElement.getBoundingClientRect().width > 0;
}

/** Text of a text or element node; '' for comments (Colab's lit markers `<!--?lit$…-->` are comments). */
export function nodeText(node: Node): string {
  const type = node.nodeType;
  return type === Node.TEXT_NODE || type === Node.ELEMENT_NODE ? (node.textContent ?? '') : '';
}

/** Whitespace-collapsed text, for labels. */
export function squash(text: string | null | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

/**
 * Returns a reader of the text each mutation record appends to a stream (streams grow at the end): for a text node
 * replaced by a longer one, only the new tail. A replacement reported as a removal record followed by an addition
 * record on the same target (some DOMs split it) is joined up.
 */
export function streamAppender(): (record: MutationRecord) => string {
  let lastTarget: Node | null = null;
  let lastRemoved = '';
  return (record) => {
    if (record.type === 'characterData') {
      const now = (record.target as CharacterData).data;
      const old = record.oldValue ?? '';
      return now.startsWith(old) ? now.slice(old.length) : now;
    }
    let removed = record.target === lastTarget ? lastRemoved : '';
    for (const node of record.removedNodes) removed += nodeText(node);
    let added = '';
    for (const node of record.addedNodes) added += nodeText(node);
    lastTarget = record.addedNodes.length ? null : record.target;
    lastRemoved = lastTarget ? removed : '';
    return removed && added.startsWith(removed) ? added.slice(removed.length) : added;
  };
}
