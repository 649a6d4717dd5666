// Small DOM and timing helpers shared by the simulator's page scripts (plain browser ES modules, no build step).

/**
 * Creates an element: `h('div', { class: 'x', 'aria-label': 'y' }, child, 'text')`.
 * Attribute value `true` sets an empty attribute; `false`/`null`/`undefined` leave it out.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  el.append(...nodes(children));
  return el;
}

/** An SVG element (namespaced). */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  setAttrs(el, attrs);
  el.append(...nodes(children));
  return el;
}

function setAttrs(el, attrs) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    el.setAttribute(name, value === true ? '' : String(value));
  }
}

function nodes(children) {
  return children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false);
}

/** Attaches (once) an open shadow root and fills it. */
export function shadow(host, ...children) {
  const root = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  root.replaceChildren(...nodes(children));
  return root;
}

/** Resolves after `ms`, or early with `false` when `signal` aborts. */
export function sleep(ms, signal) {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Is `node` (an event's relatedTarget) inside `el`? Closure's isMouseEventWithinElement_. */
export function within(el, node) {
  return !!node && node instanceof Node && el.contains(node);
}

/** "10:15 PM" with U+202F before the meridiem, as in the 2026 capture. */
export function clockTime(date = new Date()) {
  return date.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' }).replace(' ', '\u202f');
}
