import { describe, expect, it } from 'vitest';
import {
  CRASH_LOOKBACK_MS,
  createExecutionGate,
  type EndFacts,
  type ExecutionGate,
  LATE_OUTPUT_MS,
} from './execution-gate';
import { PAGE } from './output-order';

/** Nothing shown besides the error outputs; every output frame heard, or not. */
const only = (heard = true): EndFacts => ({ heard, page: { count: 0, ids: [], mark: '' }, frames: [] });

/**
 * An error output `text` arriving in the page at `at`, after `before` other outputs there (`id`: Colab's number), with
 * the page's mark.
 */
function inPage(gate: ExecutionGate, cell: string, text: string, at: number, before = 0, id: number | null = null) {
  const error = { text, place: PAGE, index: before, id, from: at, to: at };
  return gate.errorOutput(cell, error, at, [{ at, mark: `${before + 1} outputs` }]);
}

/** The error outputs `texts`, one a millisecond from `at`, one after the other in the page. */
function inPageEach(gate: ExecutionGate, cell: string, texts: string[], at: number) {
  for (const [i, text] of texts.entries()) inPage(gate, cell, text, at + i, i);
}

describe('execution gate', () => {
  it('an execution seen running that ends in error: its ending is its error output, once everything is heard', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'running', 10);
    expect(inPage(gate, 'a', 'OutOfMemoryError', 20)).toBe('held');
    expect(gate.cellState('a', 'error', 30)).toEqual({ startedAt: 10, endedAt: 30, outcome: 'error' });
    expect(gate.ending('a', 30, only(false))).toEqual({ kind: 'wait' });
    expect(gate.ending('a', 31, only(true))).toEqual({
      kind: 'ending',
      text: 'OutOfMemoryError',
      rivals: [],
      earlier: [],
    });
  });

  it('an execution seen only queued counts too (it ran and failed between two looks)', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'pending', 10);
    expect(gate.cellState('a', 'error', 20)).toMatchObject({ startedAt: 10, outcome: 'error' });
  });

  it('its start is when this page first saw it queued, not when it began running', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'pending', 10);
    gate.cellState('a', 'running', 50);
    expect(gate.startedAt('a')).toBe(10);
    expect(gate.cellState('a', 'error', 90)).toMatchObject({ startedAt: 10 });
  });

  it('a cell going from idle straight to error ended no execution of this page (a lazily rendered saved error)', () => {
    const gate = createExecutionGate(0);
    expect(gate.cellState('a', 'error', 10)).toBeNull();
    expect(inPage(gate, 'a', 'OutOfMemoryError', 11)).toBe('dropped');
    expect(gate.cellState('a', 'stale-error', 12)).toBeNull();
    expect(inPage(gate, 'a', 'OutOfMemoryError', 13)).toBe('dropped');
    expect(gate.ending('a', 14, only(true))).toEqual({ kind: 'none' });
  });

  it('a stale error is never a fresh failure, even at the end of an execution seen here', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'pending', 10);
    inPage(gate, 'a', 'OutOfMemoryError', 11);
    expect(gate.cellState('a', 'stale-error', 20)).toEqual({ startedAt: 10, endedAt: 20, outcome: 'stale' });
    expect(inPage(gate, 'a', 'OutOfMemoryError', 21)).toBe('dropped');
    expect(gate.ending('a', 21, only(true))).toEqual({ kind: 'none' });
  });

  it('an execution that ends well has no ending: what looked like an error while it ran ended nothing', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'running', 10);
    inPage(gate, 'a', 'OutOfMemoryError (caught and shown)', 11);
    expect(gate.cellState('a', 'idle', 20)).toMatchObject({ outcome: 'ok' });
    expect(inPage(gate, 'a', 'OutOfMemoryError', 21)).toBe('dropped');
    expect(gate.ending('a', 21, only(true))).toEqual({ kind: 'none' });
  });

  it('takes error outputs arriving late, for a short while after the execution ended in error', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'running', 10);
    gate.cellState('a', 'error', 20);
    expect(gate.ending('a', 20, only(true))).toEqual({ kind: 'wait' });
    expect(inPage(gate, 'a', 'OutOfMemoryError', 20 + LATE_OUTPUT_MS)).toBe('late');
    expect(gate.ending('a', 20 + LATE_OUTPUT_MS, only(true))).toMatchObject({
      kind: 'ending',
      text: 'OutOfMemoryError',
    });
    expect(inPage(gate, 'a', 'OutOfMemoryError', 21 + LATE_OUTPUT_MS)).toBe('dropped');
  });

  it('the ending is the last error output: an earlier one (shown, and the run went on) never is', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'running', 10);
    inPage(gate, 'a', 'OutOfMemoryError (showtraceback)', 100);
    gate.cellState('a', 'error', 3000);
    // The Stop's KeyboardInterrupt comes late, second in the page.
    expect(inPage(gate, 'a', 'KeyboardInterrupt', 3100, 1)).toBe('late');
    expect(gate.ending('a', 3200, only(true))).toEqual({
      kind: 'ending',
      text: 'KeyboardInterrupt',
      // Nothing is known to lie between them: the earlier one may as well have ended the run.
      rivals: ['OutOfMemoryError (showtraceback)'],
      earlier: ['OutOfMemoryError (showtraceback)'],
    });
  });

  it('an error output followed by other output of its execution is not its ending: waited for, then missing', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'running', 10);
    inPage(gate, 'a', 'OutOfMemoryError (showtraceback)', 100);
    gate.cellState('a', 'error', 200);
    // The page's outputs: the error, then a line printed after it.
    const printed: EndFacts = {
      ...only(true),
      page: { count: 2, ids: [null, null], mark: 'retrying with batch_size=32' },
    };
    expect(gate.ending('a', 200, printed)).toEqual({ kind: 'wait' });
    expect(gate.ending('a', 200 + LATE_OUTPUT_MS, printed)).toEqual({ kind: 'wait' });
    expect(gate.ending('a', 201 + LATE_OUTPUT_MS, printed)).toEqual({
      kind: 'missing',
      earlier: ['OutOfMemoryError (showtraceback)'],
      unclear: false,
    });
  });

  it('an error output shown longer than the late-output window before the end is not its ending', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'running', 10);
    inPage(gate, 'a', 'OutOfMemoryError (showtraceback)', 100);
    gate.cellState('a', 'error', 101 + LATE_OUTPUT_MS);
    expect(gate.ending('a', 102 + LATE_OUTPUT_MS, only(true))).toEqual({ kind: 'wait' });
    expect(gate.ending('a', 102 + 2 * LATE_OUTPUT_MS, only(true))).toMatchObject({ kind: 'missing' });
    const fresh = createExecutionGate(0);
    fresh.cellState('a', 'running', 10);
    inPage(fresh, 'a', 'OutOfMemoryError', 100);
    fresh.cellState('a', 'error', 100 + LATE_OUTPUT_MS);
    expect(fresh.ending('a', 100 + LATE_OUTPUT_MS, only(true))).toMatchObject({ kind: 'ending' });
  });

  it('not everything heard when the window closes: the newest error output ends it, if nothing followed it', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'running', 10);
    inPage(gate, 'a', 'OutOfMemoryError', 20);
    gate.cellState('a', 'error', 30);
    expect(gate.ending('a', 30 + LATE_OUTPUT_MS, only(false))).toEqual({ kind: 'wait' });
    expect(gate.ending('a', 31 + LATE_OUTPUT_MS, only(false))).toMatchObject({
      kind: 'ending',
      text: 'OutOfMemoryError',
    });
  });

  it('one verdict per execution, however many outputs show it, and again once the cell runs again', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'running', 10);
    gate.cellState('a', 'error', 20);
    gate.judged('a');
    expect(inPage(gate, 'a', 'OutOfMemoryError', 21)).toBe('dropped');
    expect(gate.ending('a', 22, only(true))).toEqual({ kind: 'none' });
    gate.cellState('a', 'running', 30);
    expect(inPage(gate, 'a', 'OutOfMemoryError', 31)).toBe('held');
  });

  it('a running state seen twice is one execution', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'running', 10);
    inPage(gate, 'a', 'first', 11);
    gate.cellState('a', 'running', 12);
    expect(gate.cellState('a', 'error', 13)).toMatchObject({ startedAt: 10 });
    expect(gate.ending('a', 14, only(true))).toMatchObject({ text: 'first' });
  });

  it('keeps only the newest error outputs of an execution', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'running', 0);
    for (let i = 0; i < 20; i++) inPage(gate, 'a', `output ${i}`, i);
    gate.cellState('a', 'error', 30);
    const ending = gate.ending('a', 30, only(true));
    expect(ending).toMatchObject({ kind: 'ending', text: 'output 19' });
    expect(ending.kind === 'ending' && ending.earlier.length).toBeLessThan(19);
  });

  it('forgets every execution on reset: nothing seen before the restart ends in a failure', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'running', 10);
    gate.cellState('b', 'pending', 10);
    gate.reset(50);
    expect(gate.sawExecution()).toBe(false);
    expect(gate.cellState('a', 'error', 60)).toBeNull();
    expect(inPage(gate, 'b', 'OutOfMemoryError', 61)).toBe('dropped');
    gate.cellState('b', 'running', 70);
    expect(gate.cellState('b', 'error', 80)).toMatchObject({ startedAt: 70, outcome: 'error' });
  });

  it('says whether it saw any execution since it began watching or last restarted (a crash needs one)', () => {
    const gate = createExecutionGate(0);
    expect(gate.sawExecution()).toBe(false);
    gate.cellState('a', 'error', 10); // a saved error rendered: no execution
    expect(gate.sawExecution()).toBe(false);
    gate.cellState('a', 'pending', 20);
    expect(gate.sawExecution()).toBe(true);
    gate.cellState('a', 'idle', 30);
    expect(gate.sawExecution()).toBe(true);
  });

  it('keeps cells apart', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'running', 0);
    gate.cellState('a', 'error', 1);
    gate.judged('a');
    gate.cellState('b', 'running', 2);
    expect(gate.cellState('b', 'error', 3)).toMatchObject({ outcome: 'error' });
  });

  it('markers: any output of an execution running, or just ended however it ended', () => {
    const gate = createExecutionGate(0);
    expect(gate.isLive('a', 0)).toBe(false);
    gate.cellState('a', 'running', 10);
    expect(gate.isLive('a', 11)).toBe(true);
    gate.cellState('a', 'idle', 20);
    expect(gate.isLive('a', 20 + LATE_OUTPUT_MS)).toBe(true);
    expect(gate.isLive('a', 21 + LATE_OUTPUT_MS)).toBe(false);
  });

  describe('the start a crash notice reports', () => {
    it('is the earliest start of the executions active when it showed', () => {
      const gate = createExecutionGate(0);
      gate.cellState('a', 'running', 100);
      gate.cellState('b', 'pending', 150);
      expect(gate.crashStartedAt(1000)).toBe(100);
    });

    it('includes executions the crash ended a while ago: a late notice in a background tab', () => {
      const gate = createExecutionGate(0);
      gate.cellState('a', 'running', 100);
      gate.cellState('a', 'idle', 500); // the crash ends the execution
      gate.cellState('a', 'pending', 900); // the run after the restart, shown before the late notice
      expect(gate.crashStartedAt(1000)).toBe(100);
      expect(gate.crashStartedAt(500 + CRASH_LOOKBACK_MS + 1)).toBe(900);
    });

    it('leaves out what ended before a restart that answered a failure seen here, not what was still running', () => {
      const gate = createExecutionGate(0);
      gate.cellState('a', 'running', 100);
      gate.cellState('a', 'error', 500); // its own failure, restarted for by another tab at 700
      gate.cellState('b', 'running', 600);
      gate.endedBefore(700);
      gate.cellState('b', 'idle', 800); // ended by that restart, seen after it
      gate.cellState('a', 'pending', 900);
      expect(gate.crashStartedAt(1000)).toBe(600);
      gate.cellState('b', 'pending', 950);
      gate.endedBefore(600); // an older restart heard late moves nothing back
      expect(gate.crashStartedAt(1000)).toBe(600);
    });

    it('keeps an execution whose end is seen at the very time of that restart, as one the restart ended', () => {
      const gate = createExecutionGate(0);
      gate.cellState('a', 'running', 100);
      gate.cellState('a', 'error', 500);
      gate.cellState('b', 'running', 600);
      gate.cellState('b', 'idle', 700);
      gate.endedBefore(700);
      expect(gate.crashStartedAt(1000)).toBe(600);
    });

    it('is the time the page began watching (or restarted) when it saw no execution', () => {
      const gate = createExecutionGate(42);
      expect(gate.crashStartedAt(1000)).toBe(42);
      gate.cellState('a', 'running', 100);
      gate.reset(2000);
      expect(gate.crashStartedAt(3000)).toBe(2000);
    });
  });

  it('a Run all of thousands of cells: the last executions still judged, the old ones let go', () => {
    const gate = createExecutionGate(-1);
    const cells = Array.from({ length: 3000 }, (_, i) => `c${i}`);
    for (const id of cells) gate.cellState(id, 'pending', 0);
    let now = 0;
    for (const id of cells) {
      now += 40;
      gate.cellState(id, 'running', now);
      expect(gate.anyRunning()).toBe(true);
      inPage(gate, id, 'ValueError', now + 1);
      expect(gate.cellState(id, id === 'c2999' ? 'error' : 'idle', now + 20)).toMatchObject({ startedAt: 0 });
    }
    expect(gate.anyRunning()).toBe(false);
    // The last one's late output is still its own; one that ended minutes ago is nobody's.
    expect(inPage(gate, 'c2999', 'OutOfMemoryError', now + 30)).toBe('late');
    expect(gate.isLive('c2999', now + 30)).toBe(true);
    expect(gate.isLive('c0', now + 30)).toBe(false);
    // Ended 12 s before, still remembered for a crash notice: its late outputs are refused all the same.
    expect(gate.isLive('c2700', now + 30)).toBe(false);
    expect(inPage(gate, 'c2700', 'OutOfMemoryError', now + 30)).toBe('dropped');
    expect(inPage(gate, 'c0', 'OutOfMemoryError', now + 30)).toBe('dropped');
    expect(gate.cellState('c0', 'error', now + 30)).toBeNull();
    // A crash notice looks back over the executions that ended within its window, and no further.
    expect(gate.crashStartedAt(now + 30)).toBe(0);
    expect(gate.crashStartedAt(now + 21 + CRASH_LOOKBACK_MS)).toBe(-1);
  });

  it('tells whether a cell is seen running (queued is not running), or under way (queued or running)', () => {
    const gate = createExecutionGate(0);
    expect(gate.anyUnderWay()).toBe(false);
    gate.cellState('a', 'pending', 1);
    expect(gate.anyRunning()).toBe(false);
    expect(gate.anyUnderWay()).toBe(true);
    gate.cellState('a', 'running', 2);
    expect(gate.anyRunning()).toBe(true);
    gate.cellState('a', 'idle', 3);
    expect(gate.anyRunning()).toBe(false);
    expect(gate.anyUnderWay()).toBe(false);
    gate.cellState('b', 'pending', 4);
    gate.reset(5);
    expect(gate.anyUnderWay()).toBe(false);
  });
});

describe('execution gate: questions about cells it never saw, and the crash window', () => {
  it('a cell it never saw: nothing judged, no start, and no error thrown', () => {
    const gate = createExecutionGate(0);
    expect(() => gate.judged('unseen')).not.toThrow();
    expect(gate.startedAt('unseen')).toBeNull();
    expect(gate.isLive('unseen', 10)).toBe(false);
    expect(gate.ending('unseen', 10, only(true))).toEqual({ kind: 'none' });
  });

  it('the window closed without everything heard: the earlier error outputs are the ones before the ending', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'running', 10);
    inPageEach(gate, 'a', ['caught OutOfMemoryError', 'caught OutOfMemoryError again', 'ValueError'], 15);
    gate.cellState('a', 'error', 30);
    expect(gate.ending('a', 30 + 10_001, only(false))).toEqual({
      kind: 'ending',
      text: 'ValueError',
      rivals: ['caught OutOfMemoryError', 'caught OutOfMemoryError again'],
      earlier: ['caught OutOfMemoryError', 'caught OutOfMemoryError again'],
    });
  });

  it('output of an execution running for an hour is live', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'running', 10);
    expect(gate.isLive('a', 3_600_000)).toBe(true);
  });

  it('a crash notice looks back five minutes to the ms', () => {
    const gate = createExecutionGate(-1);
    gate.cellState('a', 'running', 100);
    gate.cellState('a', 'idle', 1000);
    expect(gate.crashStartedAt(1000 + 300_000)).toBe(100);
    expect(gate.crashStartedAt(1000 + 300_001)).toBe(-1);
  });

  it('a restart forgets the ended executions too', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'running', 100);
    gate.cellState('a', 'error', 200);
    gate.reset(300);
    expect(gate.crashStartedAt(400)).toBe(300);
  });

  it('remembers the newest 500 ended executions for a crash notice, in the order they ended', () => {
    const gate = createExecutionGate(-1);
    for (let i = 0; i < 1200; i++) {
      gate.cellState(`c${i}`, 'pending', i * 10);
      gate.cellState(`c${i}`, 'idle', i * 10 + 5);
      // Each end drops at most the oldest: at any moment the newest 500 so far.
      if (i === 600) expect(gate.crashStartedAt(i * 10 + 6)).toBe(101 * 10);
    }
    expect(gate.crashStartedAt(12_000)).toBe(700 * 10);
  });
});

describe("execution gate: one record judges the run's last output across the page and its frames", () => {
  const FRAME = 1;
  /** An error output of output frame FRAME: its position there, number, and when it arrived (between two times). */
  function inFrame(
    gate: ExecutionGate,
    text: string,
    where: { index?: number; id?: number | null; from: number; to: number },
    marks: Array<[number, string]>,
  ) {
    const error = { text, place: FRAME, index: where.index ?? 0, id: where.id ?? null, from: where.from, to: where.to };
    return gate.errorOutput(
      'a',
      error,
      where.to,
      marks.map(([at, mark]) => ({ at, mark })),
    );
  }
  /** Judged with the page showing `pageIds` and ending in `mark`, and the frame's answer. */
  function facts(mark: string, pageIds: Array<number | null>, frameIds: Array<number | null>, at: number): EndFacts {
    return {
      heard: true,
      page: { count: pageIds.length, ids: pageIds, mark },
      frames: [{ place: FRAME, count: frameIds.length, ids: frameIds, error: true, from: at, to: at }],
    };
  }
  const OOM = 'OutOfMemoryError: CUDA out of memory';

  it('a frame opened long before (the status helper), the log in the page, then the OOM in it: the ending', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'running', 10);
    // The frame saw the OOM arrive while it was settled: it arrived then, and the page showed the log by then.
    inFrame(gate, OOM, { from: 60_000, to: 60_000 }, [[60_000, 'epoch 3/3']]);
    gate.cellState('a', 'error', 60_005);
    expect(gate.ending('a', 60_300, facts('epoch 3/3', [null], [null], 60_000))).toEqual({
      kind: 'ending',
      text: OOM,
      rivals: [],
      earlier: [],
    });
  });

  it('the same, the page printing after the OOM came: the run went on, its ending never came', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'running', 10);
    inFrame(gate, OOM, { from: 60_000, to: 60_000 }, [[60_000, 'epoch 3/3']]);
    gate.cellState('a', 'error', 60_005);
    const printed = facts('retrying with batch_size=32', [null, null], [null], 60_000);
    expect(gate.ending('a', 60_300, printed)).toEqual({ kind: 'wait' });
    expect(gate.ending('a', 60_006 + LATE_OUTPUT_MS, printed)).toEqual({
      kind: 'missing',
      earlier: [OOM],
      unclear: false,
    });
  });

  it('a frame made for the OOM, the page quiet since the frame was made: the ending', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'running', 10);
    // Shown while the frame loaded: it came between the frame's making (1000) and the frame's first look (1300).
    inFrame(gate, OOM, { from: 1000, to: 1300 }, [
      [1000, 'epoch 1/3'],
      [1300, 'epoch 1/3'],
    ]);
    gate.cellState('a', 'error', 1010);
    expect(gate.ending('a', 1600, facts('epoch 1/3', [null], [null], 1300))).toMatchObject({ kind: 'ending' });
  });

  it('the page printed while that frame loaded: which came first is not known, so nothing ends it', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'running', 10);
    inFrame(gate, OOM, { from: 1000, to: 1300 }, [
      [1000, 'epoch 1/3'],
      [1300, 'retrying with batch_size=32'],
    ]);
    gate.cellState('a', 'error', 1500);
    const printed = facts('retrying with batch_size=32', [null], [null], 1300);
    expect(gate.ending('a', 1600, printed)).toEqual({ kind: 'wait' });
    expect(gate.ending('a', 1501 + LATE_OUTPUT_MS, printed)).toEqual({
      kind: 'missing',
      earlier: [OOM],
      unclear: true,
    });
  });

  it("Colab's numbers tell it there: the print numbered after the OOM followed it, one numbered before did not", () => {
    const judged = (pageIds: number[], oomId = 3) => {
      const gate = createExecutionGate(0);
      gate.cellState('a', 'running', 10);
      inFrame(gate, OOM, { id: oomId, from: 1000, to: 1300 }, [
        [1000, 'epoch 1/3'],
        [1300, 'retrying with batch_size=32'],
      ]);
      gate.cellState('a', 'error', 1500);
      return gate.ending('a', 1501 + LATE_OUTPUT_MS, facts('retrying with batch_size=32', pageIds, [oomId], 1300));
    };
    expect(judged([2, 4])).toEqual({ kind: 'missing', earlier: [OOM], unclear: false });
    expect(judged([2])).toMatchObject({ kind: 'ending', text: OOM });
    // Numbers counted per place (each starts at 1) say nothing across places: back to the times, which cannot tell.
    expect(judged([1, 2], 1)).toMatchObject({ kind: 'missing', unclear: true });
  });

  it('a traceback in the page after a plot shown in the frame, the frame answering last: the ending', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'running', 10);
    inPage(gate, 'a', OOM, 60_000, 1);
    gate.cellState('a', 'error', 60_005);
    // The frame's one output, the plot, arrived at 2000: its answer, later than the traceback, is no later output.
    const plot = { place: FRAME, count: 1, ids: [null], error: false, from: 2000, to: 2000 };
    const page = { count: 2, ids: [null, null], mark: '2 outputs' };
    expect(gate.ending('a', 60_300, { heard: true, page, frames: [plot] })).toMatchObject({
      kind: 'ending',
      text: OOM,
    });
    // A frame output arriving after the traceback did follow it.
    const later = { ...plot, from: 60_100, to: 60_100 };
    expect(gate.ending('a', 60_300, { heard: true, page, frames: [later] })).toEqual({ kind: 'wait' });
  });

  it("another frame's plot, shown long before, answering after the OOM came: no later output, the ending", () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'running', 10);
    inFrame(gate, OOM, { from: 60_000, to: 60_000 }, [[60_000, '']]);
    gate.cellState('a', 'error', 60_005);
    const oomFrame = { place: FRAME, count: 1, ids: [null], error: true, from: 60_000, to: 60_000 };
    const plotFrame = { place: FRAME + 1, count: 1, ids: [null], error: false, from: 2000, to: 2000 };
    const page = { count: 0, ids: [], mark: '' };
    expect(gate.ending('a', 60_400, { heard: true, page, frames: [plotFrame, oomFrame] })).toMatchObject({
      kind: 'ending',
      text: OOM,
    });
  });

  it('an error output right after another in one frame, nothing between: it ends the run, the other a rival', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'running', 10);
    inFrame(gate, 'ValueError: bad batch', { index: 1, from: 5000, to: 5000 }, [[5000, 'epoch 1/3']]);
    gate.cellState('a', 'error', 5002);
    // A script in the output appends an OOM-looking error output after it.
    inFrame(gate, OOM, { index: 2, from: 5003, to: 5003 }, [[5003, 'epoch 1/3']]);
    expect(gate.ending('a', 5300, facts('epoch 1/3', [null], [null, null, null], 5003))).toEqual({
      kind: 'ending',
      text: OOM,
      rivals: ['ValueError: bad batch'],
      earlier: ['ValueError: bad batch'],
    });
  });

  it('outputs between them change nothing (a script can add them too); one shown long before the end is none', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'running', 10);
    inFrame(gate, 'ValueError: bad batch', { index: 0, from: 5000, to: 5000 }, [[5000, '']]);
    inFrame(gate, OOM, { index: 2, from: 6000, to: 6000 }, [[6000, '']]);
    gate.cellState('a', 'error', 6002);
    const ending = gate.ending('a', 6300, facts('', [], [null, null, null], 6000));
    expect(ending).toMatchObject({ kind: 'ending', text: OOM, rivals: ['ValueError: bad batch'] });

    const caughtLongBefore = createExecutionGate(0);
    caughtLongBefore.cellState('a', 'running', 10);
    inFrame(caughtLongBefore, 'ValueError: bad batch', { index: 0, from: 5000, to: 5000 }, [[5000, '']]);
    inFrame(caughtLongBefore, OOM, { index: 2, from: 16_000, to: 16_000 }, [[16_000, '']]);
    caughtLongBefore.cellState('a', 'error', 16_002);
    const long = caughtLongBefore.ending('a', 16_300, facts('', [], [null, null, null], 16_000));
    expect(long).toMatchObject({ kind: 'ending', text: OOM, rivals: [] });
  });

  it('orders error outputs by the evidence, not by when their reports came', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'running', 10);
    inPage(gate, 'a', 'KeyboardInterrupt', 9000, 0, 3);
    // Numbered before the page's traceback, reported after it (its frame loaded late).
    inFrame(gate, OOM, { id: 2, from: 1000, to: 9100 }, [[9100, 'KeyboardInterrupt']]);
    gate.cellState('a', 'error', 9001);
    const ending = gate.ending('a', 9300, facts('KeyboardInterrupt', [3], [2], 9100));
    expect(ending).toMatchObject({ kind: 'ending', text: 'KeyboardInterrupt', earlier: [OOM] });
  });
});
