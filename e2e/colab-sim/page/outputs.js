// A code cell's output area (§4.2):
//   div.output[role=region][aria-label="Cell N output"] > div.output-header + div.output-content >
//     div.output-info > colab-output-info
//     div.output-iframe-container > div.output-iframe-sizer >
//       div > div > colab-static-output-renderer[role=group] > div > div.<type>.output-id-N.output_text > pre   (main)
//       div > div > iframe[src=https://<rand>-0-colab.googleusercontent.com/outputframe.html?vrz=…]      (frame)
// The capture shows both wrappers inside the sizer (`<div><div>renderer</div></div><div><div></div></div>`); the
// simulator puts output frames in the second one. Each output goes where its (resolved) `place` says. Frames are
// cross-origin and are fed by postMessage (ops: add / append / replace), including streaming appends.

import { appendAnsi, fixCarriageReturn } from './ansi.js';
import { h } from './util.js';

const FRAME_BUILD = 'colab_sim-20260325-000000_RC00_000000000';

function randomLabel(length, alphabet) {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
}

/**
 * `https://<random>-<hash>-0-colab.googleusercontent.com` (`domain`: the scenario's `ui.frameHost`): a fresh origin
 * per frame, cross-origin to the notebook.
 */
function frameOrigin(domain) {
  const name = randomLabel(11, 'abcdefghijklmnopqrstuvwxyz0123456789');
  const hash = randomLabel(16, '0123456789abcdef');
  return `https://${name}-${hash}-0-colab.${domain}`;
}

export class OutputArea {
  /**
   * @param {number} index  cell index (for aria-label "Cell N output")
   * @param {{errorClass: string, frameHost: string, numbered: boolean}} options  `numbered`: outputs carry
   *   `output-id-N`, one count for the area across the page's renderer and its frame
   */
  constructor(index, { errorClass, frameHost, numbered }) {
    this.errorClass = errorClass;
    this.numbered = numbered;
    this.frameHost = frameHost;
    /** @type {((change: {kind: 'reset'} | {kind: 'add', model: object}) => void) | null} told every change (mirror) */
    this.onChange = null;
    this.staticSlot = h('div');
    this.frameSlot = h('div');
    this.sizer = h(
      'div',
      { class: 'output-iframe-sizer', style: 'min-height: 0px;' },
      ' ',
      h('div', {}, this.staticSlot),
      h('div', {}, this.frameSlot),
    );
    this.element = h(
      'div',
      { class: 'output', 'aria-label': `Cell ${index} output`, role: 'region' },
      h('div', { class: 'output-header' }, ' '),
      h(
        'div',
        { class: 'output-content' },
        h('div', { class: 'output-info' }, h('colab-output-info')),
        h('div', { class: 'output-iframe-container' }, this.sizer),
      ),
    );
    this.reset();
  }

  reset() {
    this.onChange?.({ kind: 'reset' });
    this.outputs = []; // { model, place, id, text (rendered), pre? }
    this.nextId = 1;
    this.renderer = null;
    this.frame?.dispose();
    this.frame = null;
    this.staticSlot.replaceChildren();
    this.frameSlot.replaceChildren();
  }

  get hasOutput() {
    return this.outputs.length > 0;
  }

  /** The outputs as nbformat-like records, for autosave. */
  snapshot() {
    return this.outputs.map((o) => ({ ...o.model }));
  }

  /** Adds an output; a stream output directly following one of the same name and place is merged into it (nbformat). */
  add(model) {
    this.onChange?.({ kind: 'add', model: { ...model } });
    const last = this.outputs.at(-1);
    if (
      model.output_type === 'stream' &&
      last &&
      last.model.output_type === 'stream' &&
      last.model.name === model.name &&
      last.place === model.place
    ) {
      last.model.text += model.text;
      this.#updateStream(last, model.text);
      return;
    }
    const entry = { model: { ...model }, place: model.place, id: this.nextId++, text: '' };
    this.outputs.push(entry);
    if (entry.place === 'frame') this.#addToFrame(entry);
    else this.#addToMain(entry);
  }

  /**
   * `google.colab.output.eval_js`: the script runs in this output area's frame (created if there is none yet).
   * @param {string} script
   * @returns {Promise<{result?: unknown, error?: string}>}
   */
  evalJs(script) {
    if (!this.frame) this.frame = new FrameBridge(this.frameSlot, this.frameHost);
    return this.frame.evaluate(script);
  }

  #addToMain(entry) {
    if (!this.renderer) {
      this.rendererList = h('div');
      this.renderer = h('colab-static-output-renderer', { tabindex: '0', role: 'group' }, this.rendererList, h('div'));
      this.staticSlot.append(this.renderer);
    }
    const m = entry.model;
    const type = m.output_type === 'error' ? this.errorClass : m.output_type;
    entry.pre = h('pre');
    if (m.output_type === 'error') appendAnsi(entry.pre, m.traceback.join('\n'));
    else if (m.output_type === 'stream') this.#setPreText(entry, fixCarriageReturn(m.text));
    else entry.pre.textContent = m.text;
    const number = this.numbered ? ` output-id-${entry.id}` : '';
    this.rendererList.append(h('div', { class: `${type}${number} output_text` }, entry.pre));
  }

  #addToFrame(entry) {
    if (!this.frame) this.frame = new FrameBridge(this.frameSlot, this.frameHost);
    const m = entry.model;
    const op = { op: 'add', id: entry.id, numbered: this.numbered, outputType: m.output_type };
    if (m.output_type === 'error') op.ansi = m.traceback.join('\n');
    else if (m.output_type === 'stream') op.text = entry.text = fixCarriageReturn(m.text);
    else if (m.javascript !== undefined) op.javascript = m.javascript;
    else if (m.html) {
      op.html = m.html;
      op.appendToBody = !!m.appendToBody;
    } else op.text = m.text;
    this.frame.send(op);
  }

  /**
   * Merges `chunk` (already added to `entry.model.text`) into a rendered stream. fixCarriageReturn works line by line,
   * so only the unfinished last line and the new text are fixed: O(chunk) per message instead of O(everything printed
   * so far), with the same result (long streams, e.g. the benchmark's 100,000 lines, stay linear).
   */
  #updateStream(entry, chunk) {
    if (entry.rawTail === undefined) {
      const before = entry.model.text.slice(0, entry.model.text.length - chunk.length);
      entry.rawTail = before.slice(before.lastIndexOf('\n') + 1);
      entry.head = entry.text.slice(0, entry.text.length - fixCarriageReturn(entry.rawTail).length);
    }
    const oldTail = fixCarriageReturn(entry.rawTail);
    const hadText = entry.head.length + oldTail.length > 0;
    const raw = entry.rawTail + chunk;
    const fixed = fixCarriageReturn(raw);
    const lineStart = fixed.lastIndexOf('\n') + 1;
    entry.head += fixed.slice(0, lineStart);
    entry.rawTail = lastLineSeed(raw.slice(raw.lastIndexOf('\n') + 1));
    entry.text = entry.head + fixed.slice(lineStart);
    const text = entry.text;
    // The old text is `head + oldTail`, the new one `head + fixed`: the new extends the old iff fixed extends oldTail.
    const extended = fixed.startsWith(oldTail);
    if (entry.place === 'main') {
      if (extended && hadText) entry.pre.append(fixed.slice(oldTail.length));
      else entry.pre.textContent = text;
      return;
    }
    this.frame.send(
      extended
        ? { op: 'append', id: entry.id, text: fixed.slice(oldTail.length) }
        : { op: 'replace', id: entry.id, text },
    );
  }

  /** Appends when the new text extends the old (a MutationObserver sees streaming as appended text nodes). */
  #setPreText(entry, text) {
    if (text.startsWith(entry.text) && entry.text) entry.pre.append(text.slice(entry.text.length));
    else entry.pre.textContent = text;
    entry.text = text;
  }
}

/**
 * The shortest raw line that renders like `line` whatever is appended to it: what precedes the last `\r` followed by
 * a character (other than `\r`) is overwritten for good (a tqdm bar's thousands of updates stay one update long).
 */
function lastLineSeed(line) {
  let end = line.length;
  while (end > 0 && line[end - 1] === '\r') end--;
  if (end === 0) return line;
  const cr = line.lastIndexOf('\r', end - 1);
  return cr < 0 ? line : line.slice(cr + 1);
}

/** One cross-origin output frame and its postMessage channel. Ops are queued until the frame says it is ready. */
class FrameBridge {
  constructor(container, frameHost) {
    this.origin = frameOrigin(frameHost);
    this.queue = [];
    this.ready = false;
    this.iframe = h('iframe', {
      src: `${this.origin}/outputframe.html?vrz=${FRAME_BUILD}`,
      sandbox:
        'allow-downloads allow-forms allow-modals allow-popups allow-popups-to-escape-sandbox allow-same-origin ' +
        'allow-scripts',
      allow:
        'accelerometer; autoplay; camera; clipboard-read; clipboard-write; gyroscope; magnetometer; microphone; ' +
        'serial; usb; xr-spatial-tracking',
      style: 'height: 24px;',
      frameborder: '0',
    });
    this.evaluations = new Map(); // id -> resolve, for eval_js
    this.onMessage = (event) => this.#onMessage(event);
    window.addEventListener('message', this.onMessage);
    container.append(this.iframe);
  }

  /** @returns {Promise<{result?: unknown, error?: string}>} */
  evaluate(script) {
    const id = crypto.randomUUID();
    const done = new Promise((resolve) => this.evaluations.set(id, resolve));
    this.send({ op: 'eval', id, script });
    return done;
  }

  #onMessage(event) {
    if (event.source !== this.iframe.contentWindow || event.origin !== this.origin) return;
    const data = event.data;
    if (data?.colabSim !== 1) return;
    if (data.op === 'ready') {
      this.ready = true;
      for (const op of this.queue.splice(0)) this.#post(op);
    } else if (data.op === 'height' && typeof data.px === 'number') {
      this.iframe.style.height = `${Math.max(24, Math.ceil(data.px))}px`;
    } else if (data.op === 'eval-result' && this.evaluations.has(data.id)) {
      this.evaluations.get(data.id)(data.error === undefined ? { result: data.result } : { error: data.error });
      this.evaluations.delete(data.id);
    }
  }

  send(op) {
    if (this.ready) this.#post(op);
    else this.queue.push(op);
  }

  #post(op) {
    this.iframe.contentWindow?.postMessage({ colabSim: 1, parentOrigin: location.origin, ...op }, this.origin);
  }

  dispose() {
    window.removeEventListener('message', this.onMessage);
    this.iframe.remove();
  }
}
