// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mount, setRunState, snippet } from '../../test/support/colab-dom';
import { BLIND_AFTER_MS } from '../limits';
import { defaultSettings } from '../state/schema';
import { createFailureWatch, type WatchReports } from './failure-watch';

const CELL = 'T2BNeFUZ1OGZ';
/** Lets the observers' records be delivered (the clock is fake). */
const tick = () => vi.advanceTimersByTimeAsync(0);
const OOM = 'OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB';
const T0 = Date.UTC(2026, 10, 23, 22);

let lifetime: AbortController;
let events: string[];

function watch() {
  events = [];
  const reports: WatchReports = {
    failure: (verdict, source, startedAt) => events.push(`failure ${verdict.category} ${source} ${startedAt - T0}`),
    marker: (match) => events.push(`marker ${match.line}`),
    disconnect: (line) => events.push(`disconnect ${line}`),
    dialog: (kind) => events.push(`dialog ${kind}`),
    sight: (blind) => events.push(blind ? 'blind' : 'sees'),
  };
  return createFailureWatch(document, reports, lifetime.signal);
}

/** What was reported, leaving out whether it sees (that has tests of its own below). */
const reported = () => events.filter((event) => event !== 'sees' && event !== 'blind');
const cell = () => document.getElementById(`cell-${CELL}`)!;
const renderer = () => document.querySelector('colab-static-output-renderer > div')!;
const errorOutput = (text = OOM) =>
  mount(`<div class="error output-id-9 output_text"><pre>${text}</pre></div>`, renderer());

/** The run state changes `ms` after the previous step, as a kernel's messages would. */
async function state(classes: string, ms = 100) {
  await vi.advanceTimersByTimeAsync(ms);
  setRunState(cell(), classes);
  await tick();
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  vi.setSystemTime(T0);
  lifetime = new AbortController();
  mount(snippet('code-cell-with-static-output-2026-03.html'));
});

afterEach(() => {
  lifetime.abort();
  vi.useRealTimers();
  document.body.innerHTML = '';
});

describe('failure watch: the cell state triggers, the error output is the evidence', () => {
  it('an execution seen queued, then running, ending in an OOM error: one failure, dated by its queueing', async () => {
    watch();
    await state('pending');
    await state('running animating');
    errorOutput();
    await state('error');
    expect(reported()).toEqual(['failure gpu-oom error-output 100']);
  });

  it('an error output arriving after the error state (an output frame loading) still counts, once', async () => {
    const fx = watch();
    await state('running animating');
    await state('error');
    fx.frameError(cell(), OOM);
    fx.frameError(cell(), OOM);
    expect(reported()).toEqual(['failure gpu-oom error-output 100']);
  });

  it('a saved error rendered lazily (state and output at once, no run) is nothing', async () => {
    watch();
    setRunState(cell(), 'stale error');
    errorOutput();
    await tick();
    await state('error');
    expect(reported()).toEqual([]);
  });

  it('an error-looking output of a cell that goes on running, then succeeds, is nothing', async () => {
    const fx = watch();
    await state('running animating');
    errorOutput();
    fx.frameError(cell(), OOM);
    await vi.advanceTimersByTimeAsync(5000);
    await state('focused');
    expect(reported()).toEqual([]);
  });

  it('an execution ending in a stale error (ended by a restart) is nothing', async () => {
    watch();
    await state('running animating');
    errorOutput();
    await state('stale error');
    expect(reported()).toEqual([]);
  });

  it('a failure that is no OOM is nothing', async () => {
    watch();
    await state('running animating');
    errorOutput('ValueError: Expected input batch_size (32) to match target batch_size (64).');
    await state('error');
    expect(reported()).toEqual([]);
  });

  it('after a restart of its own, the executions seen before are over', async () => {
    const fx = watch();
    await state('running animating');
    fx.forgetExecutions();
    errorOutput();
    await state('error');
    expect(reported()).toEqual([]);
  });

  it("Colab's RAM crash toast: a failure dated by the earliest execution the crash may have ended", async () => {
    mount(snippet('snackbar-message-area-idle-2026-03.html'));
    watch();
    await state('running animating', 1000);
    await state('focused', 1000); // the crash ended the execution
    await vi.advanceTimersByTimeAsync(3000);
    document
      .getElementById('message-area')!
      .setAttribute('labeltext', 'Your session crashed after using all available RAM.');
    document
      .getElementById('message-area')!
      .shadowRoot!.querySelector('.mdc-snackbar')!
      .classList.add('mdc-snackbar--open');
    await tick();
    expect(reported()).toEqual(['failure colab-crash crash-toast 1000']);
  });
});

describe('failure watch: saying when it cannot see', () => {
  const setBusy = async (busy: boolean) => {
    const icon = document.querySelector('colab-connect-button')!.shadowRoot!.querySelector('#connect-icon md-icon')!;
    icon.textContent = busy ? 'more_horiz' : 'done';
    await tick();
  };

  beforeEach(() => mount(snippet('connect-button-connected-2026-03.html')));

  it('Colab busy for two minutes with no cell seen running: blind; a cell seen running: sees again', async () => {
    watch();
    await setBusy(true);
    await vi.advanceTimersByTimeAsync(BLIND_AFTER_MS - 1);
    expect(events).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(events).toEqual(['blind']);
    await vi.advanceTimersByTimeAsync(10 * BLIND_AFTER_MS);
    await state('running animating');
    await state('focused');
    await state('running animating');
    expect(events).toEqual(['blind', 'sees']);
  });

  it('says it sees once, at the first cell seen running (the record may say blind from before)', async () => {
    watch();
    await state('running animating');
    await state('focused');
    await state('running animating');
    expect(events).toEqual(['sees']);
  });

  it('is not blind while a cell is seen running, or when Colab goes idle in time', async () => {
    watch();
    await state('running animating');
    await setBusy(true);
    await vi.advanceTimersByTimeAsync(2 * BLIND_AFTER_MS);
    await state('focused');
    await vi.advanceTimersByTimeAsync(BLIND_AFTER_MS / 2);
    await setBusy(false);
    await vi.advanceTimersByTimeAsync(2 * BLIND_AFTER_MS);
    expect(events).toEqual(['sees']);
  });

  it('stops with its lifetime: no report after the guard went off', async () => {
    watch();
    await setBusy(true);
    lifetime.abort();
    await vi.advanceTimersByTimeAsync(2 * BLIND_AFTER_MS);
    await state('running animating');
    expect(events).toEqual([]);
  });
});

describe('failure watch: user patterns', () => {
  /** Resolves once the watch's own import of the engine has resolved and its continuation ran. */
  const engineLoaded = async () => {
    await import('../detector/engine');
    await tick();
  };

  it("matches the marker patterns in an output frame's text, in a cell running here", async () => {
    const w = watch();
    await state('running animating');
    w.configure({ ...defaultSettings(), markerPatterns: ['^@@RESTART@@$'] });
    await engineLoaded();
    w.frameText(cell(), 'epoch 3\n@@RESTART@@ now\n');
    expect(reported()).toEqual([]);
    w.frameText(cell(), 'epoch 3\n@@RESTART@@\n');
    expect(reported()).toEqual(['marker @@RESTART@@']);
  });

  it('keeps the newest settings when the pattern engine of older ones loads after them', async () => {
    const w = watch();
    await state('running animating');
    w.configure({ ...defaultSettings(), markerPatterns: ['^@@RESTART@@$'] });
    w.configure(defaultSettings());
    await engineLoaded();
    w.frameText(cell(), '@@RESTART@@');
    expect(reported()).toEqual([]);
  });
});
