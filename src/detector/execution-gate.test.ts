import { describe, expect, it } from 'vitest';
import { CRASH_LOOKBACK_MS, createExecutionGate, LATE_OUTPUT_MS } from './execution-gate';

describe('execution gate', () => {
  it('an execution seen running that ends in error: its ending is its error output, once everything is heard', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'running', 10);
    expect(gate.errorOutput('a', 'OutOfMemoryError', 20)).toBe('held');
    expect(gate.cellState('a', 'error', 30)).toEqual({ startedAt: 10, endedAt: 30, outcome: 'error' });
    expect(gate.ending('a', 30, false)).toEqual({ kind: 'wait' });
    expect(gate.ending('a', 31, true)).toEqual({ kind: 'ending', text: 'OutOfMemoryError', earlier: [] });
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
    expect(gate.errorOutput('a', 'OutOfMemoryError', 11)).toBe('dropped');
    expect(gate.cellState('a', 'stale-error', 12)).toBeNull();
    expect(gate.errorOutput('a', 'OutOfMemoryError', 13)).toBe('dropped');
    expect(gate.ending('a', 14, true)).toEqual({ kind: 'none' });
  });

  it('a stale error is never a fresh failure, even at the end of an execution seen here', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'pending', 10);
    gate.errorOutput('a', 'OutOfMemoryError', 11);
    expect(gate.cellState('a', 'stale-error', 20)).toEqual({ startedAt: 10, endedAt: 20, outcome: 'stale' });
    expect(gate.errorOutput('a', 'OutOfMemoryError', 21)).toBe('dropped');
    expect(gate.ending('a', 21, true)).toEqual({ kind: 'none' });
  });

  it('an execution that ends well has no ending: what looked like an error while it ran ended nothing', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'running', 10);
    gate.errorOutput('a', 'OutOfMemoryError (caught and shown)', 11);
    expect(gate.cellState('a', 'idle', 20)).toMatchObject({ outcome: 'ok' });
    expect(gate.errorOutput('a', 'OutOfMemoryError', 21)).toBe('dropped');
    expect(gate.ending('a', 21, true)).toEqual({ kind: 'none' });
  });

  it('takes error outputs arriving late, for a short while after the execution ended in error', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'running', 10);
    gate.cellState('a', 'error', 20);
    expect(gate.ending('a', 20, true)).toEqual({ kind: 'wait' });
    expect(gate.errorOutput('a', 'OutOfMemoryError', 20 + LATE_OUTPUT_MS)).toBe('late');
    expect(gate.ending('a', 20 + LATE_OUTPUT_MS, true)).toMatchObject({ kind: 'ending', text: 'OutOfMemoryError' });
    expect(gate.errorOutput('a', 'OutOfMemoryError', 21 + LATE_OUTPUT_MS)).toBe('dropped');
  });

  it('the ending is the last error output: an earlier one (shown, and the run went on) never is', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'running', 10);
    gate.errorOutput('a', 'OutOfMemoryError (showtraceback)', 100);
    gate.cellState('a', 'error', 3000);
    // The Stop's KeyboardInterrupt comes late from a frame.
    expect(gate.errorOutput('a', 'KeyboardInterrupt', 3100)).toBe('late');
    expect(gate.ending('a', 3200, true)).toEqual({
      kind: 'ending',
      text: 'KeyboardInterrupt',
      earlier: ['OutOfMemoryError (showtraceback)'],
    });
  });

  it('an error output followed by other output of its execution is not its ending: waited for, then missing', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'running', 10);
    gate.errorOutput('a', 'OutOfMemoryError (showtraceback)', 100);
    gate.wentOn('a');
    gate.cellState('a', 'error', 200);
    expect(gate.ending('a', 200, true)).toEqual({ kind: 'wait' });
    expect(gate.ending('a', 200 + LATE_OUTPUT_MS, true)).toEqual({ kind: 'wait' });
    expect(gate.ending('a', 201 + LATE_OUTPUT_MS, true)).toEqual({
      kind: 'missing',
      earlier: ['OutOfMemoryError (showtraceback)'],
    });
  });

  it('an error output shown longer than the late-output window before the end is not its ending', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'running', 10);
    gate.errorOutput('a', 'OutOfMemoryError (showtraceback)', 100);
    gate.cellState('a', 'error', 101 + LATE_OUTPUT_MS);
    expect(gate.ending('a', 102 + LATE_OUTPUT_MS, true)).toEqual({ kind: 'wait' });
    expect(gate.ending('a', 102 + 2 * LATE_OUTPUT_MS, true)).toMatchObject({ kind: 'missing' });
    const fresh = createExecutionGate(0);
    fresh.cellState('a', 'running', 10);
    fresh.errorOutput('a', 'OutOfMemoryError', 100);
    fresh.cellState('a', 'error', 100 + LATE_OUTPUT_MS);
    expect(fresh.ending('a', 100 + LATE_OUTPUT_MS, true)).toMatchObject({ kind: 'ending' });
  });

  it('not everything heard when the window closes: the newest error output ends it, if nothing followed it', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'running', 10);
    gate.errorOutput('a', 'OutOfMemoryError', 20);
    gate.cellState('a', 'error', 30);
    expect(gate.ending('a', 30 + LATE_OUTPUT_MS, false)).toEqual({ kind: 'wait' });
    expect(gate.ending('a', 31 + LATE_OUTPUT_MS, false)).toMatchObject({ kind: 'ending', text: 'OutOfMemoryError' });
  });

  it('one verdict per execution, however many outputs show it, and again once the cell runs again', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'running', 10);
    gate.cellState('a', 'error', 20);
    gate.judged('a');
    expect(gate.errorOutput('a', 'OutOfMemoryError', 21)).toBe('dropped');
    expect(gate.ending('a', 22, true)).toEqual({ kind: 'none' });
    gate.cellState('a', 'running', 30);
    expect(gate.errorOutput('a', 'OutOfMemoryError', 31)).toBe('held');
  });

  it('a running state seen twice is one execution', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'running', 10);
    gate.errorOutput('a', 'first', 11);
    gate.cellState('a', 'running', 12);
    expect(gate.cellState('a', 'error', 13)).toMatchObject({ startedAt: 10 });
    expect(gate.ending('a', 14, true)).toMatchObject({ text: 'first' });
  });

  it('keeps only the newest error outputs of an execution', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'running', 0);
    for (let i = 0; i < 20; i++) gate.errorOutput('a', `output ${i}`, i);
    gate.cellState('a', 'error', 30);
    const ending = gate.ending('a', 30, true);
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
    expect(gate.errorOutput('b', 'OutOfMemoryError', 61)).toBe('dropped');
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
      gate.errorOutput(id, 'ValueError', now + 1);
      expect(gate.cellState(id, id === 'c2999' ? 'error' : 'idle', now + 20)).toMatchObject({ startedAt: 0 });
    }
    expect(gate.anyRunning()).toBe(false);
    // The last one's late output is still its own; one that ended minutes ago is nobody's.
    expect(gate.errorOutput('c2999', 'OutOfMemoryError', now + 30)).toBe('late');
    expect(gate.isLive('c2999', now + 30)).toBe(true);
    expect(gate.isLive('c0', now + 30)).toBe(false);
    // Ended 12 s before, still remembered for a crash notice: its late outputs are refused all the same.
    expect(gate.isLive('c2700', now + 30)).toBe(false);
    expect(gate.errorOutput('c2700', 'OutOfMemoryError', now + 30)).toBe('dropped');
    expect(gate.errorOutput('c0', 'OutOfMemoryError', now + 30)).toBe('dropped');
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
  it('a cell it never saw: nothing went on, nothing judged, no start, and no error thrown', () => {
    const gate = createExecutionGate(0);
    expect(() => gate.wentOn('unseen')).not.toThrow();
    expect(() => gate.judged('unseen')).not.toThrow();
    expect(gate.startedAt('unseen')).toBeNull();
    expect(gate.isLive('unseen', 10)).toBe(false);
  });

  it('other output of an execution that showed no error output changes nothing', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'running', 10);
    expect(() => gate.wentOn('a')).not.toThrow();
    gate.errorOutput('a', 'OutOfMemoryError', 20);
    gate.cellState('a', 'error', 30);
    expect(gate.ending('a', 31, true)).toEqual({ kind: 'ending', text: 'OutOfMemoryError', earlier: [] });
  });

  it('the window closed without everything heard: the earlier error outputs are the ones before the ending', () => {
    const gate = createExecutionGate(0);
    gate.cellState('a', 'running', 10);
    gate.errorOutput('a', 'caught OutOfMemoryError', 15);
    gate.errorOutput('a', 'caught OutOfMemoryError again', 16);
    gate.errorOutput('a', 'ValueError', 20);
    gate.cellState('a', 'error', 30);
    expect(gate.ending('a', 30 + 10_001, false)).toEqual({
      kind: 'ending',
      text: 'ValueError',
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
