import { beforeEach, describe, expect, it } from 'vitest';
import {
  COUNTDOWN_GRACE_MS,
  ctx,
  cudaOom,
  enabled,
  failure,
  KEY,
  MIN,
  OTHER_TAB,
  pendingOf,
  resetAttempts,
  SEC,
  scheduled,
  T0,
  TAB,
} from '../../test/support/policy';
import { CLAIM_TOLERANCE_MS, type PolicyEvent, RESTART_TIMEOUT_MS, reduce } from './policy';
import { defaultSettings, type NotebookRecord } from './schema';

// The restart itself (state/policy-restarts.ts): claims at the deadline, late or from another session, the results.

beforeEach(resetAttempts);

describe('claims', () => {
  it('are granted to the owner with the right attempt at the deadline', () => {
    const { record, status } = scheduled();
    const result = reduce(record, { type: 'claim', tabId: TAB, attempt: status.attempt }, ctx(status.restartAt));
    expect(result.reply).toEqual({ granted: true, action: 'restart-and-run-all' });
    expect(result.record.status).toEqual({
      kind: 'restarting',
      reason: 'failure',
      action: 'restart-and-run-all',
      attempt: status.attempt,
      ownerTab: TAB,
      startedAt: status.restartAt,
    });
  });

  it('are refused while the guard is off, even with a countdown still stored', () => {
    const { record, status } = scheduled();
    const off = { ...record, enabled: false };
    const result = reduce(off, { type: 'claim', tabId: TAB, attempt: status.attempt }, ctx(status.restartAt));
    expect(result.reply).toEqual({ granted: false, why: { kind: 'guard-off' } });
    expect(result.record.status.kind).toBe('pending');
  });

  it('tolerate a timer firing slightly early, but not more', () => {
    const { record, status } = scheduled();
    const claim = { type: 'claim', tabId: TAB, attempt: status.attempt } as const;
    expect(reduce(record, claim, ctx(status.restartAt - CLAIM_TOLERANCE_MS)).reply).toMatchObject({ granted: true });
    const early = reduce(record, claim, ctx(status.restartAt - CLAIM_TOLERANCE_MS - 1));
    expect(early.reply).toEqual({ granted: false, why: { kind: 'too-early', seconds: 1 } });
    expect(early.record).toBe(record);
  });

  it('are granted once: a second claim (a retry, a second tab, a reload) is refused', () => {
    const { record, status } = scheduled();
    const granted = reduce(
      record,
      { type: 'claim', tabId: TAB, attempt: status.attempt },
      ctx(status.restartAt),
    ).record;
    const again = reduce(granted, { type: 'claim', tabId: TAB, attempt: status.attempt }, ctx(status.restartAt + 10));
    expect(again.reply).toEqual({ granted: false, why: { kind: 'restart-under-way' } });
    expect(again.record).toBe(granted);
  });

  it('are refused to another tab, even with the right attempt', () => {
    const { record, status } = scheduled();
    const result = reduce(record, { type: 'claim', tabId: OTHER_TAB, attempt: status.attempt }, ctx(status.restartAt));
    expect(result.reply).toEqual({ granted: false, why: { kind: 'other-owner' } });
    expect(result.record).toBe(record);
  });

  it('are refused for a wrong or old attempt', () => {
    const { record, status } = scheduled();
    expect(reduce(record, { type: 'claim', tabId: TAB, attempt: 'attempt-0' }, ctx(status.restartAt)).reply).toEqual({
      granted: false,
      why: { kind: 'replaced' },
    });
  });

  it('are refused when nothing is pending', () => {
    expect(reduce(enabled(), { type: 'claim', tabId: TAB, attempt: 'attempt-1' }, ctx(T0)).reply).toEqual({
      granted: false,
      why: { kind: 'no-pending' },
    });
  });

  it('decide a race between two tabs: exactly one restart', () => {
    // Both tabs saw the failure; only the first report owns the restart, and both claim at the deadline.
    let record = reduce(enabled(), failure(T0, { tabId: OTHER_TAB }), ctx(T0)).record;
    record = reduce(record, failure(T0 + 1, { tabId: TAB }), ctx(T0 + 1)).record;
    const { attempt, restartAt } = pendingOf(record);
    const grants = [TAB, OTHER_TAB, OTHER_TAB, TAB].map((tabId) => {
      const result = reduce(record, { type: 'claim', tabId, attempt }, ctx(restartAt));
      record = result.record;
      return result.reply.granted;
    });
    expect(grants).toEqual([false, true, false, false]);
  });
});

describe('claims long after the deadline or from another session', () => {
  it('are granted up to 2 min late: hidden tabs run timers up to a minute late', () => {
    const { record, status } = scheduled();
    const claim = { type: 'claim' as const, tabId: TAB, attempt: status.attempt };
    expect(reduce(record, claim, ctx(status.restartAt + COUNTDOWN_GRACE_MS)).reply).toMatchObject({ granted: true });
  });

  it('later (a computer waking from sleep): refused, and the countdown starts again in the same tab', () => {
    const { record, status } = scheduled();
    const woke = status.restartAt + 3 * 60 * MIN;
    const result = reduce(record, { type: 'claim', tabId: TAB, attempt: status.attempt }, ctx(woke));
    expect(result.reply).toEqual({ granted: false, why: { kind: 'countdown-again', carry: 'late', minutes: 180 } });
    expect(result.record.history.at(-1)).toMatchObject({ type: 'resumed', params: { why: 'late', minutes: 180 } });
    const carried = pendingOf(result.record);
    expect(carried).toMatchObject({ ownerTab: TAB, restartAt: woke + 5 * SEC, verdict: cudaOom });
    expect(carried.attempt).not.toBe(status.attempt);
    expect(result.record.history.at(-1)).toMatchObject({ type: 'resumed', at: woke });
    const next = { type: 'claim' as const, tabId: TAB, attempt: carried.attempt };
    expect(reduce(result.record, next, ctx(woke + 5 * SEC)).reply).toMatchObject({ granted: true });
  });

  it('from a page of another browser session with a reused tab id: refused, the countdown shown again', () => {
    const { record, status } = scheduled();
    const restarted = ctx(status.restartAt + SEC, defaultSettings(), 'session-2');
    const result = reduce(record, { type: 'claim', tabId: TAB, attempt: status.attempt }, restarted);
    expect(result.reply).toMatchObject({ granted: false });
    expect(pendingOf(result.record)).toMatchObject({ restartAt: status.restartAt + 6 * SEC, session: 'session-2' });
    const late = ctx(status.restartAt + COUNTDOWN_GRACE_MS + SEC, defaultSettings(), 'session-2');
    const skipped = reduce(record, { type: 'claim', tabId: TAB, attempt: status.attempt }, late);
    expect(skipped.reply).toMatchObject({ granted: false });
    expect(skipped.record.history.at(-1)?.type).toBe('skipped');
  });

  it('a report or command on a countdown nobody claimed for over 2 min skips it first', () => {
    const { record, status } = scheduled();
    const later = status.restartAt + COUNTDOWN_GRACE_MS + SEC;
    const reported = reduce(record, failure(later, { tabId: OTHER_TAB }), ctx(later));
    expect(reported.reply).toMatchObject({ outcome: 'scheduled' });
    expect(reported.record.history.map((e) => e.type).slice(-2)).toEqual(['skipped', 'restart-scheduled']);
    expect(reduce(record, { type: 'cancel' }, ctx(later)).record.history.at(-1)?.type).toBe('skipped');
  });
});

describe('restart results', () => {
  function restarting(reason: 'failure' | 'crash' | 'marker' = 'failure') {
    const record = enabled({
      loopCount: 1,
      totalRestarts: 5,
      status: {
        kind: 'restarting',
        reason,
        action: 'restart-and-run-all',
        attempt: 'attempt-9',
        ownerTab: TAB,
        startedAt: T0,
      },
    });
    return record;
  }

  it('success: back to watching, counted from when it started, notified', () => {
    const result = reduce(
      restarting(),
      { type: 'restart-result', tabId: TAB, attempt: 'attempt-9', ok: true },
      ctx(T0 + 3 * SEC),
    );
    expect(result.record).toMatchObject({
      status: { kind: 'watching' },
      loopCount: 2,
      totalRestarts: 6,
      lastRestartAt: T0,
    });
    expect(result.record.history.at(-1)).toEqual({
      at: T0 + 3 * SEC,
      type: 'restarted',
      params: { n: 2, max: 3 },
      action: 'restart-and-run-all',
    });
    expect(result.effects).toEqual([
      { type: 'notify', kind: 'restarted', key: KEY, title: 'train.ipynb', entry: result.record.history.at(-1) },
    ]);
  });

  it('a failure of the new run detected before the result arrived still counts once the restart is done', () => {
    const done = reduce(
      restarting(),
      { type: 'restart-result', tabId: TAB, attempt: 'attempt-9', ok: true },
      ctx(T0 + 3 * SEC),
    );
    const result = reduce(done.record, failure(T0 + 2 * SEC), ctx(T0 + 4 * SEC));
    expect(result.reply).toMatchObject({ outcome: 'scheduled' });
  });

  it('a crash restart counts toward the loop; a marker restart only toward the total', () => {
    const ok = { type: 'restart-result', tabId: TAB, attempt: 'attempt-9', ok: true } as const;
    expect(reduce(restarting('crash'), ok, ctx(T0)).record).toMatchObject({ loopCount: 2, totalRestarts: 6 });
    expect(reduce(restarting('marker'), ok, ctx(T0)).record).toMatchObject({ loopCount: 1, totalRestarts: 6 });
  });

  it('failure: stops with a UI problem, notified, no retry', () => {
    const event = {
      type: 'restart-result',
      tabId: TAB,
      attempt: 'attempt-9',
      ok: false,
      failed: { step: 'open-menu', reason: 'menubar-missing', saw: 'Runtime menu not found' },
    } as const;
    const result = reduce(restarting(), event, ctx(T0 + SEC));
    const failed = { step: 'open-menu', reason: 'menubar-missing', saw: 'Runtime menu not found' };
    expect(result.record).toMatchObject({
      status: { kind: 'ui-problem', at: T0 + SEC, failed },
      loopCount: 1,
      totalRestarts: 5,
    });
    expect(result.record.history.at(-1)).toMatchObject({
      type: 'restart-failed',
      failed,
    });
    expect(result.record.history.at(-1)?.detail).toBeUndefined();
    expect(result.effects).toEqual([
      {
        type: 'notify',
        kind: 'ui-problem',
        key: KEY,
        title: 'train.ipynb',
        entry: result.record.history.at(-1),
        step: { failed, action: 'restart-and-run-all' },
      },
    ]);
    expect(reduce(result.record, failure(T0 + MIN), ctx(T0 + MIN)).reply).toMatchObject({ outcome: 'ignored' });
  });

  it('are ignored for another attempt or tab', () => {
    const record = restarting();
    for (const event of [
      { type: 'restart-result', tabId: TAB, attempt: 'attempt-8', ok: true },
      { type: 'restart-result', tabId: OTHER_TAB, attempt: 'attempt-9', ok: true },
    ] as const) {
      const result = reduce(record, event, ctx(T0 + SEC));
      expect(result).toMatchObject({ record, effects: [], reply: { ok: false } });
    }
  });

  it('a restart never reported within the bound counts as interrupted, without a retry', () => {
    const record = restarting();
    const late = T0 + RESTART_TIMEOUT_MS;
    const result = reduce(record, failure(late), ctx(late));
    // The expired restart is closed first; the new failure is then a new, counted request.
    expect(result.record.history.map((h) => h.type)).toEqual(['interrupted', 'restart-scheduled']);
    expect(result.record).toMatchObject({ loopCount: 2, totalRestarts: 6, lastRestartAt: T0 });
    expect(reduce(record, failure(late - 1), ctx(late - 1)).reply).toMatchObject({ outcome: 'absorbed' });
    expect(
      reduce(record, { type: 'restart-result', tabId: TAB, attempt: 'attempt-9', ok: true }, ctx(late)).reply,
    ).toMatchObject({ ok: false });
  });
});

describe('a countdown over 2 minutes past its deadline is skipped by anything but its own page claiming it', () => {
  const pending = () => reduce(enabled(), failure(T0), ctx(T0)).record;
  const late = (record: NotebookRecord) => pendingOf(record).restartAt + COUNTDOWN_GRACE_MS + SEC;
  it.each([
    ['a claim from another tab', (attempt: string) => ({ type: 'claim', tabId: OTHER_TAB, attempt })],
    ['a claim for another attempt', () => ({ type: 'claim', tabId: TAB, attempt: 'other' })],
    ['a result from its own tab', (attempt: string) => ({ type: 'restart-result', tabId: TAB, attempt, ok: true })],
  ] as const)('%s', (_name, event) => {
    const record = pending();
    const result = reduce(record, event(pendingOf(record).attempt) as PolicyEvent, ctx(late(record)));
    expect(result.record.status.kind).toBe('watching');
    expect(result.record.history.at(-1)?.type).toBe('skipped');
  });
});
