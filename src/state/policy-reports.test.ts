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
  marker,
  OTHER_TAB,
  pendingOf,
  resetAttempts,
  SEC,
  SESSION,
  T0,
  TAB,
} from '../../test/support/policy';
import { localDay, type PolicyEvent, reduce } from './policy';
import { DECLINED, type DeclineReason, defaultNotebook, defaultSettings, type Verdict } from './schema';

// Reports (state/policy-reports.ts): failures, one execution across tabs, failures left alone, markers, dialogs.

beforeEach(resetAttempts);

describe('failure reports', () => {
  it('do nothing while the guard is off', () => {
    const record = defaultNotebook(KEY);
    const result = reduce(record, failure(T0), ctx(T0));
    expect(result.reply).toEqual({ outcome: 'off', why: { kind: 'guard-off' } });
    expect(result.record).toBe(record);
  });

  it('schedule a restart-and-run-all owned by the reporting tab after the base back-off', () => {
    const result = reduce(enabled(), failure(T0 - SEC), ctx(T0));
    expect(result.record.status).toEqual({
      kind: 'pending',
      reason: 'failure',
      action: 'restart-and-run-all',
      restartAt: T0 + 5 * SEC,
      attempt: 'attempt-1',
      ownerTab: TAB,
      detectedAt: T0 - SEC,
      verdict: cudaOom,
      session: SESSION,
    });
    expect(result.reply).toEqual({ outcome: 'scheduled', restartAt: T0 + 5 * SEC, attempt: 'attempt-1' });
    expect(result.record.lastFailureAt).toBe(T0);
    expect(result.record.history).toEqual([
      {
        at: T0,
        type: 'restart-scheduled',
        params: { n: 1, max: 3, delaySec: 5 },
        verdict: cudaOom,
        action: 'restart-and-run-all',
      },
    ]);
    expect(result.effects).toEqual([]);
  });

  it('only run all cells after a crash toast: Colab already restarted the kernel', () => {
    const crash: Verdict = {
      category: 'host-ram',
      rule: 'colab-ram-toast',
      description: 'Session crashed after using all RAM',
      line: 'Your session crashed after using all available RAM.',
    };
    const status = pendingOf(reduce(enabled(), failure(T0, { source: 'crash-toast', verdict: crash }), ctx(T0)).record);
    expect(status).toMatchObject({ reason: 'crash', action: 'run-all' });
  });

  it('are ignored for a category switched off, Colab crash notices included', () => {
    const record = enabled();
    const fault: Verdict = { ...cudaOom, category: 'gpu-fault' };
    expect(reduce(record, failure(T0, { verdict: fault }), ctx(T0))).toMatchObject({
      record,
      reply: { outcome: 'ignored' },
    });
    const noCrash = { ...defaultSettings(), categories: { ...defaultSettings().categories, 'colab-crash': false } };
    const ramCrash: Verdict = { ...cudaOom, category: 'colab-crash' };
    expect(reduce(record, failure(T0, { source: 'crash-toast', verdict: ramCrash }), ctx(T0, noCrash))).toMatchObject({
      record,
      reply: { outcome: 'ignored' },
    });
    const noGpu = { ...defaultSettings(), categories: { ...defaultSettings().categories, 'gpu-oom': false } };
    expect(reduce(record, failure(T0), ctx(T0, noGpu)).record).toBe(record);
  });

  it('act on user patterns (category custom)', () => {
    const custom: Verdict = { category: 'custom', rule: 'user:Killed', description: 'User pattern', line: 'Killed' };
    expect(reduce(enabled(), failure(T0, { verdict: custom }), ctx(T0)).reply).toMatchObject({ outcome: 'scheduled' });
  });

  it('give one restart however many places report the same failure', () => {
    const first = reduce(enabled(), failure(T0), ctx(T0)).record;
    const reports: PolicyEvent[] = [
      failure(T0 + 10),
      failure(T0 + 20, { source: 'crash-toast' }),
      failure(T0 + 30, { tabId: OTHER_TAB }),
      marker(T0 + 40, OTHER_TAB),
    ];
    for (const report of reports) {
      const result = reduce(first, report, ctx(T0 + 100));
      expect(result.reply).toMatchObject({ outcome: 'absorbed' });
      expect(result.record).toBe(first);
    }
    expect(attemptsMade()).toBe(1);
  });

  it('are absorbed while the restart runs (the run-all replays the old outputs)', () => {
    const scheduled = reduce(enabled(), failure(T0), ctx(T0)).record;
    const { attempt } = pendingOf(scheduled);
    const restarting = reduce(scheduled, { type: 'claim', tabId: TAB, attempt }, ctx(T0 + 5 * SEC)).record;
    const result = reduce(restarting, failure(T0 + 6 * SEC), ctx(T0 + 6 * SEC));
    expect(result.reply).toMatchObject({ outcome: 'absorbed' });
    expect(result.record).toBe(restarting);
  });

  it('are ignored when about a run older than the last restart', () => {
    const { record, startedAt, doneAt } = failAndRestart(enabled(), T0);
    for (const detectedAt of [T0, startedAt]) {
      const result = reduce(record, failure(detectedAt, { startedAt }), ctx(doneAt + SEC));
      expect(result.reply).toMatchObject({
        outcome: 'ignored',
        why: { kind: 'older-run' },
      });
      expect(result.record).toBe(record);
    }
    expect(reduce(record, failure(startedAt + 1), ctx(doneAt + SEC)).reply).toMatchObject({ outcome: 'scheduled' });
  });

  it('are ignored after giving up or a UI problem, until the user acts', () => {
    for (const status of [
      { kind: 'gave-up', at: T0, restarts: 3 },
      { kind: 'ui-problem', at: T0, failed: { step: 'open-menu', reason: 'x', saw: '' } },
    ] as const) {
      const record = enabled({ status });
      const result = reduce(record, failure(T0 + MIN), ctx(T0 + MIN));
      expect(result).toMatchObject({ record, reply: { outcome: 'ignored' } });
    }
  });
});

describe('one execution, one failure, across tabs', () => {
  it("a failure of an execution that began before the last restart's claim is ignored and noted as handled", () => {
    const { record, startedAt: claimedAt, doneAt } = failAndRestart(enabled(), T0);
    // The second tab shows the same failure, late: its execution began before the claim.
    const late = reduce(record, failure(doneAt + 10 * SEC, { startedAt: T0 - MIN, tabId: 9 }), ctx(doneAt + 11 * SEC));
    expect(late.reply).toEqual({ outcome: 'ignored', why: { kind: 'already-handled' } });
    expect(late.record.status).toEqual({ kind: 'watching' });
    expect(late.record.history.at(-1)).toEqual({
      at: doneAt + 11 * SEC,
      type: 'ignored',
      params: { why: 'already-handled' },
      verdict: cudaOom,
    });
    expect(late.record.loopCount).toBe(record.loopCount);
    expect(late.record.lastFailureAt).toBe(record.lastFailureAt);
    expect(late.effects).toEqual([]);
    // One started a moment before the claim, too.
    expect(reduce(record, failure(doneAt, { startedAt: claimedAt - 1 }), ctx(doneAt)).reply).toMatchObject({
      outcome: 'ignored',
    });
  });

  it('a failure of an execution that began at or after the claim is a new failure', () => {
    const { record, startedAt: claimedAt, doneAt } = failAndRestart(enabled(), T0);
    for (const startedAt of [claimedAt, claimedAt + SEC]) {
      const result = reduce(record, failure(doneAt + MIN, { startedAt }), ctx(doneAt + MIN));
      expect(result.reply).toMatchObject({ outcome: 'scheduled' });
    }
  });

  it('is noted while the next restart is pending too, leaving that countdown alone', () => {
    const { record, doneAt } = failAndRestart(enabled(), T0);
    const pending = reduce(record, failure(doneAt + MIN), ctx(doneAt + MIN)).record;
    const late = reduce(pending, failure(doneAt + MIN, { startedAt: T0 }), ctx(doneAt + MIN + SEC));
    expect(late.reply).toMatchObject({ outcome: 'ignored', why: { kind: 'already-handled' } });
    expect(late.record.status).toEqual(pending.status);
    expect(late.record.history.at(-1)?.type).toBe('ignored');
  });

  it('never before a restart happened, and not when the guard is off or the category switched off', () => {
    expect(reduce(enabled(), failure(T0, { startedAt: 0 }), ctx(T0)).reply).toMatchObject({ outcome: 'scheduled' });
    const { record, doneAt } = failAndRestart(enabled(), T0);
    const off = { ...record, enabled: false };
    expect(reduce(off, failure(doneAt, { startedAt: T0 }), ctx(doneAt)).record).toBe(off);
    const settings = defaultSettings();
    settings.categories['gpu-oom'] = false;
    expect(reduce(record, failure(doneAt, { startedAt: T0 }), ctx(doneAt, settings)).record).toBe(record);
  });
});

describe('failures a page saw and left alone', () => {
  const declined = (reason: DeclineReason, startedAt = T0, verdict = cudaOom): PolicyEvent => ({
    type: 'declined',
    detectedAt: T0,
    startedAt,
    reason,
    verdict,
  });

  it('are written to the history as not restarted, the reason as its short phrase, and change nothing else', () => {
    const record = enabled();
    const result = reduce(record, declined('earlier-error'), ctx(T0 + SEC));
    expect(result.reply).toEqual({ ok: true });
    expect(result.effects).toEqual([]);
    expect(result.record.history).toEqual([
      { at: T0 + SEC, type: 'ignored', params: { why: 'earlier-error' }, verdict: cudaOom },
    ]);
    expect(result.record.status).toEqual(record.status);
    expect(result.record.loopCount).toBe(record.loopCount);
    expect(result.record.lastFailureAt).toBe(record.lastFailureAt);
  });

  it('every reason has its own stable phrase', () => {
    const phrases = Object.values(DECLINED);
    expect(new Set(phrases).size).toBe(phrases.length);
    for (const phrase of phrases) expect(phrase.length).toBeLessThan(100);
  });

  it('are not written for a notebook the guard is off for', () => {
    const off = defaultNotebook(KEY);
    expect(reduce(off, declined('crash-without-run'), ctx(T0)).record).toBe(off);
  });

  it('once: a second tab saying the same a moment later adds nothing, a later run says it again', () => {
    const once = reduce(enabled(), declined('ending-missing'), ctx(T0)).record;
    expect(reduce(once, declined('ending-missing'), ctx(T0 + 10 * SEC)).record).toBe(once);
    expect(reduce(once, declined('earlier-error'), ctx(T0 + 10 * SEC)).record.history).toHaveLength(2);
    expect(reduce(once, declined('ending-missing'), ctx(T0 + 2 * MIN)).record.history).toHaveLength(2);
  });

  it('not for a run that started before the last restart (already handled)', () => {
    const { record, doneAt } = failAndRestart(enabled(), T0);
    expect(reduce(record, declined('earlier-error', T0 - MIN), ctx(doneAt + SEC)).record).toBe(record);
  });
});

describe('restart markers', () => {
  it('restart after the base delay, without doubling and without counting toward the loop limit', () => {
    const record = enabled({ loopCount: 2, lastRestartAt: T0 - MIN });
    const result = reduce(record, marker(T0), ctx(T0));
    expect(pendingOf(result.record)).toMatchObject({
      reason: 'marker',
      action: 'restart-and-run-all',
      restartAt: T0 + 5 * SEC,
    });
    expect(pendingOf(result.record).verdict).toMatchObject({ category: 'custom', line: 'RESTART_ME please' });
    expect(result.record).toMatchObject({ markerDay: localDay(T0), markerCount: 1, loopCount: 2 });
    expect(result.record.history.at(-1)?.params).toEqual({ why: 'marker', n: 1, max: 100, delaySec: 5 });
  });

  it('wait for the user after a give-up, like failures', () => {
    const record = enabled({ status: { kind: 'gave-up', at: T0, restarts: 3 } });
    expect(reduce(record, marker(T0), ctx(T0)).record).toBe(record);
  });

  it('are bounded per day, with a single note when the limit is reached', () => {
    const settings = { ...defaultSettings(), markerDailyLimit: 2 };
    let record = enabled();
    let now = T0;
    const outcomes: string[] = [];
    for (let i = 0; i < 5; i++) {
      const result = reduce(record, marker(now), ctx(now, settings));
      outcomes.push(result.reply.outcome);
      record = result.record;
      if (result.record.status.kind === 'pending') {
        const { attempt, restartAt } = result.record.status;
        record = reduce(record, { type: 'claim', tabId: TAB, attempt }, ctx(restartAt, settings)).record;
        record = reduce(
          record,
          { type: 'restart-result', tabId: TAB, attempt, ok: true },
          ctx(restartAt + SEC, settings),
        ).record;
        now = restartAt + SEC;
      }
      now += SEC;
    }
    expect(outcomes).toEqual(['scheduled', 'scheduled', 'ignored', 'ignored', 'ignored']);
    expect(record.history.filter((h) => h.type === 'ignored')).toHaveLength(1);
    expect(record).toMatchObject({ loopCount: 0, totalRestarts: 2 });
    expect(record).toMatchObject({ markerDay: localDay(now), markerCount: 3 });

    const tomorrow = new Date(2025, 2, 11, 0, 0, 1).getTime();
    const next = reduce(record, marker(tomorrow), ctx(tomorrow, settings));
    expect(next.reply.outcome).toBe('scheduled');
    expect(next.record).toMatchObject({ markerDay: '2025-03-11', markerCount: 1 });
  });

  it('an over-limit marker after the note changes nothing, so nothing is written', () => {
    const record = enabled({ markerDay: localDay(T0), markerCount: 101 });
    expect(reduce(record, marker(T0), ctx(T0)).record).toBe(record);
  });

  it('a limit of 0 turns markers off, noting it once', () => {
    const settings = { ...defaultSettings(), markerDailyLimit: 0 };
    const first = reduce(enabled(), marker(T0), ctx(T0, settings));
    expect(first.reply.outcome).toBe('ignored');
    expect(first.record.history).toHaveLength(1);
    expect(reduce(first.record, marker(T0 + 1), ctx(T0 + 1, settings)).record).toBe(first.record);
  });

  it('are ignored while off and when stale', () => {
    expect(reduce(defaultNotebook(KEY), marker(T0), ctx(T0)).reply.outcome).toBe('off');
    const record = enabled({ lastRestartAt: T0 });
    expect(reduce(record, marker(T0), ctx(T0 + 1)).record).toBe(record);
  });
});

describe('dialogs only a person may answer', () => {
  const dialog = (at: number, tabId = TAB): PolicyEvent => ({
    type: 'dialog',
    tabId,
    detectedAt: at,
    kind: 'drive-permission',
    text: 'Permit this notebook to access your Google Drive files?',
  });

  it('are noted once in the history, with what Colab asks', () => {
    const { record, reply, effects } = reduce(enabled(), dialog(T0), ctx(T0));
    expect(reply).toMatchObject({ outcome: 'ignored' });
    expect(effects).toMatchObject([{ kind: 'left-to-person', entry: record.history[0] }]);
    expect(record.history).toEqual([
      {
        at: T0,
        type: 'left-to-person',
        params: {
          why: 'dialog',
          dialog: 'drive-permission',
          saw: 'Permit this notebook to access your Google Drive files?',
        },
      },
    ]);
    expect(reduce(record, dialog(T0 + SEC, OTHER_TAB), ctx(T0 + SEC)).record).toBe(record);
    const off = defaultNotebook(KEY);
    expect(reduce(off, dialog(T0), ctx(T0)).record).toBe(off);
  });
});
