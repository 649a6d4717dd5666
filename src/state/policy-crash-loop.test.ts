import { beforeEach, describe, expect, it } from 'vitest';
import {
  attemptsMade,
  ctx,
  cudaOom,
  enabled,
  failAndRestart,
  failure,
  KEY,
  MIN,
  pendingOf,
  resetAttempts,
  SEC,
  T0,
  TAB,
} from '../../test/support/policy';
import { backoffSeconds, effectiveMaxRestarts, loopCountAt, reduce } from './policy';
import { defaultSettings } from './schema';

// The crash-loop limit, its back-off and the healthy window that resets it (state/policy-parts.ts, policy-reports.ts).

beforeEach(resetAttempts);

describe('the crash-loop limit', () => {
  it('gives a notebook that fails on every run exactly 3 restarts, then gives up', () => {
    let record = enabled();
    let now = T0;
    const notified: string[] = [];
    for (let i = 0; i < 3; i++) {
      const cycle = failAndRestart(record, now);
      record = cycle.record;
      notified.push(...cycle.effects.map((e) => `${e.kind}: ${e.entry.params?.n} of ${e.entry.params?.max}`));
      now = cycle.doneAt + MIN;
    }
    expect(record).toMatchObject({ loopCount: 3, totalRestarts: 3, status: { kind: 'watching' } });

    const last = reduce(record, failure(now), ctx(now));
    expect(last.record.status).toEqual({ kind: 'gave-up', at: now, restarts: 3 });
    expect(last.reply).toMatchObject({ outcome: 'gave-up' });
    expect(last.effects).toEqual([
      {
        type: 'notify',
        kind: 'gave-up',
        key: KEY,
        title: 'train.ipynb',
        entry: { at: now, type: 'gave-up', params: { why: 'failed-again', n: 3, max: 3 }, verdict: cudaOom },
      },
    ]);
    expect(last.record.history.at(-1)).toMatchObject({ type: 'gave-up', verdict: cudaOom });
    expect(notified).toEqual(['restarted: 1 of 3', 'restarted: 2 of 3', 'restarted: 3 of 3']);

    const after = reduce(last.record, failure(now + MIN), ctx(now + MIN));
    expect(after.record).toBe(last.record);
    expect(attemptsMade()).toBe(3);
  });

  it('backs off 5, 10, 20, 40, 80, 160, then 300 s', () => {
    const settings = { ...defaultSettings(), maxRestarts: 9 };
    let record = enabled();
    let now = T0;
    const delays: number[] = [];
    for (let i = 0; i < 9; i++) {
      const cycle = failAndRestart(record, now, settings);
      delays.push(cycle.delay);
      record = cycle.record;
      now = cycle.doneAt + MIN;
    }
    expect(delays).toEqual([5, 10, 20, 40, 80, 160, 300, 300, 300]);
  });

  it('uses a per-notebook override of the limit, and the default again when cleared', () => {
    let record = reduce(enabled(), { type: 'set-max-restarts', value: 1 }, ctx(T0)).record;
    expect(record.overrides).toEqual({ maxRestarts: 1 });
    expect(effectiveMaxRestarts(record, defaultSettings())).toBe(1);
    const cycle = failAndRestart(record, T0);
    expect(cycle.effects[0]?.entry.params).toEqual({ n: 1, max: 1 });
    expect(reduce(cycle.record, failure(cycle.doneAt + SEC), ctx(cycle.doneAt + SEC)).record.status.kind).toBe(
      'gave-up',
    );

    record = reduce(cycle.record, { type: 'set-max-restarts', value: null }, ctx(T0)).record;
    expect(record.overrides).toEqual({});
    expect(reduce(record, failure(cycle.doneAt + SEC), ctx(cycle.doneAt + SEC)).reply).toMatchObject({
      outcome: 'scheduled',
    });
  });

  it('gives up at once with a limit of 0 (notify only)', () => {
    const record = enabled({ overrides: { maxRestarts: 0 } });
    expect(reduce(record, failure(T0), ctx(T0)).record.status.kind).toBe('gave-up');
  });

  it('refuses an invalid override and leaves an unchanged one alone', () => {
    const record = enabled({ overrides: { maxRestarts: 4 } });
    for (const value of [-1, 1.5, 1001, Number.NaN]) {
      expect(reduce(record, { type: 'set-max-restarts', value }, ctx(T0))).toMatchObject({
        record,
        reply: { ok: false },
      });
    }
    expect(reduce(record, { type: 'set-max-restarts', value: 4 }, ctx(T0)).record).toBe(record);
  });
});

describe('the healthy window', () => {
  it('resets the crash-loop counter after 30 min without failures, keeping the lifetime total', () => {
    let record = enabled();
    let now = T0;
    for (let i = 0; i < 2; i++) {
      const cycle = failAndRestart(record, now);
      record = cycle.record;
      now = cycle.doneAt + SEC;
    }
    expect(record).toMatchObject({ loopCount: 2, totalRestarts: 2 });

    const later = record.lastRestartAt! + 30 * MIN;
    const result = reduce(record, failure(later), ctx(later));
    expect(result.record.loopCount).toBe(0);
    expect(result.record.totalRestarts).toBe(2);
    expect(pendingOf(result.record).restartAt).toBe(later + 5 * SEC);
    expect(result.record.history.slice(-2).map((h) => h.type)).toEqual(['healthy-reset', 'restart-scheduled']);
    expect(result.record.history.at(-2)?.params).toEqual({ minutes: 30, total: 2 });
  });

  it('dates "Healthy run" when the 30 min were up, in its place among the events, not at the next failure', () => {
    const cycle = failAndRestart(enabled(), T0);
    const healthyAt = cycle.record.lastRestartAt! + 30 * MIN;
    const ran = { type: 'run', tabId: TAB, detectedAt: healthyAt + 60 * MIN, what: 'finished' } as const;
    const finished = reduce(cycle.record, ran, ctx(healthyAt + 60 * MIN)).record;
    const later = healthyAt + 3 * 60 * MIN;
    const history = reduce(finished, failure(later), ctx(later)).record.history;
    const healthy = history.find((h) => h.type === 'healthy-reset');
    expect(healthy?.at).toBe(healthyAt);
    expect(history.map((h) => h.at)).toEqual(history.map((h) => h.at).toSorted((a, b) => a - b));
    expect(history.slice(-3).map((h) => h.type)).toEqual(['healthy-reset', 'run-finished', 'restart-scheduled']);
  });

  it('counts from the last failure too: a failure whose restart was cancelled keeps the loop going', () => {
    let record = failAndRestart(enabled(), T0).record;
    record = failAndRestart(record, record.lastRestartAt! + MIN).record;
    const restartedAt = record.lastRestartAt!;
    const scheduled = reduce(record, failure(restartedAt + 5 * MIN), ctx(restartedAt + 5 * MIN)).record;
    const cancelled = reduce(scheduled, { type: 'cancel' }, ctx(restartedAt + 5 * MIN + SEC)).record;
    expect(cancelled.status.kind).toBe('watching');
    // 31 min after the last restart, but only 26 min after the cancelled failure: not healthy.
    const later = restartedAt + 31 * MIN;
    expect(loopCountAt(cancelled, defaultSettings(), later)).toBe(2);
    const result = reduce(cancelled, failure(later), ctx(later));
    expect(result.record.loopCount).toBe(2);
    expect(result.record.history.map((h) => h.type)).not.toContain('healthy-reset');
    expect(pendingOf(result.record).restartAt).toBe(later + 20 * SEC);
  });

  it('does not reset just before the window ends', () => {
    const record = enabled({ loopCount: 2, totalRestarts: 2, lastRestartAt: T0 });
    const result = reduce(record, failure(T0 + 30 * MIN - 1), ctx(T0 + 30 * MIN - 1));
    expect(result.record.loopCount).toBe(2);
    expect(pendingOf(result.record).restartAt).toBe(T0 + 30 * MIN - 1 + 20 * SEC);
  });

  it('also lifts a loop at its limit', () => {
    const record = enabled({ loopCount: 3, totalRestarts: 3, lastRestartAt: T0 });
    expect(reduce(record, failure(T0 + 31 * MIN), ctx(T0 + 31 * MIN)).reply).toMatchObject({ outcome: 'scheduled' });
  });

  it('is applied lazily by loopCountAt for display', () => {
    const settings = defaultSettings();
    const record = enabled({ loopCount: 2, lastRestartAt: T0 });
    expect(loopCountAt(record, settings, T0 + 29 * MIN)).toBe(2);
    expect(loopCountAt(record, settings, T0 + 30 * MIN)).toBe(0);
    expect(
      loopCountAt(
        enabled({ loopCount: 3, lastRestartAt: T0, status: { kind: 'gave-up', at: T0, restarts: 3 } }),
        settings,
        T0 + 60 * MIN,
      ),
    ).toBe(3);
  });
});

describe('backoffSeconds', () => {
  it.each([
    [0, 5],
    [1, 10],
    [2, 20],
    [5, 160],
    [6, 300],
    [50, 300],
    [5000, 300],
    [-1, 5],
  ])('n=%i → %i s', (n, seconds) => {
    expect(backoffSeconds(n, defaultSettings())).toBe(seconds);
  });

  it('follows the settings', () => {
    expect(backoffSeconds(3, { ...defaultSettings(), backoffBaseSec: 2, backoffMaxSec: 10 })).toBe(10);
    expect(backoffSeconds(2, { ...defaultSettings(), backoffBaseSec: 2, backoffMaxSec: 10 })).toBe(8);
  });
});
