import { beforeEach, describe, expect, it } from 'vitest';
import { ctx, enabled, failure, MIN, pendingOf, resetAttempts, SEC, T0, TAB } from '../../test/support/policy';
import { loopCountAt, reduce } from './policy';
import { defaultSettings } from './schema';

// The user's commands (state/policy-commands.ts).

beforeEach(resetAttempts);

describe('user commands', () => {
  it('cancel during the countdown: back to watching, and the claim is refused', () => {
    const scheduled = reduce(enabled(), failure(T0), ctx(T0)).record;
    const { attempt, restartAt } = pendingOf(scheduled);
    const cancelled = reduce(scheduled, { type: 'cancel' }, ctx(T0 + SEC));
    expect(cancelled.reply).toEqual({ ok: true });
    expect(cancelled.record.status).toEqual({ kind: 'watching' });
    expect(cancelled.record.history.at(-1)).toMatchObject({ at: T0 + SEC, type: 'cancelled' });
    expect(reduce(cancelled.record, { type: 'claim', tabId: TAB, attempt }, ctx(restartAt)).reply).toMatchObject({
      granted: false,
    });
  });

  it('cancel is too late once the restart runs, and a no-op otherwise', () => {
    const running = enabled({
      status: { kind: 'restarting', reason: 'failure', action: 'run-all', attempt: 'a', ownerTab: TAB, startedAt: T0 },
    });
    expect(reduce(running, { type: 'cancel' }, ctx(T0)).reply).toEqual({
      ok: false,
      why: { kind: 'cannot-cancel' },
    });
    const watching = enabled();
    expect(reduce(watching, { type: 'cancel' }, ctx(T0))).toMatchObject({ record: watching, reply: { ok: true } });
  });

  it('rearm after giving up or a UI problem: watching with a fresh counter', () => {
    for (const status of [
      { kind: 'gave-up', at: T0, restarts: 3 },
      { kind: 'ui-problem', at: T0, failed: { step: 'verify', reason: 'r', saw: 'd' } },
    ] as const) {
      const result = reduce(enabled({ status, loopCount: 3, totalRestarts: 8 }), { type: 'rearm' }, ctx(T0 + MIN));
      expect(result.record).toMatchObject({ status: { kind: 'watching' }, loopCount: 0, totalRestarts: 8 });
      expect(result.record.history.at(-1)).toMatchObject({ type: 're-armed' });
      expect(reduce(result.record, failure(T0 + 2 * MIN), ctx(T0 + 2 * MIN)).reply).toMatchObject({
        outcome: 'scheduled',
      });
    }
    const watching = enabled();
    expect(reduce(watching, { type: 'rearm' }, ctx(T0)).record).toBe(watching);
  });

  it('reset-counter: loop counter to 0, lifetime total kept, a give-up lifted', () => {
    const result = reduce(enabled({ loopCount: 2, totalRestarts: 8 }), { type: 'reset-counter' }, ctx(T0));
    expect(result.record).toMatchObject({ loopCount: 0, totalRestarts: 8, status: { kind: 'watching' } });
    expect(result.record.history.at(-1)).toMatchObject({
      type: 'counter-reset',
      params: { total: 8 },
    });
    const gaveUp = reduce(
      enabled({ loopCount: 3, status: { kind: 'gave-up', at: T0, restarts: 3 } }),
      { type: 'reset-counter' },
      ctx(T0),
    );
    expect(gaveUp.record).toMatchObject({ loopCount: 0, status: { kind: 'watching' } });
    const fresh = enabled();
    expect(reduce(fresh, { type: 'reset-counter' }, ctx(T0)).record).toBe(fresh);
  });

  it('reset-counter keeps a pending restart', () => {
    const scheduled = reduce(enabled({ loopCount: 1 }), failure(T0), ctx(T0)).record;
    expect(reduce(scheduled, { type: 'reset-counter' }, ctx(T0)).record.status.kind).toBe('pending');
  });

  it('switching off cancels a pending restart', () => {
    const scheduled = reduce(enabled(), failure(T0), ctx(T0)).record;
    const { attempt, restartAt } = pendingOf(scheduled);
    const off = reduce(scheduled, { type: 'set-enabled', enabled: false }, ctx(T0 + SEC)).record;
    expect(off).toMatchObject({ enabled: false, status: { kind: 'watching' } });
    expect(off.history.at(-1)).toEqual({ at: T0 + SEC, type: 'disabled', params: { cancelled: true } });
    expect(reduce(off, { type: 'claim', tabId: TAB, attempt }, ctx(restartAt)).reply).toMatchObject({ granted: false });
  });

  it('switching off during a restart lets it finish', () => {
    const running = enabled({
      status: { kind: 'restarting', reason: 'failure', action: 'run-all', attempt: 'a', ownerTab: TAB, startedAt: T0 },
    });
    const off = reduce(running, { type: 'set-enabled', enabled: false }, ctx(T0)).record;
    expect(off.status.kind).toBe('restarting');
    const done = reduce(off, { type: 'restart-result', tabId: TAB, attempt: 'a', ok: true }, ctx(T0 + SEC)).record;
    expect(done).toMatchObject({ enabled: false, status: { kind: 'watching' }, totalRestarts: 1 });
  });

  it('switching on is a fresh start, and repeating a switch changes nothing', () => {
    const stopped = { ...enabled({ loopCount: 3, status: { kind: 'gave-up', at: T0, restarts: 3 } }), enabled: false };
    const on = reduce(stopped, { type: 'set-enabled', enabled: true }, ctx(T0 + MIN)).record;
    expect(on).toMatchObject({ enabled: true, loopCount: 0, status: { kind: 'watching' } });
    expect(on.history.at(-1)).toEqual({ at: T0 + MIN, type: 'enabled' });
    expect(reduce(on, { type: 'set-enabled', enabled: true }, ctx(T0)).record).toBe(on);
  });

  it('switching off and on in a crash loop that has not given up starts it over: 0 restarts used', () => {
    const looping = { ...enabled({ loopCount: 2, lastRestartAt: T0 }), enabled: false };
    const on = reduce(looping, { type: 'set-enabled', enabled: true }, ctx(T0 + MIN)).record;
    expect(on).toMatchObject({ enabled: true, loopCount: 0, status: { kind: 'watching' } });
    expect(loopCountAt(on, defaultSettings(), T0 + MIN)).toBe(0);
  });

  it('switching off and on while a restart is under way keeps its count: that restart finishes and counts', () => {
    const running = enabled({
      loopCount: 1,
      status: { kind: 'restarting', reason: 'failure', action: 'run-all', attempt: 'a', ownerTab: TAB, startedAt: T0 },
    });
    const off = reduce(running, { type: 'set-enabled', enabled: false }, ctx(T0)).record;
    const on = reduce(off, { type: 'set-enabled', enabled: true }, ctx(T0 + SEC)).record;
    expect(on).toMatchObject({ enabled: true, loopCount: 1, status: { kind: 'restarting' } });
  });

  it('set-title trims and caps, and ignores an unchanged title', () => {
    const record = enabled();
    expect(reduce(record, { type: 'set-title', title: '  big.ipynb ' }, ctx(T0)).record.title).toBe('big.ipynb');
    expect(reduce(record, { type: 'set-title', title: 'x'.repeat(600) }, ctx(T0)).record.title).toHaveLength(500);
    expect(reduce(record, { type: 'set-title', title: 'train.ipynb' }, ctx(T0)).record).toBe(record);
  });
});
