// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunSpec } from '../../e2e/colab-sim/scenario';
import { plain, type ShellEnding, shellRun } from '../../e2e/colab-sim/texts';
import { mount, setRunState, snippet } from '../../test/support/colab-dom';
import { SETTLE_MS } from '../colab';
import type { Verdict } from '../detector';
import { LATE_OUTPUT_MS } from '../detector/execution-gate';
import { KERNEL_WATCH_AFTER_MS } from '../limits';
import { isStreamTailRequest } from '../messaging/frame-channel';
import { defaultSettings } from '../state/schema';
import { createPageWatch, type PageWatch, type WatchReports } from './page-watch';

const CELL = 'T2BNeFUZ1OGZ';
/** Lets the observers' records be delivered (the clock is fake). */
const tick = () => vi.advanceTimersByTimeAsync(0);
/** Long enough for a cell's changes that wait to be read together (a plain cell's end) to be read. */
const settled = () => vi.advanceTimersByTimeAsync(SETTLE_MS);
const OOM = 'OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB';
const T0 = Date.UTC(2026, 10, 23, 22);
/** README: "Colab shows the runtime busy for more than 2 minutes and the guard sees no cell running". */
const BLIND_AFTER_MS = 2 * 60_000;

let lifetime: AbortController;
let events: string[];
let verdicts: Verdict[];
let runs: string[];
let activity: boolean[];

function watch() {
  events = [];
  verdicts = [];
  runs = [];
  activity = [];
  const reports: WatchReports = {
    failure(verdict, source, startedAt) {
      verdicts.push(verdict);
      events.push(`failure ${verdict.category} ${source} ${startedAt - T0}`);
    },
    declined(reason, verdict, startedAt) {
      verdicts.push(verdict);
      events.push(`declined ${reason} ${verdict.category} ${startedAt - T0}`);
    },
    marker: (match) => events.push(`marker ${match.line}`),
    disconnect: (line) => events.push(`disconnect ${line}`),
    dialog: (kind) => events.push(`dialog ${kind}`),
    sight: (blind) => events.push(blind ? 'blind' : 'sees'),
    run: {
      started: () => runs.push('started'),
      ended: (end) => runs.push(end.kind === 'stopped' ? `stopped [${end.cell}] ${end.line}` : end.kind),
      busy: (underWay) => activity.push(underWay),
    },
  };
  return createPageWatch(document, reports, lifetime.signal);
}

/** What each output frame of the tests showed, as its error reports told: how many outputs, the last one when. */
let lastShown: Map<Element, { count: number; at: number; exact: boolean }>;
/** The cell's output frame (the test's first), or the cell itself standing for one. */
const frameOf = (of: Element) => of.querySelector('iframe') ?? of;

/**
 * An output frame of `of` (the test's cell) reports an error output `text`: its `index`-th output (by default the one
 * after what it showed), Colab's number `id`, seen now: as it came (`exact`), or at the frame's first look.
 */
function frameError(
  w: PageWatch,
  text: string,
  {
    of = cell(),
    frame = frameOf(of),
    index = undefined as number | undefined,
    id = null as number | null,
    exact = true,
  } = {},
) {
  const before = lastShown.get(frame)?.count ?? 0;
  const at = Date.now();
  const place = index ?? before;
  lastShown.set(frame, { count: Math.max(before, place + 1), at, exact });
  w.frameReport(of, frame, { kind: 'error-output', text, index: place, id, at, exact });
}

/**
 * An output frame answers request `id`: the end of its stream `text`, whether its last output is an error output, how
 * many it shows and when the last came (by default, as its error reports told, else one output arriving now).
 */
function frameAnswer(
  w: PageWatch,
  id: number,
  text: string,
  opts: { frame?: Element; error?: boolean; count?: number; at?: number; exact?: boolean } = {},
) {
  const frame = opts.frame ?? frameOf(cell());
  const shown = lastShown.get(frame);
  const count = opts.count ?? shown?.count ?? 1;
  const ids = Array.from({ length: count }, () => null);
  const at = opts.at ?? shown?.at ?? Date.now();
  const exact = opts.exact ?? shown?.exact ?? true;
  w.frameReport(cell(), frame, { kind: 'stream-tail', id, text, error: !!opts.error, count, ids, at, exact });
}

/** What was reported, leaving out whether it sees (that has tests of its own below). */
const reported = () => events.filter((event) => event !== 'sees' && event !== 'blind');
const cell = () => document.getElementById(`cell-${CELL}`)!;
const renderer = () => document.querySelector('colab-static-output-renderer > div')!;
const errorOutput = (text = OOM) =>
  mount(`<div class="error output-id-9 output_text"><pre>${text}</pre></div>`, renderer());

/** The cell's source as its editor shows it (Monaco: one `.view-line` a line, spaces as U+00A0); null: no lines. */
function setSource(source: string | null) {
  const editor = cell().querySelector('.monaco-editor')!;
  for (const line of editor.querySelectorAll('.view-line')) line.remove();
  for (const text of source?.split('\n') ?? []) {
    const [line] = mount('<div class="view-line"><span><span class="mtk1"></span></span></div>', editor);
    line!.querySelector('.mtk1')!.textContent = text.replaceAll(' ', '\u00a0');
  }
}

/** Another cell of the same capture after the first, with the id `id`. */
function mountCellLike(id: string): Element {
  const tpl = document.createElement('template');
  tpl.innerHTML = snippet('code-cell-with-static-output-2026-03.html');
  const html = tpl.content.getElementById(`cell-${CELL}`)!.outerHTML.replaceAll(CELL, id);
  return mount(html, cell().parentElement!)[0]!;
}

/** How many times the connect button's shadow root has been observed since (the spy is restored after each test). */
function countConnectObserved(): () => number {
  const observed = vi.spyOn(MutationObserver.prototype, 'observe');
  const connectRoot = document.querySelector('colab-connect-button')!.shadowRoot;
  return () => observed.mock.calls.filter(([target]) => target === connectRoot).length;
}

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
  lastShown = new Map();
  mount(snippet('code-cell-with-static-output-2026-03.html'));
});

afterEach(() => {
  vi.restoreAllMocks();
  lifetime.abort();
  vi.useRealTimers();
  document.body.innerHTML = '';
});

describe('page watch: the cell state triggers, the error output is the evidence', () => {
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
    frameError(fx, OOM);
    frameError(fx, OOM);
    expect(reported()).toEqual(['failure gpu-oom error-output 100']);
  });

  it("an output frame's error: judged the moment its cell ends, or at once if its end waits to be read", async () => {
    const fx = watch();
    await state('pending');
    await state('running animating');
    frameError(fx, OOM);
    // The cell's end is read the moment it comes, not with others SETTLE_MS later.
    await state('error');
    expect(reported()).toEqual(['failure gpu-oom error-output 100']);
    await state('pending', SETTLE_MS);
    await state('running animating');
    await state('error'); // waits to be read with others
    expect(reported()).toEqual(['failure gpu-oom error-output 100']);
    frameError(fx, OOM);
    expect(reported()).toEqual(['failure gpu-oom error-output 100', `failure gpu-oom error-output ${300 + SETTLE_MS}`]);
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
    frameError(fx, OOM);
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

  it('after a restart of its own, changes that waited to be read belong to the executions before it', async () => {
    const fx = watch();
    await state('pending');
    await state('running animating'); // waits to be read with others
    fx.forgetExecutions();
    errorOutput();
    await state('error');
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
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

describe('page watch: saying when it cannot see', () => {
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

  it('counts the two minutes from the runtime going busy again after a moment idle', async () => {
    watch();
    await setBusy(true);
    await vi.advanceTimersByTimeAsync(BLIND_AFTER_MS / 2);
    await setBusy(false);
    await vi.advanceTimersByTimeAsync(1000);
    await setBusy(true); // busy again: two minutes from here
    await vi.advanceTimersByTimeAsync(BLIND_AFTER_MS - 1);
    expect(events).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(events).toEqual(['blind']);
  });

  it('is not blind when the runtime went idle before the two minutes were over', async () => {
    watch();
    await setBusy(true);
    await vi.advanceTimersByTimeAsync(BLIND_AFTER_MS / 2);
    await setBusy(false);
    await vi.advanceTimersByTimeAsync(10 * BLIND_AFTER_MS);
    expect(events).toEqual([]);
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

  it('counts the two minutes from the last cell seen running, not from the first gap between cells', async () => {
    watch();
    await setBusy(true);
    await state('running animating');
    await state('focused'); // between two cells: busy, none running
    await state('running animating', BLIND_AFTER_MS / 2);
    await state('focused', 100); // the last gap: two minutes from here
    await vi.advanceTimersByTimeAsync(BLIND_AFTER_MS / 2 + 100); // two minutes after the first gap
    expect(events).toEqual(['sees']);
    await vi.advanceTimersByTimeAsync(BLIND_AFTER_MS / 2 - 101);
    expect(events).toEqual(['sees']);
    await vi.advanceTimersByTimeAsync(1);
    expect(events).toEqual(['sees', 'blind']);
  });

  it('watches the connect button anew in each stretch: a change in a later one counts from that change', async () => {
    watch();
    await setBusy(true);
    await vi.advanceTimersByTimeAsync(BLIND_AFTER_MS / 4); // watched since the first second
    await state('running animating');
    await state('focused', 1000); // a second stretch, watched from its first second on
    const stretch = Date.now();
    await vi.advanceTimersByTimeAsync(BLIND_AFTER_MS / 2);
    await setBusy(false);
    await setBusy(true); // busy again: two minutes from here, later than two minutes from either stretch's start
    const busyAgain = Date.now();
    await vi.advanceTimersByTimeAsync(stretch + BLIND_AFTER_MS - Date.now() + 1000);
    expect(events).toEqual(['sees']);
    await vi.advanceTimersByTimeAsync(busyAgain + BLIND_AFTER_MS - Date.now() - 1);
    expect(events).toEqual(['sees']);
    await vi.advanceTimersByTimeAsync(1);
    expect(events).toEqual(['sees', 'blind']);
  });

  it('does not watch the connect button while a cell runs, nor in the first moment between two cells', async () => {
    const connectObserved = countConnectObserved();
    watch();
    await state('running animating');
    await state('focused');
    await state('running animating', KERNEL_WATCH_AFTER_MS - 200);
    await vi.advanceTimersByTimeAsync(10 * KERNEL_WATCH_AFTER_MS);
    expect(connectObserved()).toBe(0);
    await state('focused');
    // Watched once its end, read with others, shows a stretch that has lasted long enough.
    await vi.advanceTimersByTimeAsync(SETTLE_MS + KERNEL_WATCH_AFTER_MS);
    expect(connectObserved()).toBe(1);
  });

  it("reads what waits before watching the connect button: the next cell's start, read late, ends it", async () => {
    const connectObserved = countConnectObserved();
    const next = mountCellLike('Nx2cQ8vRk1Ab');
    watch();
    // A Run all queues both; the first runs and ends just before its changes are read together.
    setRunState(next, 'pending');
    await state('pending');
    await state('running animating');
    await state('focused', SETTLE_MS - 10);
    await vi.advanceTimersByTimeAsync(10);
    // The next starts a moment later, in the next read: a second after the first's end comes before that read.
    await vi.advanceTimersByTimeAsync(10);
    setRunState(next, 'running animating');
    await vi.advanceTimersByTimeAsync(3 * KERNEL_WATCH_AFTER_MS);
    expect(connectObserved()).toBe(0);
    setRunState(next, 'focused');
    await vi.advanceTimersByTimeAsync(SETTLE_MS + KERNEL_WATCH_AFTER_MS);
    expect(connectObserved()).toBe(1);
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

describe('page watch: user patterns', () => {
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
    w.frameReport(cell(), cell(), { kind: 'output-text', text: 'epoch 3\n@@RESTART@@ now\n' });
    expect(reported()).toEqual([]);
    w.frameReport(cell(), cell(), { kind: 'output-text', text: 'epoch 3\n@@RESTART@@\n' });
    expect(reported()).toEqual(['marker @@RESTART@@']);
  });

  it('keeps the newest settings when the pattern engine of older ones loads after them', async () => {
    const w = watch();
    await state('running animating');
    w.configure({ ...defaultSettings(), markerPatterns: ['^@@RESTART@@$'] });
    w.configure(defaultSettings());
    await engineLoaded();
    w.frameReport(cell(), cell(), { kind: 'output-text', text: '@@RESTART@@' });
    expect(reported()).toEqual([]);
  });
});

/** What a shell cell printed, as Colab's static renderer shows it: consecutive outputs of one stream merge. */
function print(text: string, name: 'stdout' | 'stderr' = 'stdout', into: Element = renderer()) {
  const last = into.lastElementChild;
  if (last?.getAttribute('data-name') === name) {
    last.querySelector('pre')!.append(text);
    return;
  }
  const output = document.createElement('div');
  output.className = `stream output-id-${into.children.length + 1} output_text`;
  output.setAttribute('data-name', name);
  output.append(Object.assign(document.createElement('pre'), { textContent: text }));
  into.append(output);
}

/** An error output with its text as the renderer shows it (tracebacks hold `<cell line: 0>`: no HTML parsing). */
function errorOutputText(text: string, into: Element = renderer()) {
  const output = document.createElement('div');
  output.className = `error output-id-${into.children.length + 1} output_text`;
  output.append(Object.assign(document.createElement('pre'), { textContent: text }));
  into.append(output);
}

/** The streams of a ready-made shell run (e2e/colab-sim/texts.ts), and its error output's text if it has one. */
function shellOutputs(ending: ShellEnding): { streams: Array<[string, 'stdout' | 'stderr']>; error: string | null } {
  const run: RunSpec = shellRun(ending);
  const streams = (run.outputs ?? []).flatMap((out) =>
    out.type === 'stream' ? [[out.text, out.name ?? 'stdout'] as [string, 'stdout' | 'stderr']] : [],
  );
  const traceback = typeof run.fail === 'object' ? run.fail.traceback : undefined;
  return { streams, error: traceback ? plain([traceback].flat().join('\n')) : null };
}

/**
 * A shell cell's run in the main document: queued, running, its output, then the state it ends in. `whenQueued`: what
 * happens to the cell between its queueing and its start (its source edited).
 */
async function shellCell(ending: ShellEnding, end: 'focused' | 'error' = 'focused', whenQueued = () => {}) {
  const { streams, error } = shellOutputs(ending);
  await state('pending');
  renderer().replaceChildren(); // the run cleared the cell's old output
  whenQueued();
  await state('running animating');
  for (const [text, name] of streams) print(text, name);
  if (error !== null) errorOutputText(error);
  await state(end);
}

describe('page watch: a process started from a shell cell, its stream in the main document', () => {
  beforeEach(() => setSource('!accelerate launch --mixed_precision fp16 train.py'));

  it('`!accelerate launch` dying of CUDA OOM, the cell ending with no error: one failure, its line shown', async () => {
    watch();
    await shellCell('accelerate-oom');
    expect(reported()).toEqual(['failure gpu-oom error-output 100']);
    expect(verdicts[0]).toMatchObject({ rule: 'shell:torch-cuda-oom' });
    expect(verdicts[0]?.line).toMatch(/^torch\.OutOfMemoryError: CUDA out of memory\./);
  });

  it("`%%bash` whose script died of CUDA OOM, the cell's error a CalledProcessError: one failure", async () => {
    watch();
    await shellCell('bash-oom', 'error');
    expect(reported()).toEqual(['failure gpu-oom error-output 100']);
  });

  it('`!python train.py` ending `Killed` (the kernel OOM killer): a host-RAM failure quoting the line', async () => {
    watch();
    await shellCell('python-killed');
    expect(reported()).toEqual(['failure host-ram error-output 100']);
    expect(verdicts[0]?.line).toBe('/bin/bash: line 1:  2292 Killed                  python3 train.py');
  });

  it('a Python cell that caught the OOM and printed its traceback last, ending normally: nothing', async () => {
    setSource('try:\n    train()\nexcept torch.OutOfMemoryError:\n    traceback.print_exc()');
    watch();
    await shellCell('accelerate-oom');
    expect(reported()).toEqual([]);
  });

  it('a cell whose editor never shows its lines is no launcher: its dying stream is noted, not acted on', async () => {
    setSource(null);
    watch();
    await shellCell('python-killed');
    // Not known as a launcher's when it started: its end is read with others.
    expect(reported()).toEqual([]);
    await settled();
    expect(reported()).toEqual(['declined source-unreadable host-ram 100']);
  });

  it('reads the source as queued: a command typed into the queued cell does not count', async () => {
    setSource('train()');
    watch();
    await shellCell('python-killed', 'focused', () => setSource('!python train.py'));
    await settled();
    expect(reported()).toEqual([]);
    // Its next execution runs the command.
    await shellCell('python-killed');
    expect(reported()).toEqual([`failure host-ram error-output ${400 + SETTLE_MS}`]);
  });

  it('a source not readable when the execution started (no lines yet) is read at its end', async () => {
    setSource(null);
    watch();
    await shellCell('python-killed', 'focused', () => setSource('!python train.py'));
    await settled();
    expect(reported()).toEqual(['failure host-ram error-output 100']);
  });

  it('a run that logged an OOM traceback and went on to finish: nothing', async () => {
    watch();
    await shellCell('logged-oom-finished');
    expect(reported()).toEqual([]);
  });

  it('a cell still running, an OOM traceback printed last: nothing; it goes on and finishes: nothing', async () => {
    const { streams } = shellOutputs('accelerate-oom');
    watch();
    await state('running animating');
    for (const [text, name] of streams.slice(0, 2)) print(text, name);
    await vi.advanceTimersByTimeAsync(LATE_OUTPUT_MS * 10);
    expect(reported()).toEqual([]);
    print('skipping the batch\nepoch 1/3: step 300/2300 loss=0.6904\n');
    await state('focused');
    expect(reported()).toEqual([]);
  });

  it('a cell ending in an error other than CalledProcessError: its stream is no shell failure', async () => {
    watch();
    await state('running animating');
    for (const [text, name] of shellOutputs('accelerate-oom').streams) print(text, name);
    errorOutputText('ValueError: Expected input batch_size (32) to match target batch_size (64).');
    await state('error');
    expect(reported()).toEqual([]);
  });

  it('an OOM error output and an OOM at the end of the stream: one failure', async () => {
    watch();
    await state('running animating');
    for (const [text, name] of shellOutputs('accelerate-oom').streams) print(text, name);
    errorOutput();
    await state('error');
    expect(reported()).toEqual(['failure gpu-oom error-output 100']);
  });

  it('an execution a restart ended (stale), or one of an earlier page (never seen running): nothing', async () => {
    watch();
    await state('running animating');
    for (const [text, name] of shellOutputs('python-killed').streams) print(text, name);
    await state('stale error');
    setRunState(cell(), 'focused');
    await tick();
    expect(reported()).toEqual([]);
  });

  it('with the category switched off: nothing', async () => {
    const w = watch();
    w.configure({ ...defaultSettings(), categories: { ...defaultSettings().categories, 'gpu-oom': false } });
    await tick();
    await shellCell('accelerate-oom');
    expect(reported()).toEqual([]);
  });
});

const FRAME_SRC = 'https://abc123-0-colab.googleusercontent.com/outputframe.html?vrz=colab_20260325';

/**
 * An output frame in the cell's output area (happy-dom does not load it), with what was posted to it. One still
 * `loading` holds a blank document whose location the parent can read, until `loaded()`.
 */
function addFrame(src = FRAME_SRC, { loading = false } = {}) {
  const posted: Array<{ data: unknown; origin: string }> = [];
  let blank = loading;
  const iframe = document.createElement('iframe');
  Object.defineProperty(iframe, 'contentWindow', {
    value: {
      postMessage: (data: unknown, origin: string) => posted.push({ data, origin }),
      get location() {
        if (!blank) throw new DOMException('Blocked a frame from accessing a cross-origin frame.', 'SecurityError');
        return { href: 'about:blank' };
      },
    },
  });
  cell().querySelector('.output-iframe-sizer')!.append(iframe);
  // Once attached, and not as an attribute: happy-dom would try to load it.
  Object.defineProperty(iframe, 'src', { value: src });
  const loaded = () => {
    blank = false;
    iframe.dispatchEvent(new Event('load'));
  };
  return { posted, loaded, frame: iframe };
}

/**
 * An output frame made for the OOM: it shows it once loaded, 300 ms later (not as it came), the page printing
 * `meanwhile` first; then the cell's error, and the frame's answer, its last output the OOM.
 */
async function oomInNewFrame(w: PageWatch, meanwhile?: string) {
  const { posted } = addFrame();
  await tick();
  await vi.advanceTimersByTimeAsync(300);
  if (meanwhile) print(meanwhile);
  frameError(w, OOM, { exact: false });
  await state('error');
  frameAnswer(w, requests(posted)[0]!, '', { error: true });
}

/** The ids of the stream-tail requests posted to a frame. */
const requests = (posted: Array<{ data: unknown }>) =>
  posted.map(({ data }) => (isStreamTailRequest(data) ? data.id : null));

describe('page watch: a shell cell whose stream is in its output frame', () => {
  beforeEach(() => setSource('%%bash\npython train.py'));

  const streamText = (ending: ShellEnding) =>
    shellOutputs(ending)
      .streams.map(([text]) => text)
      .join('');

  it("asks each of the cell's frames once, when the execution ends, and judges their answers", async () => {
    const w = watch();
    const { posted } = addFrame();
    await state('running animating');
    expect(posted).toEqual([]);
    await state('focused');
    expect(posted).toHaveLength(1);
    // No secret in the request (scripts in the frame see it); sent to the frame's origin only.
    expect(posted[0]).toEqual({
      data: { channel: 'colab-oom-guard/output-frame', ask: 'stream-tail', id: requests(posted)[0] },
      origin: 'https://abc123-0-colab.googleusercontent.com',
    });
    expect(reported()).toEqual([]);
    frameAnswer(w, requests(posted)[0]!, streamText('accelerate-oom'), { error: false });
    frameAnswer(w, requests(posted)[0]!, streamText('accelerate-oom'), { error: false });
    expect(reported()).toEqual(['failure gpu-oom error-output 100']);
  });

  it('waits for every frame; an answer to another request counts for nothing', async () => {
    const w = watch();
    const [first, second] = [addFrame().posted, addFrame().posted];
    await state('running animating');
    await state('focused');
    const [a, b] = [requests(first!)[0]!, requests(second!)[0]!];
    expect(a).not.toBe(b);
    frameAnswer(w, b + 100, '', { error: false });
    frameAnswer(w, a, streamText('python-killed'), { error: false });
    expect(reported()).toEqual([]);
    frameAnswer(w, b, '', { error: false });
    expect(reported()).toEqual(['failure host-ram error-output 100']);
  });

  it('reads frames after the main document: progress in the frame after a logged OOM is a run going on', async () => {
    const w = watch();
    const { posted } = addFrame();
    await state('pending');
    renderer().replaceChildren();
    await state('running animating');
    print(shellOutputs('accelerate-oom').streams[1]![0]);
    await state('focused');
    frameAnswer(w, requests(posted)[0]!, 'epoch 1/3: step 300/2300 loss=0.6904\nTraining complete.\n');
    expect(reported()).toEqual([]);
  });

  it("does not ask, nor wait for, an iframe that is not one of Colab's output frames", async () => {
    watch();
    const other = addFrame('https://www.youtube.com/embed/abc').posted;
    await state('pending');
    renderer().replaceChildren();
    await state('running animating');
    for (const [text, name] of shellOutputs('accelerate-oom').streams) print(text, name);
    await state('focused');
    expect(other).toEqual([]);
    expect(reported()).toEqual(['failure gpu-oom error-output 100']);
  });

  it('`%%bash`: waits for its CalledProcessError arriving late from a frame, judges the stream with it', async () => {
    const w = watch();
    const { posted } = addFrame();
    const { error } = shellOutputs('bash-oom');
    await state('running animating');
    await state('error');
    frameAnswer(w, requests(posted)[0]!, streamText('bash-oom'), { error: true });
    expect(reported()).toEqual([]);
    await vi.advanceTimersByTimeAsync(2000);
    frameError(w, error!);
    expect(reported()).toEqual(['failure gpu-oom error-output 100']);
  });

  it('asks a frame still loading when it has loaded (created as the cell stopped, for its error)', async () => {
    const w = watch();
    await state('running animating');
    const { posted, loaded } = addFrame(FRAME_SRC, { loading: true });
    await state('error');
    expect(posted).toEqual([]);
    loaded();
    expect(requests(posted)).toHaveLength(1);
    frameError(w, shellOutputs('bash-oom').error!);
    frameAnswer(w, requests(posted)[0]!, streamText('bash-oom'), { error: true });
    expect(reported()).toEqual(['failure gpu-oom error-output 100']);
  });

  it('asks nothing more once the guard went off, nor once the cell runs again', async () => {
    watch();
    await state('running animating');
    const first = addFrame(FRAME_SRC, { loading: true });
    await state('focused');
    await state('running animating');
    first.loaded();
    expect(first.posted).toEqual([]);
    const second = addFrame(FRAME_SRC, { loading: true });
    await state('focused');
    expect(requests(first.posted)).toHaveLength(1); // this end's request; the second frame is still loading
    lifetime.abort();
    second.loaded();
    expect(second.posted).toEqual([]);
  });

  it('an answer too late, or after the cell ran again or the page restarted it, counts for nothing', async () => {
    const w = watch();
    const { posted } = addFrame();
    await state('running animating');
    await state('focused');
    await vi.advanceTimersByTimeAsync(LATE_OUTPUT_MS + 1);
    frameAnswer(w, requests(posted).at(-1)!, streamText('accelerate-oom'), { error: false });

    await state('running animating');
    await state('focused');
    await state('running animating');
    frameAnswer(w, requests(posted).at(-1)!, streamText('accelerate-oom'), { error: false });

    await state('focused');
    w.forgetExecutions();
    frameAnswer(w, requests(posted).at(-1)!, streamText('accelerate-oom'), { error: false });
    expect(requests(posted)).toHaveLength(3);
    expect(reported()).toEqual([]);
  });
});

/** IPython's rendering of a Stop (Runtime → Interrupt execution, the cell's stop button). */
const INTERRUPT = [
  '---------------------------------------------------------------------------',
  'KeyboardInterrupt                         Traceback (most recent call last)',
  '/tmp/ipython-input-8-3362254981.py in <cell line: 0>()',
  '----> 2     time.sleep(1)',
  'KeyboardInterrupt: ',
].join('\n');

describe('page watch: the error output that ended the run decides, never an earlier one', () => {
  beforeEach(() => setSource('for batch in loader:\n    train_step(batch)'));

  it('a caught OOM shown mid-run, the run goes on printing, then Stop: no failure; the history says why', async () => {
    watch();
    await state('pending');
    renderer().replaceChildren();
    await state('running animating');
    errorOutputText(OOM); // showtraceback() after catching it
    print('retrying with batch_size=32\nepoch 1/3: loss=0.4817\n');
    await vi.advanceTimersByTimeAsync(60_000);
    errorOutputText(INTERRUPT);
    await state('error');
    expect(reported()).toEqual(['declined earlier-error gpu-oom 100']);
  });

  it('the same, the OOM in an output frame and the Stop arriving late from it: nothing acts in between', async () => {
    const w = watch();
    const { posted } = addFrame();
    await state('pending');
    renderer().replaceChildren();
    await state('running animating');
    frameError(w, OOM);
    print('retrying with batch_size=32\n');
    await vi.advanceTimersByTimeAsync(3000);
    await state('error');
    expect(reported()).toEqual([]);
    await vi.advanceTimersByTimeAsync(400);
    frameError(w, INTERRUPT);
    expect(reported()).toEqual([]);
    frameAnswer(w, requests(posted)[0]!, '', { error: true });
    expect(reported()).toEqual(['declined earlier-error gpu-oom 100']);
  });

  it('the Stop late from a frame after the frame said how it ends, the run having printed in the page', async () => {
    const w = watch();
    const { posted } = addFrame();
    await state('running animating');
    frameError(w, OOM);
    print('retrying with batch_size=32\n');
    await state('error');
    // The frame answers before showing the interrupt: its last output is still the OOM.
    frameAnswer(w, requests(posted)[0]!, '', { error: true });
    expect(reported()).toEqual([]);
    await vi.advanceTimersByTimeAsync(2000);
    frameError(w, INTERRUPT);
    expect(reported()).toEqual(['declined earlier-error gpu-oom 100']);
  });

  it("a frame made for the OOM shows it after the page's print (loading); the Stop ends it", async () => {
    const w = watch();
    await state('pending');
    // Its start to run waits to be read with others: the page still reads it as queued when the frame comes.
    await state('running animating');
    // The frame is made when the OOM is sent to it; it loads while the run prints on in the page.
    await oomInNewFrame(w, 'retrying with batch_size=32\n');
    expect(reported()).toEqual([]);
    await vi.advanceTimersByTimeAsync(2000);
    frameError(w, INTERRUPT);
    expect(reported()).toEqual(['declined earlier-error gpu-oom 100']);
  });

  it('a frame made for the OOM, the page quiet since it was made: the OOM ended the run, one failure', async () => {
    const w = watch();
    await state('running animating');
    print('epoch 1/3: loss=0.9\n');
    await vi.advanceTimersByTimeAsync(5000);
    await oomInNewFrame(w);
    expect(reported()).toEqual(['failure gpu-oom error-output 100']);
  });

  it('the same, the page printing while the frame loaded, nothing else telling the order: noted, unclear', async () => {
    const w = watch();
    await state('running animating');
    await oomInNewFrame(w, 'retrying with batch_size=32\n');
    expect(reported()).toEqual([]);
    await vi.advanceTimersByTimeAsync(LATE_OUTPUT_MS + 1);
    expect(reported()).toEqual(['declined ending-unclear gpu-oom 100']);
  });

  it("Colab's numbers order them: the page's print numbered before the OOM, one failure", async () => {
    const w = watch();
    await state('running animating');
    const { posted } = addFrame();
    await tick();
    await vi.advanceTimersByTimeAsync(300);
    renderer().replaceChildren();
    // output-id-1 in the page, the OOM output-id-2 in the frame: one count across the output area.
    print('epoch 1/3: loss=0.9\n');
    frameError(w, OOM, { exact: false, id: 2 });
    await state('error');
    frameAnswer(w, requests(posted)[0]!, '', { error: true });
    expect(reported()).toEqual(['failure gpu-oom error-output 100']);
  });

  it("the status helper's frame, made seconds before the log, shows the OOM as it comes: one failure", async () => {
    const w = watch();
    await state('running animating');
    // `colab_oom_guard.status()` runs its script in the cell's frame first: the frame shows nothing.
    const { posted } = addFrame();
    await tick();
    await vi.advanceTimersByTimeAsync(2000);
    print('epoch 1/3: step 100/2300 loss=0.9121\n');
    await vi.advanceTimersByTimeAsync(1000);
    frameError(w, OOM);
    await state('error');
    frameAnswer(w, requests(posted)[0]!, '', { error: true });
    expect(reported()).toEqual(['failure gpu-oom error-output 100']);
  });

  it("an OOM that is an old frame's first output again (cleared since) is read where it arrived", async () => {
    const w = watch();
    await state('running animating');
    const { posted } = addFrame();
    await tick();
    await vi.advanceTimersByTimeAsync(LATE_OUTPUT_MS + 1000);
    print('epoch 5/5: loss=0.2\n');
    frameError(w, OOM);
    await state('error');
    frameAnswer(w, requests(posted)[0]!, '', { error: true });
    expect(reported()).toEqual([`failure gpu-oom error-output 100`]);
  });

  it('a traceback in the page after a plot in the frame, the frame answering after it: one failure', async () => {
    const w = watch();
    const { posted } = addFrame();
    await state('running animating');
    // The plot came long before; the frame's answer comes after the traceback, its one output still the plot.
    const plotAt = Date.now();
    await vi.advanceTimersByTimeAsync(60_000);
    print('epoch 3/3: loss=0.4\n');
    errorOutputText(OOM);
    await state('error');
    expect(reported()).toEqual([]);
    await vi.advanceTimersByTimeAsync(300);
    frameAnswer(w, requests(posted)[0]!, '', { count: 1, at: plotAt });
    expect(reported()).toEqual(['failure gpu-oom error-output 100']);
  });

  it('a script in the output adds an OOM-looking error output right after the ValueError: noted, unclear', async () => {
    const w = watch();
    const { posted } = addFrame();
    await state('running animating');
    await vi.advanceTimersByTimeAsync(5000);
    frameError(w, 'Traceback (most recent call last):\nValueError: bad batch');
    // A line between them changes nothing: the script can add that too.
    frameError(w, OOM, { index: 2 });
    await state('error');
    frameAnswer(w, requests(posted)[0]!, '', { error: true });
    expect(reported()).toEqual(['declined ending-unclear gpu-oom 100']);
  });

  it('output after the OOM in the frame itself: the frame says its last output is no error', async () => {
    const w = watch();
    const { posted } = addFrame();
    await state('running animating');
    frameError(w, OOM);
    await state('error');
    frameAnswer(w, requests(posted)[0]!, 'retrying with batch_size=32\n', { count: 2, at: Date.now() });
    expect(reported()).toEqual([]);
    await vi.advanceTimersByTimeAsync(LATE_OUTPUT_MS + 1);
    expect(reported()).toEqual(['declined ending-missing gpu-oom 100']);
  });

  it('an ending that never arrives: nothing restarts, and the history says the ending never came', async () => {
    const w = watch();
    await state('running animating');
    frameError(w, OOM);
    print('retrying with batch_size=32\n');
    await state('error');
    await vi.advanceTimersByTimeAsync(LATE_OUTPUT_MS);
    expect(reported()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(reported()).toEqual(['declined ending-missing gpu-oom 100']);
    frameError(w, INTERRUPT);
    expect(reported()).toEqual(['declined ending-missing gpu-oom 100']);
  });

  it('a caught OOM shown long before a quiet end is not its ending either', async () => {
    const w = watch();
    await state('running animating');
    frameError(w, OOM);
    await vi.advanceTimersByTimeAsync(LATE_OUTPUT_MS + 5000);
    await state('error');
    await vi.advanceTimersByTimeAsync(LATE_OUTPUT_MS + 1);
    expect(reported()).toEqual(['declined ending-missing gpu-oom 100']);
  });

  it('a page error output with another output after it is not the ending', async () => {
    watch();
    await state('running animating');
    errorOutputText(OOM);
    errorOutputText('ValueError: the run went on, and failed otherwise');
    await state('error');
    expect(reported()).toEqual(['declined earlier-error gpu-oom 100']);
  });

  it('Stop while the code handled an OOM (one chained traceback ending in KeyboardInterrupt): no failure', async () => {
    watch();
    await state('running animating');
    errorOutputText(`${OOM}\n\nDuring handling of the above exception, another exception occurred:\n\n${INTERRUPT}`);
    await state('error');
    expect(reported()).toEqual([]);
  });

  it('the uncaught OOM that ended the run, from a frame that says so: one failure', async () => {
    const w = watch();
    const { posted } = addFrame();
    await state('running animating');
    print('epoch 1/3: loss=0.9\n');
    await state('error');
    frameError(w, OOM);
    expect(reported()).toEqual([]);
    frameAnswer(w, requests(posted)[0]!, '', { error: true });
    expect(reported()).toEqual(['failure gpu-oom error-output 100']);
  });

  it('a launched program killed by SIGKILL, as the error output of a subprocess call: a host-RAM failure', async () => {
    setSource("subprocess.run(['python3', 'train.py'], check=True)");
    watch();
    await state('running animating');
    errorOutputText(
      'CalledProcessError                        Traceback (most recent call last)\n' +
        '<ipython-input-3> in <cell line: 0>()\n' +
        "CalledProcessError: Command '['python3', 'train.py']' died with <Signals.SIGKILL: 9>.",
    );
    await state('error');
    expect(reported()).toEqual(['failure host-ram error-output 100']);
    expect(verdicts[0]).toMatchObject({ rule: 'child-killed' });
  });
});

describe('page watch: only a cell that launches a program has its stream end judged', () => {
  it('`!tail -n 40 train.log` printing an old OOM traceback: nothing, and nothing noted', async () => {
    setSource('!tail -n 40 train.log');
    watch();
    await shellCell('accelerate-oom');
    await settled();
    expect(reported()).toEqual([]);
  });

  it('`%%bash` reading logs with grep and cat: nothing', async () => {
    setSource('%%bash\ngrep -B20 OutOfMemoryError train.log | tail -n 40\ncat nohup.out');
    watch();
    await shellCell('python-killed');
    await settled();
    expect(reported()).toEqual([]);
  });

  it('a source unreadable at the end is read again when the frames have answered', async () => {
    setSource(null);
    const w = watch();
    const { posted } = addFrame();
    await state('running animating');
    await state('focused');
    await settled(); // not known as a launcher's when it started: its end is read with others
    setSource('!python train.py');
    const stream = shellOutputs('python-killed').streams.map(([t]) => t);
    frameAnswer(w, requests(posted)[0]!, stream.join(''));
    expect(reported()).toEqual(['failure host-ram error-output 100']);
  });

  it("a W&B summary after the child's traceback: the traceback still ends the stream", async () => {
    setSource('!accelerate launch train.py');
    watch();
    await state('running animating');
    print(shellOutputs('accelerate-oom').streams[1]![0]);
    print('wandb: Waiting for W&B process to finish... (failed 1).\nwandb: \nwandb: Run summary:\nwandb:   loss 0.4\n');
    print('wandb: 🚀 View run glorious-sun-12 at: https://wandb.ai/me/llm/runs/3f9x2k1a\n');
    await state('focused');
    expect(reported()).toEqual(['failure gpu-oom error-output 100']);
  });
});

describe('page watch: a crash notice needs a run this page saw', () => {
  const showCrash = async () => {
    document
      .getElementById('message-area')!
      .setAttribute('labeltext', 'Your session crashed after using all available RAM.');
    document
      .getElementById('message-area')!
      .shadowRoot!.querySelector('.mdc-snackbar')!
      .classList.add('mdc-snackbar--open');
    await tick();
  };

  beforeEach(() => mount(snippet('snackbar-message-area-idle-2026-03.html')));

  it('with nothing seen queued or running (a notebook opened after the crash): noted, not acted on', async () => {
    watch();
    await vi.advanceTimersByTimeAsync(5000);
    await showCrash();
    expect(reported()).toEqual(['declined crash-without-run colab-crash 5000']);
  });

  it('with a run seen since the page began watching: a failure', async () => {
    watch();
    await state('running animating');
    await state('focused');
    await showCrash();
    expect(reported()).toEqual(['failure colab-crash crash-toast 100']);
  });

  it('after a restart of its own, only a run seen since counts', async () => {
    const w = watch();
    await state('running animating');
    await state('focused');
    w.forgetExecutions();
    await showCrash();
    expect(reported()).toEqual([expect.stringMatching(/^declined crash-without-run colab-crash /)]);
  });

  /** An OOM ends the run at 300 (queued at 100); the run after another tab's restart is queued at 5000. */
  async function oomThenRunAgain(w: ReturnType<typeof watch>, restart: 'after-report' | 'no-report') {
    await state('pending');
    await state('running animating');
    if (restart === 'after-report') errorOutput();
    await state(restart === 'after-report' ? 'error' : 'focused');
    w.restartedAt(T0 + 4000);
    await vi.advanceTimersByTimeAsync(4700);
    setRunState(cell(), 'running animating');
    await tick();
  }

  it("after another tab's restart for a failure seen here, a crash is dated by the run since it", async () => {
    const w = watch();
    await oomThenRunAgain(w, 'after-report');
    await state('focused');
    await showCrash();
    expect(reported()).toEqual(['failure gpu-oom error-output 100', 'failure colab-crash crash-toast 5000']);
  });

  it("another tab's restart for a crash not shown here yet: its late notice is still the ended run's", async () => {
    const w = watch();
    await oomThenRunAgain(w, 'no-report');
    await showCrash();
    expect(reported()).toEqual(['failure colab-crash crash-toast 100']);
  });
});

describe('page watch: how a run ends', () => {
  const second = () => document.getElementById('cell-second')!;
  /** Both cells queued at once (a Run all), then run one after the other; the second ends in `end`. */
  async function runBoth(end: 'stale' | 'stale error' | 'error') {
    mountCellLike('second');
    const fx = watch();
    await vi.advanceTimersByTimeAsync(100);
    setRunState(cell(), 'pending');
    setRunState(second(), 'pending');
    await tick();
    await state('running animating');
    await state('stale');
    await vi.advanceTimersByTimeAsync(100);
    setRunState(second(), 'running animating');
    await tick();
    await vi.advanceTimersByTimeAsync(100);
    second().querySelector('colab-run-button')!.shadowRoot!.querySelector('.execution-count')!.textContent = '[7]';
    setRunState(second(), end);
    await tick();
    return fx;
  }

  it('the last cell of a Run all completing: the run finished', async () => {
    await runBoth('stale');
    await settled();
    expect(runs).toEqual(['started', 'finished']);
    expect(reported()).toEqual([]);
  });

  it('an error that is not out of memory stops it: the cell and the exception line, told once judged', async () => {
    const fx = await runBoth('error');
    expect(runs).toEqual(['started']);
    frameError(fx, 'Traceback (most recent call last):\n  File "<cell>", line 3\nValueError: bad shape\n', {
      of: second(),
    });
    await vi.advanceTimersByTimeAsync(LATE_OUTPUT_MS + SETTLE_MS);
    expect(runs).toEqual(['started', 'stopped [7] ValueError: bad shape']);
    expect(reported()).toEqual([]);
  });

  it("the person's Stop ends it as theirs, and an out-of-memory end is the guard's own: no stop told", async () => {
    const fx = await runBoth('error');
    frameError(fx, 'Traceback\nKeyboardInterrupt: ', { of: second() });
    await vi.advanceTimersByTimeAsync(LATE_OUTPUT_MS + SETTLE_MS);
    expect(runs).toEqual(['started', 'interrupted']);

    lifetime.abort();
    lifetime = new AbortController();
    document.body.innerHTML = '';
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const oom = await runBoth('error');
    frameError(oom, OOM, { of: second() });
    await vi.advanceTimersByTimeAsync(LATE_OUTPUT_MS + SETTLE_MS);
    expect(runs).toEqual(['started']);
    expect(reported()).toEqual([expect.stringMatching(/^failure gpu-oom error-output /)]);
  });

  it('one cell run by hand is no run: nothing told', async () => {
    watch();
    await state('pending');
    await state('running animating');
    await state('stale');
    await settled();
    expect(runs).toEqual([]);
  });

  it('tells when cells begin to be under way and when none is, once each however many cells', async () => {
    await runBoth('stale');
    await settled();
    expect(activity).toEqual([true, false]);
  });

  it('one cell run by hand is under way too: a long cell keeps a guard armed', async () => {
    watch();
    await state('pending');
    await state('running animating');
    expect(activity).toEqual([true]);
    await state('stale');
    await settled();
    expect(activity).toEqual([true, false]);
  });

  it('a restart forgetting what was under way tells that none is', async () => {
    mountCellLike('second');
    const fx = watch();
    setRunState(cell(), 'pending');
    await tick();
    fx.forgetExecutions();
    expect(activity).toEqual([true, false]);
  });

  it('a run the guard restarts (its executions forgotten) tells no end of its own', async () => {
    mountCellLike('second');
    const fx = watch();
    setRunState(cell(), 'pending');
    setRunState(second(), 'pending');
    await tick();
    await state('running animating');
    fx.forgetExecutions();
    await state('stale');
    setRunState(second(), 'stale');
    await settled();
    expect(runs).toEqual(['started']);
  });
});
