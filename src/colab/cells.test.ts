// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { mount, setRunState, snippet } from '../../test/support/colab-dom';
import {
  cellId,
  cellOf,
  cellRunState,
  cellSource,
  editorText,
  executionCount,
  findCells,
  outputElementOf,
  outputFrameOfSource,
  outputFramesOf,
  outputKind,
  outputNumber,
  outputText,
} from './cells';
import { isColabOutputFrame } from './output-frame-reader';

afterEach(() => {
  document.body.innerHTML = '';
});

const cell2026 = () => {
  mount(snippet('code-cell-with-static-output-2026-03.html'));
  return document.getElementById('cell-T2BNeFUZ1OGZ')!;
};

/** The 2025 capture is a DevTools outerHTML copy without the cell wrapper and without shadow roots. */
const cell2025 = () => {
  const [cell] = mount(
    `<div class="cell code notebook-cell" id="cell-abc123">${snippet('code-cell-static-output-2025.html')}</div>`,
  );
  return cell!;
};

describe('cells on the real 2026 capture', () => {
  it('reads id, execution count and the idle ("stale") state', () => {
    const cell = cell2026();
    expect(findCells(document)).toEqual([cell]);
    expect(cellId(cell)).toBe('T2BNeFUZ1OGZ');
    expect(executionCount(cell)).toBe(11);
    expect(cellRunState(cell)).toBe('idle');
    expect(cellOf(cell.querySelector('pre')!)).toBe(cell);
    expect(cellOf(cell)).toBe(cell);
  });

  it("reads the source from the editor's lines (spaces as U+00A0), and null when the editor shows none", () => {
    const cell = cell2026();
    expect(cellSource(cell)).toBe('# Task 1: Data Cleaning');
    for (const line of cell.querySelectorAll('.view-line')) line.remove();
    expect(cellSource(cell)).toBeNull();
  });

  it('reads injected run-button state classes', () => {
    const cell = cell2026();
    const cases: Array<[string, string]> = [
      ['pending', 'pending'],
      ['running animating', 'running'],
      ['focused animating running', 'running'],
      ['error', 'error'],
      ['focused error', 'error'],
      ['stale error', 'stale-error'],
      ['focused stale error hovered', 'stale-error'],
      ['focused stale hovered', 'idle'],
      ['stale running animating', 'running'],
      ['pending running', 'running'],
    ];
    for (const [classes, state] of cases) {
      setRunState(cell, classes);
      expect(cellRunState(cell), classes).toBe(state);
    }
  });

  it('a state element marked stale is read alone; a bare error still yields to a cell class saying it runs', () => {
    const cell = cell2026();
    cell.classList.add('running');
    setRunState(cell, 'stale');
    expect(cellRunState(cell)).toBe('idle');
    setRunState(cell, 'stale error');
    expect(cellRunState(cell)).toBe('stale-error');
    setRunState(cell, 'error');
    expect(cellRunState(cell)).toBe('running');
    cell.classList.remove('running');
    expect(cellRunState(cell)).toBe('error');
  });

  it('reads right however many class strings a page shows (the readings kept are bounded)', () => {
    const cell = cell2026();
    const read = (i: number) => {
      setRunState(cell, `v${i} ${i % 2 ? 'running' : 'stale'}`);
      return cellRunState(cell);
    };
    for (let i = 0; i < 200; i++) expect(read(i), `v${i}`).toBe(i % 2 ? 'running' : 'idle');
    expect([read(0), read(1), read(199)]).toEqual(['idle', 'running', 'running']);
  });

  it('"[ ]" and "[*]" counters are no count', () => {
    const cell = cell2026();
    const counter = cell.querySelector('colab-run-button')!.shadowRoot!.querySelector('.execution-count')!;
    counter.textContent = '[ ]';
    expect(executionCount(cell)).toBeNull();
    counter.textContent = '[*]';
    expect(executionCount(cell)).toBeNull();
  });
});

describe('older state sources', () => {
  it('reads the pre-2024-08 run-button title', () => {
    const cell = cell2025();
    const button = cell.querySelector('colab-run-button')!;
    expect(cellRunState(cell)).toBe('idle');
    button.setAttribute('title', 'Run cell (queued)');
    expect(cellRunState(cell)).toBe('pending');
    button.setAttribute('title', 'executing');
    expect(cellRunState(cell)).toBe('running');
    button.setAttribute('title', 'Interrupt execution');
    expect(cellRunState(cell)).toBe('running');
  });

  it('reads the cell classes (running, pending, execution-error)', () => {
    const cell = cell2025();
    for (const [cls, state] of [
      ['pending', 'pending'],
      ['running', 'running'],
      ['execution-error', 'error'],
    ] as const) {
      cell.classList.add(cls);
      expect(cellRunState(cell)).toBe(state);
      cell.classList.remove(cls);
    }
    expect(executionCount(cell)).toBeNull();
  });
});

describe('outputKind and outputText', () => {
  it('the real static renderers hold stream outputs', () => {
    const cell = cell2026();
    const out = cell.querySelector('colab-static-output-renderer .stream')!;
    expect(outputKind(out)).toBe('stream');
    expect(outputText(out)).toMatch(/3\. python is widely used in data science and machine learning\.\n$/);
    const old = cell2025().querySelector('colab-static-output-renderer .output_text')!;
    expect(outputKind(old)).toBe('stream');
  });

  it('outputText keeps the last 64 KiB in whole lines', () => {
    const el = document.createElement('div');
    el.textContent =
      `${'frame\n'.repeat(20_000)}torch.OutOfMemoryError: CUDA out of memory.\nDuring handling of ` +
      `the above exception, another exception occurred:\n`;
    const text = outputText(el);
    expect(text.length).toBeLessThanOrEqual(65_536);
    expect(text.startsWith('frame\n')).toBe(true);
    expect(text).toContain('CUDA out of memory');
    el.textContent = 'aaa\nbbb\nccc\n';
    expect(outputText(el, 6)).toBe('ccc\n'); // not the fragment "b" of the cut line
  });

  it('classifies the real output-frame samples, and error forms', () => {
    mount(snippet('outputframe-body-samples.html'));
    const kinds = [...document.querySelectorAll('#output-body > div')].map(outputKind);
    expect(kinds).toEqual(['stream', 'other', 'other', 'other', 'other', 'other']);
    const [a, b, c, d, e] = mount(
      `<div class="error output-id-4"><pre>Traceback</pre></div><div class="output_error"></div>
      <div class="output-id-5"><pre class="traceback">OutOfMemoryError</pre></div><div class="stream output_stderr">` +
        `<pre>Traceback (warning)</pre></div>
      <div class="display_data"><p class="error">user html</p></div>`,
    );
    // Only an output's own class: what it holds (a `.traceback`, an `.error`) is the notebook's markup.
    expect([a, b, c, d, e].map((el) => outputKind(el!))).toEqual(['error', 'error', 'other', 'stream', 'other']);
  });
});

describe('outputElementOf and outputNumber', () => {
  /** A frame's #output-body: an error output, and a display_data holding a copy of Colab's markup. */
  const frameBody = () =>
    mount(
      '<div id="output-area"><div id="output-body"><div class="error output-id-1"><pre>ValueError</pre></div>' +
        '<div class="display_data output-id-2"><div class="output_subarea output_html"><div id="output-area">' +
        '<div id="output-body"><div class="error output-id-1"><pre>OutOfMemoryError: CUDA out of memory.</pre>' +
        '</div></div></div></div></div></div></div>',
    )[0]!.querySelector('#output-body')!;

  it("takes the outermost output under the scope: a copy's nested #output-body is inside a display_data", () => {
    const body = frameBody();
    const [real, copy] = body.querySelectorAll('.error');
    expect(outputElementOf(real!, body)).toBe(real);
    const outer = outputElementOf(copy!.querySelector('pre')!, body);
    expect(outer?.className).toBe('display_data output-id-2');
    expect(outputKind(outer!)).toBe('other');
    // Under the nearest #output-body, as before, the copy would pass for an error output.
    expect(outputElementOf(copy!, '#output-body')).toBe(copy);
  });

  it('finds nothing outside the scope, or with none', () => {
    const body = frameBody();
    const [outside] = mount('<div class="error">CUDA out of memory (the notebook\'s HTML)</div>');
    expect(outputElementOf(outside!, body)).toBeNull();
    expect(outputElementOf(outside!, null)).toBeNull();
  });

  it("reads Colab's number of an output, only from its own output-id class", () => {
    const body = frameBody();
    const [first, second] = [...body.children];
    expect(outputNumber(first!)).toBe(1);
    expect(outputNumber(second!)).toBe(2);
    expect(outputNumber(cell2026().querySelector('.stream')!)).toBe(3);
    const [other] = mount(
      '<div class="display_data"></div><div class="stream output-id-12x"></div><div class="output-id-7 stream"></div>',
    );
    expect(outputNumber(other!)).toBeNull();
    expect(outputNumber(other!.nextElementSibling!)).toBeNull();
    expect(outputNumber(other!.nextElementSibling!.nextElementSibling!)).toBe(7);
  });
});

describe('outputFrameOfSource', () => {
  it('maps a message source to the cell whose output iframe it is', () => {
    const cell = cell2026();
    const iframe = document.createElement('iframe');
    cell.querySelector('.output-iframe-sizer')!.append(iframe);
    const source = {} as Window;
    Object.defineProperty(iframe, 'contentWindow', { value: source });
    expect(outputFrameOfSource(document, source)).toBe(iframe);
    expect(cellOf(iframe)).toBe(cell);
    expect(outputFrameOfSource(document, {} as Window)).toBeNull();
    expect(outputFrameOfSource(document, null)).toBeNull();
  });

  it('ignores iframes outside cell output areas', () => {
    const iframe = document.createElement('iframe');
    document.body.append(iframe);
    const source = {} as Window;
    Object.defineProperty(iframe, 'contentWindow', { value: source });
    expect(outputFrameOfSource(document, source)).toBeNull();
  });
});

describe('isColabOutputFrame', () => {
  const at = (url: string) => isColabOutputFrame(new URL(url));
  it('accepts Colab output frames', () => {
    expect(at('https://abc123-0-colab.googleusercontent.com/outputframe.html?vrz=colab_20250909-060057_RC00')).toBe(
      true,
    );
    expect(at('https://x7f3-colab.googleusercontent.com/outputframe.html')).toBe(true);
  });
  it('rejects other pages, hosts and schemes', () => {
    expect(at('https://abc-0-colab.googleusercontent.com/other.html')).toBe(false);
    expect(at('https://googleusercontent.com.evil.test/outputframe.html')).toBe(false);
    expect(at('https://evil.test/x.googleusercontent.com/outputframe.html')).toBe(false);
    expect(at('http://abc-0-colab.googleusercontent.com/outputframe.html')).toBe(false);
  });
});

describe('cells: what is not there', () => {
  /** A text cell: no run button, no editor lines, no counter (Colab's markdown cells). */
  const textCell = () =>
    mount('<div class="cell text notebook-cell" id="cell-md1"><div class="markdown"><p>Notes</p></div></div>')[0]!;

  it('a cell without a run button is idle and has no count', () => {
    const cell = textCell();
    expect(cellRunState(cell)).toBe('idle');
    expect(executionCount(cell)).toBeNull();
  });

  it('a cell without an editor has no source and no editor text; with one, its text in one read', () => {
    expect(cellSource(textCell())).toBeNull();
    expect(editorText(textCell())).toBeNull();
    const cell = cell2026();
    expect(editorText(cell)?.replaceAll('\u00a0', ' ')).toContain('# Task 1: Data Cleaning');
    expect(editorText(cell)).toBe(cell.querySelector('.editor')!.textContent);
  });

  it('finds the cell of a text node, and none for a node outside any element', () => {
    const cell = cell2026();
    const text = document.createTreeWalker(cell.querySelector('.view-line')!, NodeFilter.SHOW_TEXT).nextNode()!;
    expect(cellOf(text)).toBe(cell);
    expect(cellOf(document.createTextNode('loose'))).toBeNull();
    expect(outputElementOf(document.createTextNode('loose'), 'colab-static-output-renderer')).toBeNull();
  });

  it('a pre-2024 run button titled to run, not queued, is idle', () => {
    const cell = cell2025();
    cell.querySelector('colab-run-button')!.setAttribute('title', 'Run cell (Ctrl+Enter)');
    expect(cellRunState(cell)).toBe('idle');
  });

  it('reads a counter with spaces inside its brackets', () => {
    const cell = cell2026();
    const counter = cell.querySelector('colab-run-button')!.shadowRoot!.querySelector('.execution-count')!;
    counter.textContent = '[ 12 ]';
    expect(executionCount(cell)).toBe(12);
  });

  it("lists a cell's output frames in page order", () => {
    const cell = cell2026();
    const area = cell.querySelector('.output-iframe-sizer')!;
    const [a, b] = [document.createElement('iframe'), document.createElement('iframe')];
    area.append(a, b);
    expect(outputFramesOf(cell)).toEqual([a, b]);
    expect(outputFramesOf(cell2025())).toEqual([]);
  });

  it('a frame whose window is gone is the source of no message', () => {
    const cell = cell2026();
    const gone = document.createElement('iframe');
    cell.querySelector('.output-iframe-sizer')!.append(gone);
    Object.defineProperty(gone, 'contentWindow', { value: null });
    expect(outputFrameOfSource(document, null)).toBeNull();
  });
});
