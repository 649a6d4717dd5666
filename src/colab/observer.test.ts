// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mount, setRunState, snippet, tick } from '../../test/support/colab-dom';
import { countWork } from '../../test/support/count-work';
import { observeColabPage, type PageHandlers, type PageObserver, SETTLE_MS, toastText } from './observer';

let observer: PageObserver | null = null;

afterEach(() => {
  observer?.disconnect();
  observer = null;
  document.body.innerHTML = '';
});

/** Starts the observer with every handler recording into `events`. */
function watch(opts: { wantAllText?: boolean } = {}) {
  const events: string[] = [];
  const elements: Element[] = [];
  /** When each reported state change was made. */
  const times: number[] = [];
  const handlers: Required<PageHandlers> = {
    cellState: (_cell, id, state, previous, at) => {
      events.push(`state ${id} ${previous}->${state}`);
      times.push(at);
    },
    outputAdded: (_cell, id, element, kind) => {
      events.push(`output ${id} ${kind}`);
      elements.push(element);
    },
    streamText: (_cell, id, text) => events.push(`stream ${id} ${JSON.stringify(text)}`),
    frameAdded: (frame) => events.push(`frame ${frame.localName}`),
    toast: (text) => events.push(`toast ${text}`),
    dialogOpened: (kind) => events.push(`dialog ${kind}`),
    kernelChanged: () => kernelNow(),
  };
  /** What the connect button shows when it changed, recorded when it differs from what was recorded last. */
  let kernelSaid: string | undefined;
  const kernelNow = () => {
    const said = `kernel ${observer?.kernelBusy() ? 'busy' : 'not busy'}`;
    if (said !== kernelSaid) events.push(said);
    kernelSaid = said;
  };
  observer = observeColabPage(document, handlers, opts);
  return { events, elements, times };
}

/** The page's changes seen, and what waits to be read together (a running cell's changes) read now. */
async function seen() {
  await tick();
  observer?.settle();
}

const renderer = () => document.querySelector('colab-static-output-renderer > div')!;
const CELL = 'T2BNeFUZ1OGZ';
/** The transitions of an execution queued, run, failed, and made one of an earlier kernel session by a restart. */
const QUEUED_TO_OLD_ERROR = [
  `state ${CELL} idle->pending`,
  `state ${CELL} pending->running`,
  `state ${CELL} running->error`,
  `state ${CELL} error->stale-error`,
];

describe('run-state transitions', () => {
  it('emits transitions only, from the run button shadow root', async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const { events } = watch();
    const cell = document.getElementById(`cell-${CELL}`)!;
    setRunState(cell, 'pending');
    await seen();
    setRunState(cell, 'running animating');
    await seen();
    setRunState(cell, 'running animating hovered');
    await seen();
    setRunState(cell, 'error');
    await seen();
    setRunState(cell, 'stale error'); // a restart made the error one of an earlier kernel session
    await seen();
    expect(events).toEqual(QUEUED_TO_OLD_ERROR);
  });

  it(
    'hooks cells added after start, recording their first state silently (their saved outputs are not ' + 'new)',
    async () => {
      const { events } = watch();
      mount(snippet('code-cell-with-static-output-2026-03.html'));
      await tick();
      expect(events).toEqual([]);
      setRunState(document.getElementById(`cell-${CELL}`)!, 'running');
      await tick();
      expect(events).toEqual([`state ${CELL} idle->running`]);
    },
  );

  it('follows the older sources: cell classes and the run-button title', async () => {
    mount(`<div class="cell code" id="cell-old">${snippet('code-cell-static-output-2025.html')}</div>`);
    const { events } = watch();
    const cell = document.getElementById('cell-old')!;
    cell.classList.add('pending');
    await seen();
    cell.classList.remove('pending');
    cell.querySelector('colab-run-button')!.setAttribute('title', 'executing');
    await seen();
    cell.querySelector('colab-run-button')!.removeAttribute('title');
    cell.classList.add('execution-error');
    await seen();
    expect(events).toEqual(['state old idle->pending', 'state old pending->running', 'state old running->error']);
  });

  it('follows a state element that the run button renders anew, and one rendered only later', async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const { events } = watch();
    const cell = document.getElementById(`cell-${CELL}`)!;
    const root = cell.querySelector('colab-run-button')!.shadowRoot!;
    const rerender = (classes: string) => {
      const state = document.createElement('div');
      state.className = `cell-execution ${classes}`;
      root.replaceChildren(state);
    };
    rerender('pending');
    await seen();
    setRunState(cell, 'running animating');
    await seen();
    root.replaceChildren(); // Lit's first render has not happened yet: nothing to read, nothing reported
    await seen();
    rerender('error');
    await seen();
    setRunState(cell, 'stale error');
    await seen();
    expect(events).toEqual(QUEUED_TO_OLD_ERROR);
  });

  it('follows a state element deeper in the run button than Colab renders it (a layout it does not know)', async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const cell = document.getElementById(`cell-${CELL}`)!;
    const root = cell.querySelector('colab-run-button')!.shadowRoot!;
    const wrapper = document.createElement('div');
    wrapper.append(...root.childNodes);
    root.append(wrapper);
    const { events } = watch();
    setRunState(cell, 'running animating');
    await seen();
    wrapper.replaceChildren(Object.assign(document.createElement('div'), { className: 'cell-execution error' }));
    await seen();
    expect(events).toEqual([`state ${CELL} idle->running`, `state ${CELL} running->error`]);
  });
});

describe('reading running cells together', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(0);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** The run state changes at `at` ms. */
  async function stateAt(at: number, classes: string) {
    await vi.advanceTimersByTimeAsync(at - Date.now());
    setRunState(document.getElementById(`cell-${CELL}`)!, classes);
    await vi.advanceTimersByTimeAsync(0);
  }

  it("reads a start at once, a running cell's changes together SETTLE_MS later, dated when made", async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const { events, times } = watch();
    await stateAt(100, 'pending');
    expect(events).toEqual([`state ${CELL} idle->pending`]);
    await stateAt(200, 'running animating');
    await stateAt(300, 'focused');
    await vi.advanceTimersByTimeAsync(200 + SETTLE_MS - 1 - Date.now());
    expect(events).toEqual([`state ${CELL} idle->pending`]);
    await vi.advanceTimersByTimeAsync(1);
    // What it changed to by then: a Run all's cell is read once it has ended, not at each of its steps.
    expect(events).toEqual([`state ${CELL} idle->pending`, `state ${CELL} pending->idle`]);
    expect(times).toEqual([100, 300]);
  });

  it('reads what waits before it reports an output, and a cell that showed an error at once', async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const { events, times } = watch();
    await stateAt(100, 'pending');
    await stateAt(200, 'running animating');
    mount('<div class="error output-id-4"><pre>OutOfMemoryError: CUDA out of memory.</pre></div>', renderer());
    await vi.advanceTimersByTimeAsync(0);
    await stateAt(300, 'error');
    expect(events).toEqual([
      `state ${CELL} idle->pending`,
      `state ${CELL} pending->running`,
      `output ${CELL} error`,
      `state ${CELL} running->error`,
    ]);
    expect(times).toEqual([100, 200, 300]);
  });

  it('reads a cell told to hurry (an output frame showed an error) now, and its end at once', async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const { events } = watch();
    await stateAt(100, 'pending');
    await stateAt(200, 'running animating');
    observer!.hurry(document.getElementById(`cell-${CELL}`)!);
    expect(events).toEqual([`state ${CELL} idle->pending`, `state ${CELL} pending->running`]);
    await stateAt(300, 'error');
    expect(events.at(-1)).toBe(`state ${CELL} running->error`);
    // Once ended, its next execution's changes wait again.
    await stateAt(400, 'pending');
    await stateAt(500, 'running animating');
    expect(events.at(-1)).toBe(`state ${CELL} error->pending`);
  });

  it('reads nothing after it is disconnected', async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const { events } = watch();
    await stateAt(100, 'pending');
    await stateAt(200, 'running animating');
    observer!.disconnect();
    await vi.advanceTimersByTimeAsync(10 * SETTLE_MS);
    expect(events).toEqual([`state ${CELL} idle->pending`]);
  });
});

describe('the first look at a page', () => {
  const cellNamed = (id: string) => snippet('code-cell-with-static-output-2026-03.html').replaceAll(CELL, id);

  it('finds the cells of the cell list, one in a wrapper, and the hooks beside the list', async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const list = document.querySelector('.notebook-cell-list')!;
    // A child of the list that is no cell (here a list of its own) is searched whole.
    mount(cellNamed('WRAPPED'), list);
    const panel = mount('<div class="side-panel"></div>')[0]!;
    mount(cellNamed('SCRATCH'), panel);
    mount(snippet('connect-button-connected-2026-03.html'));
    const [dialog] = mount('<mwc-dialog heading="Runtime disconnected"></mwc-dialog>');
    setRunState(document.getElementById('cell-WRAPPED')!, 'running animating');
    setRunState(document.getElementById('cell-SCRATCH')!, 'pending');
    const { events } = watch();
    expect([...events].sort()).toEqual(['state SCRATCH idle->pending', 'state WRAPPED idle->running']);
    events.length = 0;
    setRunState(document.getElementById(`cell-${CELL}`)!, 'running');
    await tick();
    setRunState(document.getElementById('cell-WRAPPED')!, 'error');
    await tick();
    dialog!.setAttribute('open', '');
    await tick();
    expect(events).toEqual([`state ${CELL} idle->running`, 'state WRAPPED running->error', 'dialog disconnected']);
    document.querySelector('colab-connect-button')!.shadowRoot!.querySelector('#connect-icon md-icon')!.textContent =
      'more_horiz';
    expect(observer!.kernelBusy()).toBe(true);
  });

  it('searches a page without a cell list whole', async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    document.querySelector('.notebook-cell-list')!.className = 'cells-of-another-layout';
    setRunState(document.getElementById(`cell-${CELL}`)!, 'pending');
    const { events } = watch();
    setRunState(document.getElementById(`cell-${CELL}`)!, 'running');
    await seen();
    expect(events).toEqual([`state ${CELL} idle->pending`, `state ${CELL} pending->running`]);
  });
});

describe('outputs', () => {
  const addThree = () => {
    mount('<div class="error output-id-4"><pre>OutOfMemoryError: CUDA out of memory.</pre></div>', renderer());
    mount('<div class="stream output-id-5 output_text"><pre>epoch 1</pre></div>', renderer());
    mount('<div class="execute_result output-id-6"><pre>42</pre></div>', renderer());
  };

  it('reports error outputs added after start, and without wanting all text only those', async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const { events } = watch();
    addThree();
    await tick();
    expect(events).toEqual([`output ${CELL} error`]);
  });

  it("never reports what an output holds as an error output: a display_data copying Colab's error markup", async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const { events } = watch();
    mount(
      '<div class="execute_result output-id-7"><pre><div class="traceback">MemoryError</div></pre></div>',
      renderer(),
    );
    mount(
      '<div class="display_data output-id-8"><div class="output_subarea output_html"><div id="output-body">' +
        '<div class="error output-id-1"><pre>OutOfMemoryError: CUDA out of memory.</pre></div></div></div></div>',
      renderer(),
    );
    await tick();
    expect(events).toEqual([]);
  });

  it('reports every output added after start when all text is wanted, not the ones already there', async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const { events, elements } = watch({ wantAllText: true });
    addThree();
    await tick();
    expect(events).toEqual([`output ${CELL} error`, `output ${CELL} stream`, `output ${CELL} other`]);
    expect(elements[0]?.textContent).toContain('CUDA out of memory');
  });

  it('reports the outputs of a whole renderer added at once, outermost elements only', async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const { events } = watch({ wantAllText: true });
    const sizer = document.querySelector('.output-iframe-sizer')!;
    sizer.innerHTML = '';
    mount(
      '<div><colab-static-output-renderer><div><div class="stream output-id-1"><pre>a</pre></div><div class="error ' +
        'output-id-2"><div class="output_subarea ' +
        'output_error"><pre>MemoryError</pre></div></div></div></colab-static-output-renderer></div>',
      sizer,
    );
    await tick();
    expect(events).toEqual([`output ${CELL} stream`, `output ${CELL} error`]);
  });

  it('finds an error output by its marks alone when only errors are wanted: once, not a mark in a stream', async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const { events, elements } = watch();
    const sizer = document.querySelector('.output-iframe-sizer')!;
    sizer.innerHTML = '';
    mount(
      '<div><colab-static-output-renderer><div><div class="stream output-id-1"><pre class="traceback">a</pre></div>' +
        '<div class="error output-id-2"><div class="output_subarea output_error"><pre class="traceback">MemoryError' +
        '</pre></div></div></div></colab-static-output-renderer><span class="error">not an output</span></div>',
      sizer,
    );
    await tick();
    expect(events).toEqual([`output ${CELL} error`]);
    expect(elements[0]?.className).toBe('error output-id-2');
  });

  it('a renderer added by itself is looked into for error marks only; an output frame added is only said', async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const { events, elements } = watch();
    const holder = document.querySelector('colab-static-output-renderer')!.parentElement!;
    holder.innerHTML = '';
    mount(
      '<colab-static-output-renderer><div><div class="stream output-id-1"><pre>a</pre></div></div>' +
        '</colab-static-output-renderer>',
      holder,
    );
    mount('<iframe class="output-iframe"></iframe>', holder);
    await tick();
    expect(events).toEqual(['frame iframe']);
    events.length = 0;
    mount(
      '<colab-static-output-renderer><div><div class="error output-id-2"><pre>MemoryError' +
        '</pre></div></div></colab-static-output-renderer>',
      holder,
    );
    await tick();
    expect(events).toEqual([`output ${CELL} error`]);
    expect(elements[0]?.className).toBe('error output-id-2');
  });

  it('reads a renderer added empty and filled in one task once, and what the task changed outside it', async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const [first, second] = document.querySelectorAll(`#cell-${CELL}`);
    second!.id = 'cell-second';
    const { events, elements } = watch();
    const [holder, otherHolder] = [first, second].map(
      (cell) => cell!.querySelector('colab-static-output-renderer')!.parentElement!,
    );
    holder!.innerHTML = '';
    otherHolder!.innerHTML = '';
    await tick();
    // As Colab's renderer does: the renderer first, then its outputs appended to its list; then another cell's error.
    const list = document.createElement('div');
    mount('<colab-static-output-renderer></colab-static-output-renderer>', holder)[0]!.append(list);
    mount('<div class="error output-id-1"><pre>MemoryError</pre></div>', list);
    mount('<div class="stream output-id-2"><pre>more</pre></div>', list);
    mount(
      '<colab-static-output-renderer><div><div class="error output-id-1"><pre>MemoryError</pre></div></div>' +
        '</colab-static-output-renderer>',
      otherHolder,
    );
    await tick();
    expect(events).toEqual([`output ${CELL} error`, 'output second error']);
    expect(elements.map((el) => el.closest('[id^="cell-"]')?.id)).toEqual([`cell-${CELL}`, 'cell-second']);
  });

  it('a dialog added and opened in one task is reported once, from how it is at the end of the task', async () => {
    const { events } = watch();
    const [wrapper] = mount('<div><mwc-dialog heading="Cannot connect to GPU backend"></mwc-dialog></div>');
    wrapper!.querySelector('mwc-dialog')!.setAttribute('open', '');
    const [shut] = mount('<div><mwc-dialog open heading="Runtime disconnected"></mwc-dialog></div>');
    shut!.querySelector('mwc-dialog')!.removeAttribute('open');
    await tick();
    expect(events).toEqual(['dialog gpu-quota']);
  });
});

describe('stream text', () => {
  it('reports appended text only when wanted', async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const pre = () => document.querySelector('colab-static-output-renderer pre')!;
    const quiet = watch();
    pre().append('not wanted\n');
    await tick();
    expect(quiet.events).toEqual([]);
    observer!.disconnect();

    const { events } = watch({ wantAllText: true });
    pre().append('epoch 2 loss 0.1\n');
    await tick();
    const text = pre().lastChild as Text;
    text.appendData('Killed\n');
    await tick();
    mount('<span>line as element\n</span><!--?lit$516311766$-->', pre());
    await tick();
    expect(events).toEqual([
      `stream ${CELL} "epoch 2 loss 0.1\\n"`,
      `stream ${CELL} "Killed\\n"`,
      `stream ${CELL} "line as element\\n"`,
    ]);
  });

  it("asks for a changed text's old value, kept by Chromium only when asked: a grown text reads its tail", async () => {
    // Chromium's rule (happy-dom keeps the old value either way): without characterDataOldValue, oldValue is null.
    const Native = globalThis.MutationObserver;
    class AsChromium extends Native {
      #asked = false;
      constructor(callback: MutationCallback) {
        super((records, self) =>
          callback(
            records.map((r) => (this.#asked ? r : withoutOld(r))),
            self,
          ),
        );
      }
      override observe(target: Node, options?: MutationObserverInit): void {
        this.#asked ||= options?.characterDataOldValue === true;
        super.observe(target, options);
      }
    }
    const withoutOld = (record: MutationRecord) =>
      new Proxy(record, { get: (r, key) => (key === 'oldValue' ? null : Reflect.get(r, key)) });
    vi.stubGlobal('MutationObserver', AsChromium);
    try {
      mount(snippet('code-cell-with-static-output-2026-03.html'));
      const text = document.querySelector('colab-static-output-renderer pre')!.lastChild as Text;
      text.data = 'epoch 1\n';
      const { events } = watch({ wantAllText: true });
      text.appendData('epoch 2\n');
      await tick();
      expect(events).toEqual([`stream ${CELL} "epoch 2\\n"`]);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('reports only the new tail when a text node is replaced by a longer one', async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const pre = document.querySelector('colab-static-output-renderer pre')!;
    pre.textContent = 'a\n';
    const { events } = watch({ wantAllText: true });
    pre.textContent = 'a\nb\n';
    await tick();
    expect(events).toEqual([`stream ${CELL} "b\\n"`]);
  });

  it('can be switched on later', async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const { events } = watch();
    observer!.setWantAllText(true);
    (document.querySelector('colab-static-output-renderer pre')!.lastChild as Text).appendData('x');
    await tick();
    expect(events).toEqual([`stream ${CELL} "x"`]);
  });

  it('does not repeat the text of an output reported in the same batch', async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const { events } = watch({ wantAllText: true });
    const [out] = mount('<div class="stream output-id-9"><pre></pre></div>', renderer());
    out!.querySelector('pre')!.append('first line\n');
    await tick();
    expect(events).toEqual([`output ${CELL} stream`]);
  });

  it('costs nothing visible for a flood of lines when stream text is off', async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const { events } = watch();
    const pre = document.querySelector('colab-static-output-renderer pre')!;
    for (let i = 0; i < 5000; i++) pre.append(`line ${i}\n`);
    await tick();
    expect(events).toEqual([]);
  });
});

describe('toasts', () => {
  const open = (host: Element, label: string, where: 'attribute' | 'shadow') => {
    if (where === 'attribute') host.setAttribute('labeltext', label);
    else
      host
        .shadowRoot!.querySelector('.mdc-snackbar__surface')!
        .insertAdjacentHTML('afterbegin', `<div class="mdc-snackbar__label">${label}</div>`);
    host.shadowRoot!.querySelector('.mdc-snackbar')!.classList.add('mdc-snackbar--open');
  };
  const close = (host: Element) =>
    host.shadowRoot!.querySelector('.mdc-snackbar')!.classList.remove('mdc-snackbar--open');

  it('reports the crash toast when the snackbar opens (label in the attribute)', async () => {
    mount(snippet('snackbar-message-area-idle-2026-03.html'));
    const { events } = watch();
    const host = document.getElementById('message-area')!;
    expect(toastText(host)).toBe('');
    open(host, 'Your session crashed after using all available RAM.', 'attribute');
    await tick();
    close(host);
    await tick();
    open(host, 'Your session crashed after using all available RAM.', 'attribute');
    await tick();
    expect(events).toEqual([
      'toast Your session crashed after using all available RAM.',
      'toast Your session crashed after using all available RAM.',
    ]);
  });

  it('reports a toast once when its open class and its label change in one task (both observers see it)', async () => {
    mount(snippet('snackbar-message-area-idle-2026-03.html'));
    const { events } = watch();
    const host = document.getElementById('message-area')!;
    host.shadowRoot!.querySelector('.mdc-snackbar')!.classList.add('mdc-snackbar--open');
    host.setAttribute('labeltext', 'Your session crashed after using all available RAM.');
    await tick();
    await tick();
    expect(events).toEqual(['toast Your session crashed after using all available RAM.']);
  });

  it('reports a new crash shown in the sticky toast still open, by its label or by MDC reopening it', async () => {
    mount(snippet('snackbar-message-area-idle-2026-03.html'));
    const { events } = watch();
    const host = document.getElementById('message-area')!;
    const text = 'Your session crashed after using all available RAM.';
    open(host, text, 'attribute');
    await tick();
    host.setAttribute('labeltext', text); // the second crash: the same message set again, the toast never closed
    await tick();
    const surface = host.shadowRoot!.querySelector('.mdc-snackbar')!;
    surface.classList.add('mdc-snackbar--opening'); // the third: MDC's open() on an open snackbar
    await tick();
    surface.classList.remove('mdc-snackbar--opening');
    await tick();
    expect(events).toEqual([`toast ${text}`, `toast ${text}`, `toast ${text}`]);
  });

  it(
    'reports another message written into the label of a toast still open, not an action link added ' + 'later',
    async () => {
      mount(snippet('snackbar-message-area-idle-2026-03.html'));
      const { events } = watch();
      const host = document.getElementById('message-area')!;
      open(host, 'Unable to connect to the runtime.', 'shadow');
      await tick();
      host.insertAdjacentHTML('beforeend', '<md-text-button slot="action">Retry</md-text-button>');
      await tick();
      host.shadowRoot!.querySelector('.mdc-snackbar__label')!.textContent =
        'Your session crashed after using all available RAM.';
      await tick();
      expect(events).toEqual([
        'toast Unable to connect to the runtime.',
        'toast Your session crashed after using all available RAM. Retry',
      ]);
    },
  );

  it('reads a label rendered in the shadow root, on the secondary area, for a snackbar added later', async () => {
    const { events } = watch();
    mount(snippet('snackbar-message-area-idle-2026-03.html'));
    await tick();
    open(document.getElementById('message-area-secondary')!, 'Your session crashed for an unknown reason.', 'shadow');
    await tick();
    expect(events).toEqual(['toast Your session crashed for an unknown reason.']);
  });

  it('waits for the text when the open class comes first', async () => {
    mount(snippet('snackbar-message-area-idle-2026-03.html'));
    const { events } = watch();
    const host = document.getElementById('message-area')!;
    host.shadowRoot!.querySelector('.mdc-snackbar')!.classList.add('mdc-snackbar--open');
    await tick();
    host.setAttribute('labeltext', 'Unable to connect to the runtime.');
    await tick();
    expect(events).toEqual(['toast Unable to connect to the runtime.']);
  });
});

describe('the connect button', () => {
  const icon = () =>
    document.querySelector('colab-connect-button')!.shadowRoot!.querySelector('#connect-icon md-icon')!;

  it('tells whether the runtime is busy running code: its first state, then at each change while watched', async () => {
    mount(snippet('connect-button-connected-2026-03.html'));
    const { events } = watch();
    observer!.watchKernel(true);
    expect(observer!.kernelBusy()).toBe(false);
    icon().textContent = 'more_horiz';
    await tick();
    icon().textContent = 'more_horiz'; // re-rendered, same state
    await tick();
    icon().textContent = 'done';
    await tick();
    expect(events).toEqual(['kernel busy', 'kernel not busy']);
  });

  it('is not watched until asked, and no longer once asked to stop; it is read as it is now all the same', async () => {
    mount(snippet('connect-button-connected-2026-03.html'));
    const { events } = watch();
    icon().textContent = 'more_horiz';
    await tick();
    expect(events).toEqual([]);
    expect(observer!.kernelBusy()).toBe(true);
    observer!.watchKernel(true);
    icon().textContent = 'done';
    await tick();
    observer!.watchKernel(false);
    icon().textContent = 'more_horiz';
    await tick();
    expect(events).toEqual(['kernel not busy']);
    expect(observer!.kernelBusy()).toBe(true);
  });

  it('a connect button rendered anew while watched is watched, and said to have changed', async () => {
    mount('<div id="toolbar"></div>');
    const { events } = watch();
    observer!.watchKernel(true);
    mount(snippet('connect-button-connected-2026-03.html'), document.getElementById('toolbar')!);
    await tick();
    icon().textContent = 'more_horiz';
    await tick();
    expect(events).toEqual(['kernel not busy', 'kernel busy']);
  });

  it('a runtime connecting is not busy running code', async () => {
    mount(snippet('connect-button-connected-2026-03.html'));
    const { events } = watch();
    observer!.watchKernel(true);
    const root = document.querySelector('colab-connect-button')!.shadowRoot!;
    root.querySelector('#connect')!.textContent = 'Connecting';
    icon().textContent = 'more_horiz';
    await tick();
    expect(events).toEqual(['kernel not busy']);
    expect(observer!.kernelBusy()).toBe(false);
  });

  it('a page without a connect button is not busy', () => {
    mount('<div></div>');
    watch();
    expect(observer!.kernelBusy()).toBe(false);
  });

  it('says the connect button changed after the cell states of the same batch', async () => {
    mount(snippet('connect-button-connected-2026-03.html') + snippet('code-cell-with-static-output-2026-03.html'));
    const { events } = watch();
    observer!.watchKernel(true);
    setRunState(document.getElementById(`cell-${CELL}`)!, 'running animating');
    icon().textContent = 'more_horiz';
    await tick();
    expect(events).toEqual([`state ${CELL} idle->running`, 'kernel busy']);
  });
});

describe('dialogs', () => {
  it('reports dialogs as they open, once each', async () => {
    const [closed] = mount(
      '<mwc-dialog heading="Runtime disconnected"><md-text-button ' +
        'slot="primaryAction">Reconnect</md-text-button></mwc-dialog>',
    );
    const { events } = watch();
    mount('<mwc-dialog open heading="Cannot connect to GPU backend"></mwc-dialog>');
    await tick();
    closed!.setAttribute('open', '');
    await tick();
    closed!.setAttribute('heading', 'Runtime disconnected');
    await tick();
    mount('<colab-dialog><paper-dialog opened><h2>Runtime disconnected</h2></paper-dialog></colab-dialog>');
    await tick();
    expect(events).toEqual(['dialog gpu-quota', 'dialog disconnected', 'dialog disconnected']);
  });
});

it('disconnect stops all reporting', async () => {
  mount(snippet('code-cell-with-static-output-2026-03.html'));
  const { events } = watch();
  observer!.disconnect();
  setRunState(document.getElementById(`cell-${CELL}`)!, 'running');
  mount('<div class="error"></div>', renderer());
  await tick();
  expect(events).toEqual([]);
});

describe('a page observer asked for only some events', () => {
  it('runs without the handlers it was not given: cells, outputs, text, frames, toasts, dialogs, kernel', async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    mount(snippet('snackbar-message-area-idle-2026-03.html'));
    mount(snippet('connect-button-connected-2026-03.html'));
    const errors: unknown[] = [];
    const onError = (event: ErrorEvent) => errors.push(event.error);
    window.addEventListener('error', onError);
    observer = observeColabPage(document, {}, { wantAllText: true });
    observer.watchKernel(true);
    const cell = document.getElementById(`cell-${CELL}`)!;
    setRunState(cell, 'running animating');
    await seen();
    mount('<div class="stream output-id-9"><pre>epoch 1</pre></div>', renderer());
    await tick();
    renderer().querySelector('.output-id-9 pre')!.append(' epoch 2');
    await tick();
    mount('<iframe class="output-iframe"></iframe>', renderer().parentElement!.parentElement!);
    const toast = document.getElementById('message-area')!;
    toast.setAttribute('labeltext', 'Your session crashed after using all available RAM.');
    toast.shadowRoot!.querySelector('.mdc-snackbar')!.classList.add('mdc-snackbar--open');
    mount('<mwc-dialog open heading="Cannot connect to GPU backend"></mwc-dialog>');
    document.querySelector('colab-connect-button')!.shadowRoot!.querySelector('#connect-icon md-icon')!.textContent =
      'more_horiz';
    await tick();
    mount('<div id="later"></div>');
    document.getElementById('later')!.append(document.createElement('colab-connect-button'));
    await tick();
    setRunState(cell, 'error');
    await seen();
    window.removeEventListener('error', onError);
    expect(errors).toEqual([]);
  });
});

describe('attributes that say a state', () => {
  it("an older run button's title alone says its cell's state", async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const cell = document.getElementById(`cell-${CELL}`)!;
    const button = cell.querySelector('colab-run-button')!;
    // An older run button: no state element in its shadow root, its title says the state.
    button.shadowRoot!.replaceChildren();
    button.shadowRoot!.append(document.createElement('span'));
    const { events } = watch();
    button.setAttribute('title', 'Interrupt execution (currently executing)');
    await seen();
    expect(events).toEqual([`state ${CELL} idle->running`]);
  });

  it('a dialog that opens by its `opened` attribute, or an MDC dialog by its class, is reported', async () => {
    const [paper] = mount('<colab-dialog><paper-dialog><h2>Runtime disconnected</h2></paper-dialog></colab-dialog>');
    const [mdc] = mount(
      '<div class="mdc-dialog" role="dialog"><div class="mdc-dialog__surface"><h2 class="mdc-dialog__title">' +
        'Runtime disconnected' +
        '</h2></div></div>',
    );
    const { events } = watch();
    paper!.querySelector('paper-dialog')!.setAttribute('opened', '');
    await tick();
    expect(events).toEqual(['dialog disconnected']);
    mdc!.classList.add('mdc-dialog--open');
    await tick();
    expect(events).toEqual(['dialog disconnected', 'dialog disconnected']);
  });
});

describe('the observer at its edges', () => {
  it('reports neither a toast nor a dialog already open when it starts: they are not new', async () => {
    mount(snippet('snackbar-message-area-idle-2026-03.html'));
    const toast = document.getElementById('message-area')!;
    toast.setAttribute('labeltext', 'Your session crashed after using all available RAM.');
    toast.shadowRoot!.querySelector('.mdc-snackbar')!.classList.add('mdc-snackbar--open');
    mount('<mwc-dialog open heading="Runtime disconnected"></mwc-dialog>');
    const { events } = watch();
    await tick();
    expect(events).toEqual([]);
  });

  it('a dialog taken out of the page and put back is watched again', async () => {
    const [dialog] = mount('<mwc-dialog heading="Runtime disconnected"></mwc-dialog>');
    const { events } = watch();
    dialog!.setAttribute('open', '');
    dialog!.remove();
    await tick();
    dialog!.removeAttribute('open');
    document.body.append(dialog!);
    await tick();
    dialog!.setAttribute('open', '');
    await tick();
    expect(events).toEqual(['dialog disconnected']);
  });

  it("a menu that opens (the toolbar's md-menu) is no dialog", async () => {
    const [menu] = mount('<md-menu><md-menu-item command="restart">Restart session</md-menu-item></md-menu>');
    const { events } = watch();
    menu!.setAttribute('open', '');
    await tick();
    expect(events).toEqual([]);
  });

  it('keeps the changes made just before all text is asked for', async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const { events } = watch();
    mount('<div class="error output-id-8"><pre>MemoryError</pre></div>', renderer());
    observer!.setWantAllText(true);
    await tick();
    expect(events).toEqual([`output ${CELL} error`]);
  });
});

// "Work proportional to new output, no whole-page re-reads" (README): what each kind of change costs, counted. A
// shortcut or cache lost costs calls the page pays at every printed line or state change of a night.
describe('the work it does', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('observes nothing new while cells run, and nothing again: each run button and older cell once', async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    mount(`<div class="cell code" id="cell-old">${snippet('code-cell-static-output-2025.html')}</div>`);
    const work = countWork();
    const { events } = watch();
    expect(work.observes).toBeGreaterThan(0);
    work.reset();
    const cell = document.getElementById(`cell-${CELL}`)!;
    const old = document.getElementById('cell-old')!;
    for (const classes of ['pending', 'running animating', 'error']) {
      setRunState(cell, classes);
      await seen();
    }
    for (const classes of ['pending', 'execution-error']) {
      old.className = `cell code ${classes}`;
      await seen();
    }
    expect(events).toEqual([
      `state ${CELL} idle->pending`,
      `state ${CELL} pending->running`,
      `state ${CELL} running->error`,
      'state old idle->pending',
      'state old pending->error',
    ]);
    expect(work.observes).toBe(0);
    // A run button's state change is read from its own element: no climb to its cell, no tree looked up.
    expect(work.calls.closest).toBe(0);
    // The older cell's tree, looked up at its first change and remembered.
    expect(work.calls.getRootNode).toBe(1);
  });

  it("a run button's state change costs no query: its button and state element are known", async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const work = countWork();
    const { events } = watch();
    const cell = document.getElementById(`cell-${CELL}`)!;
    const state = cell.querySelector('colab-run-button')!.shadowRoot!.querySelector('.cell-execution')!;
    state.className = 'cell-execution pending';
    await seen();
    work.reset();
    state.className = 'cell-execution running animating';
    await seen();
    state.className = 'cell-execution error';
    await seen();
    expect(events.slice(1)).toEqual([`state ${CELL} pending->running`, `state ${CELL} running->error`]);
    expect(work.calls).toMatchObject({ querySelector: 0, querySelectorAll: 0, closest: 0, fragmentQuery: 0 });
  });

  it('a cell moved in the page (taken out and put back) is not observed again', async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const work = countWork();
    const { events } = watch();
    const cell = document.getElementById(`cell-${CELL}`)!;
    await seen();
    work.reset();
    const parent = cell.parentNode!;
    cell.remove();
    await seen();
    parent.append(cell);
    await seen();
    setRunState(cell, 'pending');
    await seen();
    expect(events).toEqual([`state ${CELL} idle->pending`]);
    expect(work.observes).toBe(0);
  });

  it('a toast shown again and again is observed once', async () => {
    mount(snippet('snackbar-message-area-idle-2026-03.html'));
    const work = countWork();
    const { events } = watch();
    const host = document.getElementById('message-area')!;
    work.reset();
    const parent = host.parentNode!;
    host.remove();
    await tick();
    parent.append(host);
    host.setAttribute('labeltext', 'Your session crashed after using all available RAM.');
    host.shadowRoot!.querySelector('.mdc-snackbar')!.classList.add('mdc-snackbar--open');
    await tick();
    expect(events).toEqual(['toast Your session crashed after using all available RAM.']);
    expect(work.observes).toBe(0);
  });

  it('no observer is called for text printed while all text is not wanted, before or after it was', async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const text = () => document.querySelector('colab-static-output-renderer pre')!.lastChild as Text;
    const work = countWork();
    const { events } = watch();
    work.reset();
    text().appendData('epoch 1\n');
    await tick();
    expect(work.callbacks).toBe(0);
    observer!.setWantAllText(true);
    observer!.setWantAllText(false);
    work.reset();
    text().appendData('epoch 2\n');
    await tick();
    expect(work.callbacks).toBe(0);
    expect(events).toEqual([]);
  });

  it('asking again for all text changes nothing: no observer made or started again', async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const work = countWork();
    const { events } = watch({ wantAllText: true });
    work.reset();
    observer!.setWantAllText(true);
    expect(work.observes).toBe(0);
    (document.querySelector('colab-static-output-renderer pre')!.lastChild as Text).appendData('x');
    await tick();
    expect(events).toEqual([`stream ${CELL} "x"`]);
    expect(work.callbacks).toBe(1);
  });

  it('a stream printing line after line: its output and its tree looked up once, not at every line', async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const text = document.querySelector('colab-static-output-renderer pre')!.lastChild as Text;
    const work = countWork();
    const { events } = watch({ wantAllText: true });
    text.appendData('epoch 1\n');
    await tick();
    work.reset();
    for (let i = 2; i <= 4; i++) {
      text.appendData(`epoch ${i}\n`);
      await tick();
    }
    expect(events).toHaveLength(4);
    expect(events[3]).toBe(`stream ${CELL} "epoch 4\\n"`);
    expect(work.calls.getRootNode).toBe(0);
    expect(work.calls.matches).toBe(0);
  });

  it("Run all clearing every cell's outputs (nodes only removed) costs no lookup", async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const work = countWork();
    const { events } = watch();
    work.reset();
    document.querySelector('colab-static-output-renderer')!.remove();
    await seen();
    expect(events).toEqual([]);
    expect(work.calls.closest).toBe(0);
  });

  it("what a cell's run adds alone, a renderer without an error or a frame, costs one look", async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const holder = document.querySelector('colab-static-output-renderer')!.parentElement!;
    holder.innerHTML = '';
    const work = countWork();
    const { events } = watch();
    await tick();
    work.reset();
    mount(
      '<colab-static-output-renderer><div><div class="stream output-id-1"><pre>epoch 1</pre></div></div>' +
        '</colab-static-output-renderer>',
      holder,
    );
    await tick();
    expect(work.calls).toMatchObject({ closest: 0, matches: 0, querySelectorAll: 0, querySelector: 1 });
    work.reset();
    mount('<iframe class="output-iframe"></iframe>', holder);
    await tick();
    expect(events).toEqual(['frame iframe']);
    expect(work.calls).toMatchObject({ closest: 0, matches: 0, querySelectorAll: 0, querySelector: 0 });
  });

  it('a title or label set elsewhere in a cell (a tooltip) reads no cell, dialog or toast', async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const work = countWork();
    const { events } = watch();
    const pre = document.querySelector('colab-static-output-renderer pre')!;
    pre.setAttribute('title', 'warm-up');
    await seen();
    work.reset();
    pre.setAttribute('title', 'Copy');
    pre.setAttribute('labeltext', 'Copy');
    await seen();
    expect(events).toEqual([]);
    expect(work.calls).toMatchObject({ closest: 0, matches: 0, querySelector: 0, getRootNode: 0 });
  });

  it('a renderer added and filled in one task: its records inside it known held without a search', async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const holder = document.querySelector('colab-static-output-renderer')!.parentElement!;
    holder.innerHTML = '';
    const work = countWork();
    const { events } = watch();
    await tick();
    work.reset();
    const [renderer] = mount('<colab-static-output-renderer></colab-static-output-renderer>', holder);
    mount('<div><div class="error output-id-1"><pre>MemoryError</pre></div></div>', renderer);
    await tick();
    expect(events).toEqual([`output ${CELL} error`]);
    expect(work.calls.contains).toBe(0);
  });

  it('the first look costs each dialog on the page three element matches, whatever else the page holds', () => {
    const matchesWith = (dialogs: number) => {
      document.body.innerHTML = '';
      mount('<mwc-dialog heading="Runtime disconnected"></mwc-dialog>'.repeat(dialogs));
      const work = countWork();
      watch();
      observer!.disconnect();
      vi.restoreAllMocks();
      vi.unstubAllGlobals();
      return work.calls.matches;
    };
    expect((matchesWith(3) - matchesWith(1)) / 2).toBe(3);
  });

  it('an MDC dialog without a dialog role, added closed, costs only its class watched: nothing read yet', async () => {
    const work = countWork();
    const { events } = watch();
    mount('<div></div>'); // the page's body looked at once, as at any change
    await tick();
    work.reset();
    const [dialog] = mount('<div class="mdc-dialog"><div class="mdc-dialog__surface">Runtime disconnected</div></div>');
    await tick();
    expect(work.observes).toBe(1);
    expect(work.calls.closest).toBe(0);
    dialog!.classList.add('mdc-dialog--open');
    await tick();
    expect(events).toEqual(['dialog disconnected']);
  });

  it('an attribute set twice in one task is read once', async () => {
    const [dialog] = mount('<mwc-dialog heading="Cannot connect to GPU backend"></mwc-dialog>');
    const work = countWork();
    const { events } = watch();
    const reopen = async (times: number) => {
      dialog!.removeAttribute('open');
      await tick();
      work.reset();
      for (let i = 0; i < times; i++) dialog!.setAttribute('open', String(i));
      await tick();
      return { ...work.calls };
    };
    await reopen(1);
    const once = await reopen(1);
    expect(await reopen(2)).toEqual(once);
    expect(events).toEqual(['dialog gpu-quota', 'dialog gpu-quota', 'dialog gpu-quota']);
  });

  it("a label set on a run button reads no toast: only a snackbar's label is a toast's", async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const work = countWork();
    const { events } = watch();
    const button = document.querySelector('colab-run-button')!;
    button.setAttribute('labeltext', 'Run cell');
    await seen();
    work.reset();
    button.setAttribute('labeltext', 'Run cell (Ctrl+Enter)');
    await seen();
    expect(events).toEqual([]);
    expect(work.calls.fragmentQuery).toBe(0);
  });
});

describe('toasts told by their attributes', () => {
  it('a snackbar opened by its attribute and labelled in the same task is reported', async () => {
    const [host] = mount('<colab-snackbar></colab-snackbar>');
    const { events } = watch();
    host!.setAttribute('open', '');
    host!.setAttribute('labeltext', 'Your session crashed after using all available RAM.');
    await tick();
    expect(events).toEqual(['toast Your session crashed after using all available RAM.']);
  });

  it('a title set later on the open toast is no new showing', async () => {
    mount(snippet('snackbar-message-area-idle-2026-03.html'));
    const { events } = watch();
    const host = document.getElementById('message-area')!;
    host.setAttribute('labeltext', 'Your session crashed after using all available RAM.');
    host.shadowRoot!.querySelector('.mdc-snackbar')!.classList.add('mdc-snackbar--open');
    await tick();
    host.setAttribute('title', 'Notification');
    await tick();
    expect(events).toEqual(['toast Your session crashed after using all available RAM.']);
  });
});
