import { beforeEach, describe, expect, it } from 'vitest';
import { ctx, enabled, failAndRestart, KEY, MIN, resetAttempts, SEC, T0, TAB } from '../../test/support/policy';
import { type PolicyEvent, reduce } from './policy';
import { defaultNotebook } from './schema';

// What the page sees run (state/policy-runs.ts): whether it can see, how runs end.

beforeEach(resetAttempts);

describe('whether the page can see', () => {
  const sight = (blind: boolean, at = T0) => ({ type: 'sight' as const, blind, at });

  it('keeps since when a page reports detection may be blind, until a page sees a cell run again', () => {
    const blind = reduce(enabled(), sight(true), ctx(T0)).record;
    expect(blind.blindSince).toBe(T0);
    expect(reduce(blind, sight(true, T0 + MIN), ctx(T0 + MIN)).record).toBe(blind);
    const sees = reduce(blind, sight(false), ctx(T0 + MIN)).record;
    expect(sees).not.toHaveProperty('blindSince');
    expect(reduce(sees, sight(false), ctx(T0 + MIN)).record).toBe(sees);
  });

  it('is not kept while the guard is off, and goes when it is switched off or after a restart', () => {
    const off = defaultNotebook(KEY);
    expect(reduce(off, sight(true), ctx(T0)).record).toBe(off);
    const blind = reduce(enabled(), sight(true), ctx(T0)).record;
    expect(reduce(blind, { type: 'set-enabled', enabled: false }, ctx(T0)).record).not.toHaveProperty('blindSince');
    expect(failAndRestart(blind, T0 + SEC).record).not.toHaveProperty('blindSince');
  });
});

describe('how runs end', () => {
  const run = (what: 'started' | 'finished' | 'stopped' | 'interrupted', extra = {}): PolicyEvent => ({
    type: 'run',
    tabId: TAB,
    detectedAt: T0,
    what,
    ...extra,
  });

  it('each end is a history entry; a stop keeps its cell and line, and finished and stopped are notified', () => {
    const started = reduce(enabled(), run('started'), ctx(T0));
    expect(started.record.history).toEqual([{ at: T0, type: 'run-started' }]);
    expect(started.effects).toEqual([]);
    const stopped = reduce(enabled(), run('stopped', { cell: 7, line: 'ValueError: bad shape' }), ctx(T0));
    expect(stopped.record.history).toEqual([
      { at: T0, type: 'run-stopped', params: { cell: 7, saw: 'ValueError: bad shape' } },
    ]);
    expect(stopped.effects).toMatchObject([{ kind: 'run-stopped', entry: stopped.record.history[0] }]);
    const finished = reduce(enabled(), run('finished'), ctx(T0));
    expect(finished.effects).toMatchObject([{ kind: 'run-finished', entry: { type: 'run-finished' } }]);
    const mine = reduce(enabled(), run('interrupted'), ctx(T0));
    expect(mine.record.history).toEqual([{ at: T0, type: 'run-interrupted' }]);
    expect(mine.effects).toEqual([]);
  });

  it('nothing while the guard is off, and the same end from a second tab is written once', () => {
    const off = defaultNotebook(KEY);
    expect(reduce(off, run('finished'), ctx(T0)).record).toBe(off);
    const once = reduce(enabled(), run('finished'), ctx(T0)).record;
    expect(reduce(once, run('finished'), ctx(T0 + 10 * SEC)).record).toBe(once);
    expect(reduce(once, run('finished'), ctx(T0 + 2 * MIN)).record.history).toHaveLength(2);
  });

  it("the run a restart starts is the restart's own: no run-started entry for it", () => {
    const restarting = enabled({
      status: {
        kind: 'restarting',
        reason: 'failure',
        action: 'restart-and-run-all',
        attempt: 'a',
        ownerTab: TAB,
        startedAt: T0,
      },
    });
    expect(reduce(restarting, run('started'), ctx(T0 + SEC)).record).toBe(restarting);
    const { record, doneAt } = failAndRestart(enabled(), T0);
    expect(reduce(record, run('started'), ctx(doneAt + SEC)).record).toBe(record);
    expect(reduce(record, run('finished'), ctx(doneAt + SEC)).record.history.at(-1)?.type).toBe('run-finished');
    expect(reduce(record, run('started'), ctx(doneAt + 5 * MIN)).record.history.at(-1)?.type).toBe('run-started');
  });
});
