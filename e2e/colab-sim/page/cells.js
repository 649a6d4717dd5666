// Notebook cells (§4.1, fixture code-cell-with-static-output-2026-03.html):
//   div.cell.code.notebook-cell#cell-<id>[role=region][aria-label="Cell N: Code cell: "]
//     … div.inputarea > div.cell-gutter > div.cell-execution-container > colab-run-button
//       (shadow: div.cell-execution.<states> > button#run-button + div.status > div.execution-count)
//     … div.editor.flex.lazy-editor > div.editor.flex.monaco > div.monaco-editor > div.view-line > span > span.mtkN
//     … div.output (outputs.js)
// Run states (§4.1, §11.4): idle `stale`, queued `pending`, executing `running animating`, failed `error` in this
// kernel session and `stale error` once it belongs to an earlier one (saved, or the kernel restarted or crashed
// since); the cell itself gets `running` / `pending` / `code-has-output` (and optionally the pre-2021
// `execution-error`). With `ui.runStateMarkup: 'drifted'` the state element and the state classes (the cell's too)
// are renamed (a Colab release the extension does not know), so no state can be read.

import { OutputArea } from './outputs.js';
import { clockTime, h, s } from './util.js';

const STATE_CLASSES = { idle: 'stale', error: 'error', pending: 'pending', running: 'running animating' };
const DRIFTED_CLASSES = { idle: 'is-idle', error: 'is-failed', pending: 'is-queued', running: 'is-executing' };

/** `colab-run-button` (§4.1): the state element, the run button and the execution count in its shadow root. */
class RunButton extends HTMLElement {
  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    this.container = h('div', { class: 'cell-execution stale' });
    this.svg = s('svg', { xmlns: 'http://www.w3.org/2000/svg', viewBox: '0 0 24 24' });
    this.button = h(
      'button',
      {
        id: 'run-button',
        'aria-describedby': 'run-button-tooltip',
        'aria-label': 'Run cell',
        'aria-disabled': 'false',
      },
      h('span', { 'aria-hidden': 'true', class: 'cell-execution-indicator' }, this.svg),
    );
    this.tooltip = h('colab-tooltip-trigger', {
      for: 'run-button',
      id: 'run-button-tooltip',
      'aria-hidden': 'true',
    });
    this.count = h('div', { class: 'execution-count' });
    this.container.append(this.button, this.tooltip, h('div', { class: 'status' }, this.count));
    root.append(this.container);
  }

  /**
   * @param {{state: string, stale: boolean, drifted: boolean, countText: string, tooltip: string, label?: string}}
   *   view
   */
  render({ state, stale, drifted, countText, tooltip, label }) {
    const focused = this.container.classList.contains('focused');
    const base = drifted ? 'run-state' : 'cell-execution';
    const names = drifted
      ? DRIFTED_CLASSES[state]
      : `${stale && state === 'error' ? 'stale ' : ''}${STATE_CLASSES[state]}`;
    this.container.className = `${base} ${focused ? 'focused ' : ''}${names}`;
    this.count.textContent = countText;
    this.tooltip.setAttribute('message', tooltip);
    if (label) this.button.setAttribute('aria-label', label);
    const busy = state === 'running' || state === 'pending';
    this.svg.replaceChildren(...(busy ? stopSymbol() : playSymbol()));
  }
}

customElements.get('colab-run-button') || customElements.define('colab-run-button', RunButton);

function playSymbol() {
  return [
    s(
      'mask',
      { id: 'playSymbolMask' },
      s('rect', { width: '100%', height: '100%', fill: 'white' }),
      s('polygon', { points: '10,8 17,12 10,16', fill: 'black' }),
    ),
    s('circle', { cx: '12', cy: '12', r: '7.8', mask: 'url(#playSymbolMask)', id: 'filledCircle' }),
  ];
}

function stopSymbol() {
  return [
    s(
      'mask',
      { id: 'stopSymbolMask' },
      s('rect', { width: '100%', height: '100%', fill: 'white' }),
      s('rect', { x: '9', y: '9', width: '6', height: '6', fill: 'black' }),
    ),
    s('circle', { cx: '12', cy: '12', r: '7.8', mask: 'url(#stopSymbolMask)', id: 'filledCircle' }),
  ];
}

export class CodeCellView {
  /**
   * @param {import('../scenario').ResolvedCell} cell
   * @param {number} index
   * @param {{ui: import('../scenario').ResolvedScenario['ui'], runCellLabel: string, kernelProcess: () => number,
   *   onRunButton: (view: CodeCellView) => void, onFocus: (view: CodeCellView) => void,
   *   onRender: (view: CodeCellView) => void}} options
   *   kernelProcess: the kernel process now; a settled state from another one is stale (§11.4)
   */
  constructor(cell, index, { ui, runCellLabel, kernelProcess, onRunButton, onFocus, onRender }) {
    this.cell = cell;
    this.index = index;
    this.ui = ui;
    this.runCellLabel = runCellLabel;
    this.kernelProcess = kernelProcess;
    this.onRender = onRender;
    this.state = 'idle';
    this.count = null; // execution count shown
    this.process = -1; // the kernel process the state belongs to (-1: saved, or never run)
    this.settled = { state: 'idle', count: null, process: -1 }; // the last state that was not pending/running
    this.executedAt = null;
    this.runButton = /** @type {RunButton} */ (document.createElement('colab-run-button'));
    this.runButton.button.addEventListener('click', () => onRunButton(this));
    this.outputs = new OutputArea(index, {
      errorClass: ui.errorClass,
      frameHost: ui.frameHost,
      numbered: ui.outputIds,
    });
    this.element = this.#build(index);
    this.element.addEventListener('mousedown', () => onFocus(this));
    this.render();
  }

  #build(index) {
    const cell = this.cell;
    return h(
      'div',
      {
        class: 'cell code notebook-cell',
        id: `cell-${cell.id}`,
        tabindex: '-1',
        role: 'region',
        'aria-label': `Cell ${index}: Code cell: `,
        style: 'opacity: 1;',
      },
      h('div', { class: 'cell-tag-editor sticky' }),
      h('div', { class: 'cell-toolbar sticky' }, h('colab-cell-toolbar')),
      h(
        'div',
        { class: 'main-content' },
        h(
          'div',
          { class: 'cell-contents' },
          h('div', { class: 'cell-mask' }),
          h('span', { class: 'imported-info-area' }),
          h(
            'div',
            { class: 'codecell-input-output' },
            h(
              'div',
              { class: 'inputarea horizontal layout code' },
              h('div', { class: 'cell-gutter' }, h('div', { class: 'cell-execution-container' }, this.runButton)),
              editor(cell.editor === 'unrendered' ? null : cell.source, index),
              h('colab-form', { class: 'formview vertical layout flex' }, h('div', { class: 'widget-area' })),
            ),
            this.outputs.element,
            h('colab-cell-next-steps'),
          ),
        ),
      ),
      h('div', { class: 'add-cell' }, h('hr')),
    );
  }

  setFocused(focused) {
    this.element.classList.toggle('focused', focused);
    this.runButton.container.classList.toggle('focused', focused);
  }

  /**
   * state: 'idle' | 'error' | 'pending' | 'running'; `process`: the kernel process the execution ran in (-1 for
   * saved states).
   */
  setState(state, count = this.count, process = this.kernelProcess()) {
    this.state = state;
    this.count = count;
    this.process = process;
    if (state === 'idle' || state === 'error') this.settled = { state, count, process };
    this.render();
  }

  /** A queued cell whose run ended before it ran goes back to its last settled state (outputs as they are). */
  unqueue() {
    if (this.state === 'pending') this.setState(this.settled.state, this.settled.count, this.settled.process);
  }

  render() {
    const { state } = this;
    const classes = this.element.classList;
    const drifted = this.ui.runStateMarkup === 'drifted';
    classes.toggle(drifted ? 'is-running' : 'running', state === 'running');
    classes.toggle(drifted ? 'is-queued' : 'pending', state === 'pending');
    classes.toggle('code-has-output', this.outputs.hasOutput);
    if (this.ui.cellErrorClass) classes.toggle('execution-error', state === 'error');
    this.runButton.render({
      state,
      stale: this.process !== this.kernelProcess(),
      drifted,
      countText: this.#countText(),
      tooltip: this.#tooltip(),
      label: this.runCellLabel,
    });
    this.onRender?.(this);
  }

  #countText() {
    const busy = this.state === 'running' || this.state === 'pending';
    if (busy && this.ui.countWhileRunning === 'empty') return '';
    if (busy && this.ui.countWhileRunning === 'star') return '[*]';
    return this.count === null ? '[ ]' : `[${this.count}]`;
  }

  #tooltip() {
    const lines = ['Run cell (Ctrl+Enter)'];
    if (this.executedAt)
      lines.push('cell might have changed since last executed', '', 'executed by you', clockTime(this.executedAt));
    else lines.push('cell has not been executed in this session');
    return lines.join('\n');
  }
}

export class TextCellView {
  constructor(cell, index) {
    this.cell = cell;
    this.index = index;
    this.element = h(
      'div',
      {
        class: 'cell text notebook-cell',
        id: `cell-${cell.id}`,
        tabindex: '-1',
        role: 'region',
        'aria-label': `Cell ${index}: Text cell: `,
      },
      h(
        'div',
        { class: 'main-content' },
        h('div', { class: 'cell-contents' }, h('div', { class: 'text-cell-section markdown' }, cell.source)),
      ),
    );
  }
}

/**
 * A Monaco-like rendering: one `div.view-line > span > span.mtkN` per source line, spaces as U+00A0 (as Monaco does).
 * `source` null: an editor whose lines are never rendered (its source cannot be read from the page).
 */
function editor(source, index) {
  const lines = (source === null ? [] : source.split('\n')).map((line, i) =>
    h('div', { style: `top:${i * 19}px;height:19px;`, class: 'view-line' }, h('span', {}, ...tokens(line))),
  );
  return h(
    'div',
    { class: 'editor flex lazy-editor', style: '' },
    h(
      'div',
      { class: 'editor flex monaco', 'data-keybinding-context': String(index + 1), 'data-mode-id': 'notebook-python' },
      h(
        'div',
        {
          class: 'monaco-editor no-user-select  showUnused showDeprecated vs',
          role: 'code',
          'data-uri': `inmemory://model/${index + 1}`,
        },
        ...lines,
      ),
    ),
  );
}

const KEYWORDS = new Set([
  'import',
  'from',
  'as',
  'def',
  'class',
  'return',
  'for',
  'in',
  'while',
  'if',
  'elif',
  'else',
  'try',
  'except',
  'finally',
  'with',
  'raise',
  'pass',
  'not',
  'and',
  'or',
  'is',
  'None',
  'True',
  'False',
  'lambda',
  'yield',
  'print',
]);

/** A rough Python tokenizer; only the DOM shape matters (span.mtkN per token). */
function tokens(line) {
  if (!line) return [h('span', {}, '')];
  const out = [];
  const re = /(#.*$)|("(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?)|([A-Za-z_][A-Za-z0-9_]*)|(\s+)|([^\sA-Za-z_#"']+)/g;
  for (const m of line.matchAll(re)) {
    const [text, comment, string, word] = m;
    const cls = comment ? 'mtk8' : string ? 'mtk5' : word && KEYWORDS.has(word) ? 'mtk20' : 'mtk1';
    out.push(h('span', { class: cls }, text.replace(/ /g, '\u00a0')));
  }
  return out;
}
