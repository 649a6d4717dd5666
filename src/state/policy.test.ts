import * as v from 'valibot';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DisconnectKind } from './disconnect';
import {
  backoffSeconds,
  CLAIM_TOLERANCE_MS,
  cleanTitle,
  createsRecord,
  effectiveMaxRestarts,
  localDay,
  loopCountAt,
  type PolicyContext,
  type PolicyEvent,
  RESTART_TIMEOUT_MS,
  reduce,
} from './policy';
import {
  DECLINED,
  type DeclineReason,
  defaultNotebook,
  defaultSettings,
  type NotebookRecord,
  NotebookRecordSchema,
  parseNotebook,
  type Settings,
  type Verdict,
} from './schema';

/** README: a countdown that ran out "more than 2 minutes" before any page of the notebook was open is skipped. */
const COUNTDOWN_GRACE_MS = 2 * 60_000;
/** README: "the last 200 events per notebook". */
const HISTORY_LIMIT = 200;

const KEY = 'drive:1AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const T0 = new Date(2025, 2, 10, 12, 0, 0).getTime(); // local noon, so day arithmetic is timezone-independent
const SEC = 1000;
const MIN = 60 * SEC;
const TAB = 7;
const OTHER_TAB = 8;

const cudaOom: Verdict = {
  category: 'gpu-oom',
  rule: 'torch-cuda-oom',
  description: 'CUDA out of memory',
  line: 'torch.OutOfMemoryError: CUDA out of memory.',
};

let attempts = 0;
beforeEach(() => {
  attempts = 0;
});

const SESSION = 'session-1';

function ctx(now: number, settings: Settings = defaultSettings(), session = SESSION): PolicyContext {
  return { now, settings, session, newAttemptId: () => `attempt-${++attempts}` };
}

function enabled(overrides: Partial<NotebookRecord> = {}): NotebookRecord {
  return { ...defaultNotebook(KEY), title: 'train.ipynb', enabled: true, ...overrides };
}

type FailureEvent = Extract<PolicyEvent, { type: 'failure' }>;

function failure(detectedAt: number, extra: Partial<FailureEvent> = {}): FailureEvent {
  return {
    type: 'failure',
    tabId: TAB,
    detectedAt,
    startedAt: detectedAt,
    verdict: cudaOom,
    source: 'error-output',
    ...extra,
  };
}

function marker(detectedAt: number, tabId = TAB): Extract<PolicyEvent, { type: 'marker' }> {
  return { type: 'marker', tabId, detectedAt, pattern: 'RESTART_ME', line: 'RESTART_ME please' };
}

function pendingOf(record: NotebookRecord) {
  if (record.status.kind !== 'pending') throw new Error(`expected pending, got ${record.status.kind}`);
  return record.status;
}

/** A failure at `now`, the owner claiming at the deadline, and the restart succeeding. */
function failAndRestart(record: NotebookRecord, now: number, settings = defaultSettings()) {
  const scheduled = reduce(record, failure(now), ctx(now, settings)).record;
  const { restartAt, attempt } = pendingOf(scheduled);
  const claimed = reduce(scheduled, { type: 'claim', tabId: TAB, attempt }, ctx(restartAt, settings));
  expect(claimed.reply).toEqual({ granted: true, action: 'restart-and-run-all' });
  const done = reduce(
    claimed.record,
    { type: 'restart-result', tabId: TAB, attempt, ok: true },
    ctx(restartAt + 2 * SEC, settings),
  );
  return {
    record: done.record,
    effects: done.effects,
    delay: (restartAt - now) / SEC,
    startedAt: restartAt,
    doneAt: restartAt + 2 * SEC,
  };
}

describe('failure reports', () => {
  it('do nothing while the guard is off', () => {
    const record = defaultNotebook(KEY);
    const result = reduce(record, failure(T0), ctx(T0));
    expect(result.reply).toEqual({ outcome: 'off', reason: expect.any(String) });
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
    expect(attempts).toBe(1);
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
        reason: expect.stringMatching(/older than the last restart/),
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
  const ALREADY = /^Already handled/;

  it("a failure of an execution that began before the last restart's claim is ignored and noted as handled", () => {
    const { record, startedAt: claimedAt, doneAt } = failAndRestart(enabled(), T0);
    // The second tab shows the same failure, late: its execution began before the claim.
    const late = reduce(record, failure(doneAt + 10 * SEC, { startedAt: T0 - MIN, tabId: 9 }), ctx(doneAt + 11 * SEC));
    expect(late.reply).toEqual({ outcome: 'ignored', reason: expect.stringMatching(ALREADY) });
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
    expect(late.reply).toMatchObject({ outcome: 'ignored', reason: expect.stringMatching(ALREADY) });
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
    expect(attempts).toBe(3);
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

describe('the owner tab closing', () => {
  it('ends its restart in progress as interrupted (counted, not retried); leaves a countdown for another tab', () => {
    const scheduled = reduce(enabled(), failure(T0), ctx(T0)).record;
    const { attempt, restartAt } = pendingOf(scheduled);
    expect(
      reduce(scheduled, { type: 'tab-closed', tabId: TAB, gone: 'closed', othersShow: true }, ctx(T0 + SEC)).record,
    ).toBe(scheduled);
    const running = reduce(scheduled, { type: 'claim', tabId: TAB, attempt }, ctx(restartAt)).record;
    expect(
      reduce(running, { type: 'tab-closed', tabId: OTHER_TAB, gone: 'closed', othersShow: true }, ctx(restartAt + SEC))
        .record,
    ).toBe(running);
    const closed = reduce(
      running,
      { type: 'tab-closed', tabId: TAB, gone: 'closed', othersShow: true },
      ctx(restartAt + SEC),
    ).record;
    expect(closed.status.kind).toBe('watching');
    expect(closed).toMatchObject({ loopCount: 1, totalRestarts: 1 });
    expect(closed.history.at(-1)?.type).toBe('interrupted');
  });
});

describe('a tab gone while its run went on', () => {
  const busy = (tabId = TAB): PolicyEvent => ({ type: 'activity', tabId, busy: true });
  const gone = (gone: 'closed' | 'discarded' | 'navigated', othersShow = false, tabId = TAB): PolicyEvent => ({
    type: 'tab-closed',
    tabId,
    gone,
    othersShow,
  });

  it('closed, discarded or navigated away with cells under way: a history entry and an alert, saying how', () => {
    const running = reduce(enabled(), busy(), ctx(T0)).record;
    for (const way of ['closed', 'discarded', 'navigated'] as const) {
      const { record, effects } = reduce(running, gone(way), ctx(T0 + MIN));
      const entry = { at: T0 + MIN, type: 'tab-gone', params: { why: way, tab: TAB } };
      expect(record.history.at(-1)).toEqual(entry);
      expect(effects).toEqual([{ type: 'notify', kind: 'tab-gone', key: KEY, title: running.title, entry }]);
    }
  });

  it('the tab counting down to a restart, or restarting, is the run too', () => {
    const scheduled = reduce(enabled(), failure(T0), ctx(T0)).record;
    expect(reduce(scheduled, gone('closed'), ctx(T0 + SEC)).effects.map((e) => e.kind)).toEqual(['tab-gone']);
    const { attempt, restartAt } = pendingOf(scheduled);
    const running = reduce(scheduled, { type: 'claim', tabId: TAB, attempt }, ctx(restartAt)).record;
    const closed = reduce(running, gone('closed'), ctx(restartAt + SEC));
    expect(closed.record.history.slice(-2).map((e) => e.type)).toEqual(['interrupted', 'tab-gone']);
    expect(closed.effects.map((e) => e.kind)).toEqual(['tab-gone']);
  });

  it('nothing is told when another tab still shows the notebook, or the tab carried no run', () => {
    const running = reduce(enabled(), busy(), ctx(T0)).record;
    expect(reduce(running, gone('closed', true), ctx(T0 + MIN)).effects).toEqual([]);
    expect(reduce(running, gone('closed', false, OTHER_TAB), ctx(T0 + MIN)).effects).toEqual([]);
    expect(reduce(enabled(), gone('closed'), ctx(T0 + MIN)).record.history).toEqual([]);
    const off = reduce(running, { type: 'set-enabled', enabled: false }, ctx(T0 + SEC)).record;
    expect(reduce(off, gone('closed'), ctx(T0 + MIN)).effects).toEqual([]);
  });

  it('is told once, though the browser reports the navigation again', () => {
    const scheduled = reduce(enabled(), failure(T0), ctx(T0)).record;
    const first = reduce(scheduled, gone('navigated'), ctx(T0 + SEC)).record;
    const again = reduce(first, gone('navigated'), ctx(T0 + 2 * SEC));
    expect(again.effects).toEqual([]);
    expect(again.record.history.filter((e) => e.type === 'tab-gone')).toHaveLength(1);
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

describe('claims', () => {
  function scheduled() {
    const record = reduce(enabled(), failure(T0), ctx(T0)).record;
    return { record, status: pendingOf(record) };
  }

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
    expect(result.reply).toEqual({ granted: false, reason: 'The guard is off for this notebook' });
    expect(result.record.status.kind).toBe('pending');
  });

  it('tolerate a timer firing slightly early, but not more', () => {
    const { record, status } = scheduled();
    const claim = { type: 'claim', tabId: TAB, attempt: status.attempt } as const;
    expect(reduce(record, claim, ctx(status.restartAt - CLAIM_TOLERANCE_MS)).reply).toMatchObject({ granted: true });
    const early = reduce(record, claim, ctx(status.restartAt - CLAIM_TOLERANCE_MS - 1));
    expect(early.reply).toEqual({ granted: false, reason: 'Too early: 1 s left' });
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
    expect(again.reply).toEqual({ granted: false, reason: 'A restart is already in progress' });
    expect(again.record).toBe(granted);
  });

  it('are refused to another tab, even with the right attempt', () => {
    const { record, status } = scheduled();
    const result = reduce(record, { type: 'claim', tabId: OTHER_TAB, attempt: status.attempt }, ctx(status.restartAt));
    expect(result.reply).toEqual({ granted: false, reason: 'Another tab owns this restart' });
    expect(result.record).toBe(record);
  });

  it('are refused for a wrong or old attempt', () => {
    const { record, status } = scheduled();
    expect(reduce(record, { type: 'claim', tabId: TAB, attempt: 'attempt-0' }, ctx(status.restartAt)).reply).toEqual({
      granted: false,
      reason: 'This restart was cancelled or replaced',
    });
  });

  it('are refused when nothing is pending', () => {
    expect(reduce(enabled(), { type: 'claim', tabId: TAB, attempt: 'attempt-1' }, ctx(T0)).reply).toEqual({
      granted: false,
      reason: 'No restart is pending',
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
  function scheduled() {
    const record = reduce(enabled(), failure(T0), ctx(T0)).record;
    return { record, status: pendingOf(record) };
  }

  it('are granted up to 2 min late: hidden tabs run timers up to a minute late', () => {
    const { record, status } = scheduled();
    const claim = { type: 'claim' as const, tabId: TAB, attempt: status.attempt };
    expect(reduce(record, claim, ctx(status.restartAt + COUNTDOWN_GRACE_MS)).reply).toMatchObject({ granted: true });
  });

  it('later (a computer waking from sleep): refused, and the countdown starts again in the same tab', () => {
    const { record, status } = scheduled();
    const woke = status.restartAt + 3 * 60 * MIN;
    const result = reduce(record, { type: 'claim', tabId: TAB, attempt: status.attempt }, ctx(woke));
    expect(result.reply).toEqual({ granted: false, reason: expect.stringContaining('late') });
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
      message: expect.stringMatching(/already started/),
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

describe('adopt (a page arrived on the notebook)', () => {
  function scheduled() {
    const record = reduce(enabled(), failure(T0), ctx(T0)).record;
    return { record, status: pendingOf(record) };
  }

  it('the owner reloading starts its countdown again from the base delay, with a new attempt', () => {
    // Restart 2 of a loop: a 10 s back-off, reloaded 2 s in. The stored deadline would fire unseen after a late load.
    const { record, status } = (() => {
      const first = failAndRestart(enabled(), T0).record;
      const again = reduce(first, failure(T0 + MIN), ctx(T0 + MIN)).record;
      return { record: again, status: pendingOf(again) };
    })();
    expect(status.restartAt).toBe(T0 + MIN + 10 * SEC);
    const now = T0 + MIN + 2 * SEC;
    const result = reduce(record, { type: 'adopt', tabId: TAB, ownerAlive: true }, ctx(now));
    expect(result.reply).toEqual({ owner: true });
    const carried = pendingOf(result.record);
    expect(carried).toMatchObject({ ownerTab: TAB, restartAt: now + 5 * SEC, session: SESSION });
    expect(carried.attempt).not.toBe(status.attempt);
    expect(result.record.history.at(-1)).toMatchObject({ type: 'resumed', at: now });
    expect(result.record.loopCount).toBe(1);
    // The old page's attempt is void; the new one is claimed at the new deadline.
    const old = reduce(result.record, { type: 'claim', tabId: TAB, attempt: status.attempt }, ctx(status.restartAt));
    expect(old.reply).toMatchObject({ granted: false });
    const claim = { type: 'claim' as const, tabId: TAB, attempt: carried.attempt };
    expect(reduce(result.record, claim, ctx(now + 3 * SEC)).reply).toMatchObject({ granted: false });
    expect(reduce(result.record, claim, ctx(now + 5 * SEC)).reply).toMatchObject({ granted: true });
  });

  it('a second tab watches while the owner lives', () => {
    const { record } = scheduled();
    expect(reduce(record, { type: 'adopt', tabId: OTHER_TAB, ownerAlive: true }, ctx(T0))).toMatchObject({
      record,
      reply: { owner: false },
    });
  });

  it('a tab takes the countdown over when the owner is gone, from the base delay: one restart', () => {
    const { record, status } = scheduled();
    const adopted = reduce(record, { type: 'adopt', tabId: OTHER_TAB, ownerAlive: false }, ctx(T0 + 2 * SEC));
    expect(adopted.reply).toEqual({ owner: true });
    const carried = pendingOf(adopted.record);
    expect(carried).toMatchObject({ ownerTab: OTHER_TAB, restartAt: T0 + 7 * SEC, verdict: cudaOom });
    expect(adopted.record.history.at(-1)).toMatchObject({ type: 'resumed' });
    expect(adopted.record.loopCount).toBe(0);

    const oldOwner = reduce(adopted.record, { type: 'claim', tabId: TAB, attempt: status.attempt }, ctx(T0 + 7 * SEC));
    expect(oldOwner.reply).toMatchObject({ granted: false });
    const heir = { type: 'claim' as const, tabId: OTHER_TAB, attempt: carried.attempt };
    expect(reduce(adopted.record, heir, ctx(T0 + 7 * SEC)).reply).toMatchObject({ granted: true });
  });

  it('a tab returning within 2 min of the deadline gets a whole new countdown, so nothing fires at load', () => {
    const { record, status } = scheduled();
    const back = status.restartAt + COUNTDOWN_GRACE_MS;
    const adopted = reduce(record, { type: 'adopt', tabId: TAB, ownerAlive: true }, ctx(back));
    expect(adopted.reply).toEqual({ owner: true });
    expect(pendingOf(adopted.record).restartAt).toBe(back + 5 * SEC);
  });

  it('a countdown whose deadline passed more than 2 min ago with no page is skipped, not carried', () => {
    const { record, status } = scheduled();
    const later = status.restartAt + COUNTDOWN_GRACE_MS + 1;
    for (const event of [
      { type: 'adopt', tabId: OTHER_TAB, ownerAlive: false },
      { type: 'adopt', tabId: TAB, ownerAlive: true },
      { type: 'adopt', tabId: OTHER_TAB, ownerAlive: true },
    ] as const) {
      const result = reduce(record, event, ctx(later));
      expect(result.reply).toEqual({ owner: false });
      expect(result.record.status).toEqual({ kind: 'watching' });
      expect(result.record.history.at(-1)).toMatchObject({
        type: 'skipped',
        at: later,
        verdict: cudaOom,
        action: 'restart-and-run-all',
        params: { minutes: 2 },
      });
      expect(result.record).toMatchObject({ loopCount: 0, totalRestarts: 0 });
    }
    const claim = { type: 'claim' as const, tabId: OTHER_TAB, attempt: status.attempt };
    expect(reduce(record, claim, ctx(later)).reply).toMatchObject({ granted: false });
  });

  it('a week-old countdown never runs on the next visit; a new failure there starts a new one', () => {
    const { record } = scheduled();
    const visit = T0 + 7 * 24 * 60 * MIN;
    const opened = reduce(record, { type: 'adopt', tabId: OTHER_TAB, ownerAlive: false }, ctx(visit)).record;
    expect(opened.status.kind).toBe('watching');
    const again = reduce(opened, failure(visit + MIN, { tabId: OTHER_TAB }), ctx(visit + MIN));
    expect(again.reply).toMatchObject({ outcome: 'scheduled', restartAt: visit + MIN + 5 * SEC });
  });

  it('a countdown of another browser session has no live owner, whatever its tab id', () => {
    const { record, status } = scheduled();
    const restarted = ctx(T0 + 2 * SEC, defaultSettings(), 'session-2');
    const same = reduce(record, { type: 'adopt', tabId: TAB, ownerAlive: true }, restarted);
    expect(same.reply).toEqual({ owner: true });
    expect(pendingOf(same.record)).toMatchObject({ ownerTab: TAB, restartAt: T0 + 7 * SEC, session: 'session-2' });
    const other = reduce(record, { type: 'adopt', tabId: OTHER_TAB, ownerAlive: true }, restarted);
    expect(pendingOf(other.record)).toMatchObject({ ownerTab: OTHER_TAB, session: 'session-2' });
    // After the 2-minute bound it is gone for good.
    const late = ctx(status.restartAt + COUNTDOWN_GRACE_MS + SEC, defaultSettings(), 'session-2');
    expect(reduce(record, { type: 'adopt', tabId: TAB, ownerAlive: true }, late).record.status.kind).toBe('watching');
  });

  it('a countdown stored before sessions were kept belongs to no live page', () => {
    const { record } = scheduled();
    const { session: _, ...legacy } = pendingOf(record);
    const old: NotebookRecord = { ...record, status: legacy };
    const result = reduce(old, { type: 'adopt', tabId: OTHER_TAB, ownerAlive: true }, ctx(T0 + SEC));
    expect(pendingOf(result.record)).toMatchObject({ ownerTab: OTHER_TAB, restartAt: T0 + 6 * SEC });
  });

  it('the owner reloading mid-restart: the outcome is unknown, counted, never retried', () => {
    const { record, status } = scheduled();
    const running = reduce(
      record,
      { type: 'claim', tabId: TAB, attempt: status.attempt },
      ctx(status.restartAt),
    ).record;
    const result = reduce(running, { type: 'adopt', tabId: TAB, ownerAlive: true }, ctx(status.restartAt + 3 * SEC));
    expect(result.reply).toEqual({ owner: false });
    expect(result.record).toMatchObject({
      status: { kind: 'watching' },
      loopCount: 1,
      totalRestarts: 1,
      lastRestartAt: status.restartAt,
    });
    expect(result.record.history.at(-1)).toMatchObject({ type: 'interrupted' });
    expect(
      reduce(result.record, { type: 'claim', tabId: TAB, attempt: status.attempt }, ctx(status.restartAt + 4 * SEC))
        .reply,
    ).toMatchObject({ granted: false });
  });

  it('a restart owned by a closed tab is interrupted; one owned by a live tab is left alone', () => {
    const { record, status } = scheduled();
    const running = reduce(
      record,
      { type: 'claim', tabId: TAB, attempt: status.attempt },
      ctx(status.restartAt),
    ).record;
    expect(
      reduce(running, { type: 'adopt', tabId: OTHER_TAB, ownerAlive: true }, ctx(status.restartAt + SEC)).record,
    ).toBe(running);
    expect(
      reduce(running, { type: 'adopt', tabId: OTHER_TAB, ownerAlive: false }, ctx(status.restartAt + SEC)).record.status
        .kind,
    ).toBe('watching');
  });

  it('changes nothing when no restart is under way', () => {
    const record = enabled();
    expect(reduce(record, { type: 'adopt', tabId: TAB, ownerAlive: false }, ctx(T0))).toMatchObject({
      record,
      reply: { owner: false },
    });
  });
});

describe('what the reducer leaves for storage', () => {
  it('only a switch or a limit of its own creates a record', () => {
    const creating: PolicyEvent[] = [
      { type: 'set-enabled', enabled: true },
      { type: 'set-max-restarts', value: 4 },
    ];
    const others: PolicyEvent[] = [
      { type: 'set-title', title: 'train.ipynb' },
      { type: 'adopt', tabId: TAB, ownerAlive: false },
      failure(T0),
      { type: 'cancel' },
    ];
    expect(creating.map(createsRecord)).toEqual([true, true]);
    expect(others.map(createsRecord)).toEqual([false, false, false, false]);
  });

  it('stamps touchedAt on every change but a new title, and leaves an unchanged record the same object', () => {
    const record = enabled({ touchedAt: T0 - MIN });
    expect(reduce(record, failure(T0), ctx(T0)).record.touchedAt).toBe(T0);
    expect(reduce(record, { type: 'set-title', title: 'other' }, ctx(T0)).record.touchedAt).toBe(T0 - MIN);
    expect(reduce(record, { type: 'cancel' }, ctx(T0)).record).toBe(record);
  });

  it('drops history entries older than 90 days whenever one is added', () => {
    const day = 24 * 60 * MIN;
    const record = enabled({
      history: [
        { at: T0 - 91 * day, type: 'enabled' },
        { at: T0 - 89 * day, type: 'cancelled' },
      ],
    });
    const next = reduce(record, failure(T0), ctx(T0)).record;
    expect(next.history.map((e) => e.type)).toEqual(['cancelled', 'restart-scheduled']);
  });

  it('removes control and bidirectional characters from titles', () => {
    expect(cleanTitle('  \u202Egnp.ipynb\u202C\u0007 ')).toBe('gnp.ipynb');
    expect(cleanTitle('a\u2066b\u2069\u200Fc\nd')).toBe('abcd');
    const record = enabled();
    expect(reduce(record, { type: 'set-title', title: '\u202Etrain' }, ctx(T0)).record.title).toBe('train');
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

describe('disconnects', () => {
  const RECONNECT = { ...defaultSettings(), reconnectOnDisconnect: true, backoffBaseSec: 5 };
  const IDLE_TEXT = 'Runtime disconnected Your runtime has been disconnected due to inactivity.';
  const disconnect = (kind: DisconnectKind, at = T0, line = IDLE_TEXT, tabId = TAB): PolicyEvent => ({
    type: 'disconnect',
    tabId,
    detectedAt: at,
    kind,
    line,
  });

  /** The owner claims the pending reconnect at its deadline; the page reports `result`. */
  function claimAndReport(
    record: NotebookRecord,
    result: Partial<Extract<PolicyEvent, { type: 'restart-result' }>>,
    settings = RECONNECT,
  ) {
    const { restartAt, attempt } = pendingOf(record);
    const claimed = reduce(record, { type: 'claim', tabId: TAB, attempt }, ctx(restartAt, settings));
    expect(claimed.reply).toEqual({ granted: true, action: 'reconnect-and-run-all' });
    const event = { type: 'restart-result', tabId: TAB, attempt, ok: true, ...result } as PolicyEvent;
    return { at: restartAt + 3 * SEC, ...reduce(claimed.record, event, ctx(restartAt + 3 * SEC, settings)) };
  }

  const unableResult = {
    ok: false,
    failed: { step: 'reconnect', reason: 'unable-to-connect', saw: 'Unable to connect to the runtime.' },
    runtime: 'unable-to-connect',
  } as const;

  it('are ignored unless reconnecting is switched on', () => {
    const record = enabled();
    expect(reduce(record, disconnect('idle'), ctx(T0))).toMatchObject({ record, reply: { outcome: 'ignored' } });
  });

  it('an idle time-out: reconnect and run all when switched on, counting toward the loop limit', () => {
    const result = reduce(enabled(), disconnect('idle'), ctx(T0, RECONNECT));
    expect(pendingOf(result.record)).toMatchObject({
      reason: 'disconnect',
      action: 'reconnect-and-run-all',
      verdict: { rule: 'runtime-disconnected', description: 'Runtime disconnected', line: IDLE_TEXT },
    });
    expect(
      reduce(enabled({ loopCount: 3, lastRestartAt: T0 - MIN }), disconnect('idle'), ctx(T0, RECONNECT)).record.status
        .kind,
    ).toBe('gave-up');
  });

  describe('the ones Colab or the notebook meant, or the guard cannot read, are left to the person', () => {
    const LEFT: Array<[DisconnectKind, string, string]> = [
      ['disallowed-code', 'disconnected-disallowed-code', 'Runtime disconnected: disallowed code'],
      ['zero-units', 'disconnected-zero-units', 'Runtime disconnected: no compute units'],
      ['usage-limit', 'disconnected-usage-limit', 'Runtime disconnected: usage limits'],
      ['intended', 'runtime-ended-by-notebook', 'Runtime ended by the notebook'],
      ['unknown', 'disconnected-unknown', 'Runtime disconnected: unrecognised message'],
    ];
    for (const [kind, rule, description] of LEFT) {
      it(`${kind}: never scheduled, whatever the setting; the history says what Colab said`, () => {
        const said = `Runtime disconnected (${kind} words)`;
        for (const settings of [defaultSettings(), RECONNECT]) {
          const result = reduce(enabled(), disconnect(kind, T0, said), ctx(T0, settings));
          expect(result.reply).toMatchObject({ outcome: 'ignored' });
          expect(result.record.status).toEqual({ kind: 'watching' });
          expect(result.record.history).toEqual([
            {
              at: T0,
              type: 'left-to-person',
              params: { why: 'disconnect' },
              verdict: { category: 'colab-crash', rule, description, line: said },
            },
          ]);
          expect(result.record.loopCount).toBe(0);
          expect(result.record.lastFailureAt).toBeUndefined();
          expect(result.effects).toEqual([
            {
              type: 'notify',
              kind: 'left-to-person',
              key: KEY,
              title: 'train.ipynb',
              entry: result.record.history[0],
            },
          ]);
        }
      });
    }

    it('a countdown due is cancelled: it would run the notebook again on a new runtime', () => {
      const pending = reduce(enabled(), failure(T0), ctx(T0, RECONNECT)).record;
      const result = reduce(pending, disconnect('disallowed-code', T0 + SEC, 'disallowed'), ctx(T0 + SEC, RECONNECT));
      expect(result.record.status).toEqual({ kind: 'watching' });
      expect(result.record.history.at(-1)).toMatchObject({
        type: 'left-to-person',
        params: { why: 'disconnect', cancelled: true },
        verdict: { description: 'Runtime disconnected: disallowed code' },
      });
      // Its claim finds nothing to do.
      const { attempt } = pendingOf(pending);
      expect(reduce(result.record, { type: 'claim', tabId: TAB, attempt }, ctx(T0 + 6 * SEC, RECONNECT)).reply).toEqual(
        { granted: false, reason: 'No restart is pending' },
      );
    });

    it('is written once while every tab shows the same notice, and again when it comes back later', () => {
      let record = reduce(enabled(), disconnect('zero-units', T0, 'zero'), ctx(T0)).record;
      const once = reduce(record, disconnect('zero-units', T0 + SEC, 'zero', OTHER_TAB), ctx(T0 + SEC));
      expect(once.record).toBe(record);
      expect(once.effects).toEqual([]);
      record = reduce(record, disconnect('zero-units', T0 + 11 * MIN, 'zero'), ctx(T0 + 11 * MIN)).record;
      expect(record.history.filter((e) => e.type === 'left-to-person')).toHaveLength(2);
    });

    it('nothing is written while the guard is off', () => {
      const record = defaultNotebook(KEY);
      expect(reduce(record, disconnect('disallowed-code'), ctx(T0))).toMatchObject({
        record,
        reply: { outcome: 'off' },
      });
    });
  });

  describe('Colab unable to connect (an outage): one reconnect per crash-loop slot, then the guard gives up', () => {
    it('each attempt is counted, the next waits its back-off as a countdown, the last gives up in words', () => {
      const settings = { ...RECONNECT, maxRestarts: 2 };
      let { record } = reduce(enabled(), disconnect('unable-to-connect', T0, 'Unable to connect'), ctx(T0, settings));
      expect(pendingOf(record)).toMatchObject({
        reason: 'disconnect',
        action: 'reconnect-and-run-all',
        restartAt: T0 + 5 * SEC,
        verdict: { rule: 'unable-to-connect', description: 'Colab could not connect to the runtime' },
      });
      const first = claimAndReport(record, unableResult, settings);
      record = first.record;
      expect(record.loopCount).toBe(1);
      expect(record.lastRestartAt).toBe(T0 + 5 * SEC);
      expect(pendingOf(record)).toMatchObject({ action: 'reconnect-and-run-all', restartAt: first.at + 10 * SEC });
      expect(record.history.slice(-2)).toMatchObject([
        {
          type: 'restart-failed',
          failed: unableResult.failed,
          verdict: { rule: 'unable-to-connect', line: 'unable-to-connect; saw: Unable to connect to the runtime.' },
          action: 'reconnect-and-run-all',
        },
        {
          type: 'restart-scheduled',
          params: { why: 'reconnect', n: 2, max: 2, delaySec: 10 },
          action: 'reconnect-and-run-all',
        },
      ]);
      // The toast Colab showed during the attempt, reported after it: the next slot's attempt is already pending.
      expect(
        reduce(record, disconnect('unable-to-connect', first.at + SEC, 'Unable'), ctx(first.at + SEC, settings)).reply,
      ).toMatchObject({ outcome: 'absorbed' });
      const second = claimAndReport(record, unableResult, settings);
      expect(second.record.status).toEqual({ kind: 'gave-up', at: second.at, restarts: 2 });
      expect(second.record.history.at(-1)).toMatchObject({
        type: 'gave-up',
        params: { why: 'unable-to-connect', n: 2, max: 2 },
        verdict: { rule: 'unable-to-connect' },
      });
      expect(second.effects).toEqual([expect.objectContaining({ type: 'notify', kind: 'gave-up' })]);
      expect(
        reduce(second.record, disconnect('unable-to-connect', second.at + SEC), ctx(second.at + SEC, settings)).reply,
      ).toMatchObject({ outcome: 'ignored' });
    });

    it('a reconnect that finds the runtime connected again does nothing and counts nothing', () => {
      const pending = reduce(enabled(), disconnect('unable-to-connect'), ctx(T0, RECONNECT)).record;
      const done = claimAndReport(pending, {
        ok: false,
        failed: { step: 'reconnect', reason: 'not-needed', saw: 'runtime busy' },
        runtime: 'not-needed',
      });
      expect(done.record.status).toEqual({ kind: 'watching' });
      expect(done.record.loopCount).toBe(0);
      expect(done.record.totalRestarts).toBe(0);
      expect(done.record.history.at(-1)).toMatchObject({
        type: 'ignored',
        params: { why: 'reconnect-not-needed' },
      });
    });

    it('a reconnect that fails any other way is a UI problem: the guard stops', () => {
      const pending = reduce(enabled(), disconnect('idle'), ctx(T0, RECONNECT)).record;
      const failed = { step: 'reconnect', reason: 'drive-permission', saw: '' } as const;
      const done = claimAndReport(pending, { ok: false, failed });
      expect(done.record.status).toMatchObject({ kind: 'ui-problem', failed });
    });
  });

  describe('reconnects are bounded like restarts', () => {
    it('each one done counts toward the crash loop, with the back-off growing, and a healthy stretch resets it', () => {
      let record = enabled();
      const delays: number[] = [];
      let at = T0;
      for (let i = 0; i < 3; i++) {
        record = reduce(record, disconnect('idle', at), ctx(at, RECONNECT)).record;
        delays.push((pendingOf(record).restartAt - at) / SEC);
        const done = claimAndReport(record, {});
        record = done.record;
        at = done.at + SEC;
      }
      expect(delays).toEqual([5, 10, 20]);
      expect(record.loopCount).toBe(3);
      expect(reduce(record, disconnect('idle', at), ctx(at, RECONNECT)).record.status.kind).toBe('gave-up');
      const later = at + RECONNECT.healthyMinutes * MIN;
      expect(pendingOf(reduce(record, disconnect('idle', later), ctx(later, RECONNECT)).record)).toMatchObject({
        restartAt: later + 5 * SEC,
      });
    });
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

describe('invariants', () => {
  it('every record the reducer produces reads back valid, with a bounded history', () => {
    // A deterministic pseudo-random walk through all events, including hostile inputs.
    let seed = 42;
    const random = (n: number) => {
      // mulberry32
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    const settings = { ...defaultSettings(), reconnectOnDisconnect: true, markerDailyLimit: 5 };
    let record = enabled();
    let now = T0;
    const visited = new Set<string>();
    let skipped = 0;
    for (let i = 0; i < 3000; i++) {
      // Now and then a long gap (a computer asleep) or an event from another browser session.
      now += random(20) * SEC + (random(40) === 0 ? 10 * MIN : 0);
      const session = random(20) === 0 ? 'session-2' : SESSION;
      const tabId = random(2) === 0 ? TAB : OTHER_TAB;
      const status = record.status;
      const attempt = status.kind === 'pending' || status.kind === 'restarting' ? status.attempt : 'none';
      const events: PolicyEvent[] = [
        failure(now - random(5) * SEC, { tabId, verdict: { ...cudaOom, line: 'x'.repeat(5000) } }),
        failure(now, { tabId, source: 'crash-toast' }),
        marker(now, tabId),
        { type: 'disconnect', tabId, detectedAt: now, kind: 'idle', line: 'gone' },
        { type: 'disconnect', tabId, detectedAt: now, kind: 'disallowed-code', line: 'gone' },
        { type: 'dialog', tabId, detectedAt: now, kind: 'drive-permission', text: 'Drive?' },
        {
          type: 'restart-result',
          tabId,
          attempt,
          ok: false,
          failed: { step: 'reconnect', reason: 'unable-to-connect', saw: 'u' },
          runtime: 'unable-to-connect',
        },
        {
          type: 'restart-result',
          tabId,
          attempt,
          ok: false,
          failed: { step: 'reconnect', reason: 'not-needed', saw: 'n' },
          runtime: 'not-needed',
        },
        { type: 'claim', tabId, attempt },
        { type: 'restart-result', tabId, attempt, ok: true },
        {
          type: 'restart-result',
          tabId,
          attempt,
          ok: false,
          failed: { step: 'verify', reason: 'r'.repeat(300), saw: 'd'.repeat(3000) },
        },
        { type: 'cancel' },
        { type: 'rearm' },
        { type: 'reset-counter' },
        { type: 'set-enabled', enabled: random(4) !== 0 },
        { type: 'set-max-restarts', value: random(3) === 0 ? null : random(6) },
        { type: 'set-title', title: 't'.repeat(random(700)) },
        { type: 'adopt', tabId, ownerAlive: random(2) === 0 },
        { type: 'activity', tabId, busy: random(2) === 0 },
        { type: 'tab-closed', tabId, gone: 'discarded', othersShow: random(2) === 0 },
        {
          type: 'declined',
          detectedAt: now,
          startedAt: now,
          reason: 'earlier-error',
          verdict: { ...cudaOom, line: 'y'.repeat(5000) },
        },
      ];
      const event = events[random(events.length)]!;
      record = reduce(record, event, ctx(now, settings, session)).record;
      if (record.history.at(-1)?.type === 'skipped') skipped++;
      visited.add(record.status.kind);
      const check = v.safeParse(NotebookRecordSchema, record);
      if (!check.success)
        throw new Error(`invalid after ${event.type}: ${JSON.stringify(check.issues[0].path?.map((p) => p.key))}`);
    }
    expect(record.history.length).toBeLessThanOrEqual(HISTORY_LIMIT);
    expect(record.totalRestarts).toBeGreaterThan(0);
    expect([...visited].sort(), `skipped ${skipped}`).toEqual([
      'gave-up',
      'pending',
      'restarting',
      'ui-problem',
      'watching',
    ]);
    expect(skipped).toBeGreaterThan(0);
  });
});

describe('what the reducer says, and the edges the walk above does not pin', () => {
  it('every refusal, absorbed or ignored report and history entry says why, in words', () => {
    const settings = { ...defaultSettings(), reconnectOnDisconnect: true, markerDailyLimit: 1 };
    const said: string[] = [];
    const note = (text: string | undefined) => {
      if (text !== undefined) said.push(text);
    };
    let record = enabled();
    let now = T0;
    const step = (event: PolicyEvent, s = settings, session = SESSION) => {
      const result = reduce(record, event, ctx(now, s, session));
      const reply = result.reply as { reason?: string; message?: string };
      note(reply.reason);
      note(reply.message);
      for (const entry of result.record.history.slice(record.history.length)) {
        expect(entry.detail).toBeUndefined();
        for (const value of Object.values(entry.params ?? {})) expect(String(value)).not.toMatch(/^$|undefined|NaN/);
      }
      record = result.record;
      return result;
    };
    step({ ...failure(now), verdict: { ...cudaOom, category: 'gpu-fault' } });
    for (let i = 0; i < 5; i++) {
      step(failure(now));
      step(failure(now));
      const pending = record.status.kind === 'pending' ? record.status : null;
      if (!pending) break;
      step({ type: 'restart-result', tabId: TAB, attempt: pending.attempt, ok: true });
      now = pending.restartAt;
      step({ type: 'claim', tabId: OTHER_TAB, attempt: pending.attempt });
      step({ type: 'claim', tabId: TAB, attempt: pending.attempt });
      step({ type: 'claim', tabId: TAB, attempt: pending.attempt });
      now += SEC;
      step(failure(now));
      step({ type: 'restart-result', tabId: TAB, attempt: pending.attempt, ok: true });
      now += MIN;
    }
    step(failure(now));
    step(marker(now));
    step({ type: 'rearm' });
    step(marker(now));
    step(marker(now));
    step({ type: 'disconnect', tabId: TAB, detectedAt: now, kind: 'idle', line: 'Runtime disconnected' });
    step({ type: 'set-max-restarts', value: -1 });
    step(
      { type: 'disconnect', tabId: TAB, detectedAt: now, kind: 'idle', line: 'Runtime disconnected' },
      defaultSettings(),
    );
    step({ type: 'set-enabled', enabled: false });
    step(failure(now));
    step({ type: 'disconnect', tabId: TAB, detectedAt: now, kind: 'idle', line: 'Runtime disconnected' });
    expect(said.length).toBeGreaterThan(15);
    for (const text of said) {
      expect(text.trim().length, JSON.stringify(said)).toBeGreaterThan(3);
      expect(text).not.toMatch(/undefined|NaN|\[object/);
    }
  });

  it('a disconnect: nothing while off, even with reconnecting on; absorbed while a restart is pending', () => {
    const settings = { ...defaultSettings(), reconnectOnDisconnect: true };
    const disconnect = {
      type: 'disconnect' as const,
      tabId: TAB,
      detectedAt: T0,
      kind: 'idle' as const,
      line: 'Runtime disconnected',
    };
    const off = { ...enabled(), enabled: false };
    expect(reduce(off, disconnect, ctx(T0, settings))).toMatchObject({ record: off, reply: { outcome: 'off' } });
    const pending = reduce(enabled(), failure(T0), ctx(T0, settings)).record;
    const again = reduce(pending, disconnect, ctx(T0 + SEC, settings));
    expect(again.reply).toEqual({ outcome: 'absorbed', reason: 'A restart is already pending' });
    expect(again.record.status).toEqual(pending.status);
  });

  it('gives up counting the restarts made and the limit', () => {
    const once = failAndRestart(enabled({ overrides: { maxRestarts: 1 } }), T0);
    const gaveUp = reduce(once.record, failure(once.doneAt + MIN), ctx(once.doneAt + MIN)).record;
    expect(gaveUp.history.at(-1)?.params).toEqual({ why: 'failed-again', n: 1, max: 1 });
    let record = enabled();
    let now = T0;
    for (let i = 0; i < 3; i++) {
      const cycle = failAndRestart(record, now);
      record = cycle.record;
      now = cycle.doneAt + MIN;
    }
    const last = reduce(record, failure(now), ctx(now)).record;
    expect(last.history.at(-1)?.params).toEqual({ why: 'failed-again', n: 3, max: 3 });
  });

  it('no healthy-reset note for a crash loop already at zero', () => {
    const record = enabled({ lastRestartAt: T0 - 60 * MIN, totalRestarts: 1, loopCount: 0 });
    const result = reduce(record, failure(T0), ctx(T0));
    expect(result.record.history.map((e) => e.type)).toEqual(['restart-scheduled']);
  });

  it('a result while the restart is only pending is refused and changes nothing', () => {
    const pending = reduce(enabled(), failure(T0), ctx(T0)).record;
    const { attempt } = pendingOf(pending);
    const result = reduce(pending, { type: 'restart-result', tabId: TAB, attempt, ok: true }, ctx(T0 + SEC));
    expect(result.reply).toEqual({
      ok: false,
      message: 'No such restart in progress (interrupted or already reported)',
    });
    expect(result.record).toBe(pending);
  });

  it('a failed step is answered ok (recorded), and a marker restart is noted as such when done', () => {
    const pending = reduce(enabled(), failure(T0), ctx(T0)).record;
    const { attempt, restartAt } = pendingOf(pending);
    const claimed = reduce(pending, { type: 'claim', tabId: TAB, attempt }, ctx(restartAt)).record;
    const failed = {
      type: 'restart-result' as const,
      tabId: TAB,
      attempt,
      ok: false as const,
      failed: { step: 'verify' as const, reason: 'r', saw: 'd' },
    };
    expect(reduce(claimed, failed, ctx(restartAt + SEC)).reply).toEqual({ ok: true });

    const marked = reduce(enabled(), marker(T0), ctx(T0)).record;
    const m = pendingOf(marked);
    const run = reduce(marked, { type: 'claim', tabId: TAB, attempt: m.attempt }, ctx(m.restartAt)).record;
    const done = reduce(run, { type: 'restart-result', tabId: TAB, attempt: m.attempt, ok: true }, ctx(m.restartAt));
    expect(done.record.history.at(-1)).toMatchObject({ type: 'restarted', params: { why: 'marker' } });
  });

  it('says why a countdown starts again in a page: reloaded, taken over, or from an earlier browser session', () => {
    const pending = reduce(enabled(), failure(T0), ctx(T0)).record;
    const adopt = (tabId: number, session: string) =>
      reduce(
        pending,
        { type: 'adopt', tabId, ownerAlive: false },
        ctx(T0 + SEC, defaultSettings(), session),
      ).record.history.at(-1)?.params;
    expect(adopt(TAB, SESSION)).toEqual({ why: 'reloaded', tab: 7, delaySec: 5 });
    expect(adopt(OTHER_TAB, SESSION)).toEqual({ why: 'took-over', tab: 8, delaySec: 5 });
    expect(adopt(TAB, 'session-2')).toEqual({ why: 'browser-restarted', tab: 7, delaySec: 5 });
  });

  it('switching on after a Colab UI problem starts fresh, as after a give-up', () => {
    const problem = enabled({
      status: { kind: 'ui-problem', at: T0, failed: { step: 'verify', reason: 'no-run-started', saw: '' } },
      loopCount: 2,
    });
    const off = reduce(problem, { type: 'set-enabled', enabled: false }, ctx(T0)).record;
    const on = reduce(off, { type: 'set-enabled', enabled: true }, ctx(T0 + SEC)).record;
    expect(on).toMatchObject({ enabled: true, status: { kind: 'watching' }, loopCount: 0 });
  });

  it('drops a history entry exactly 90 days old when one is added; one a moment younger stays', () => {
    const DAY = 24 * 60 * MIN;
    const record = enabled({
      history: [
        { at: T0 - 90 * DAY, type: 'enabled' },
        { at: T0 - 90 * DAY + 1, type: 'cancelled' },
      ],
    });
    const result = reduce(record, { type: 'cancel' }, ctx(T0));
    const next = reduce(result.record, failure(T0), ctx(T0)).record;
    expect(next.history.map((e) => e.type)).toEqual(['cancelled', 'restart-scheduled']);
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

describe('notes written once while they stay the same, and what each reply says', () => {
  const declined = (startedAt: number, line = cudaOom.line): PolicyEvent => ({
    type: 'declined',
    detectedAt: startedAt,
    startedAt,
    reason: 'earlier-error',
    verdict: { ...cudaOom, line },
  });
  const notes = (record: NotebookRecord, type: string) => record.history.filter((e) => e.type === type);

  it('a failure left alone after a restart is noted when its run began at or after the restart', () => {
    const { record, startedAt, doneAt } = failAndRestart(enabled(), T0);
    const atRestart = reduce(record, declined(startedAt), ctx(doneAt + SEC)).record;
    expect(atRestart.history.at(-1)).toMatchObject({ type: 'ignored', params: { why: 'earlier-error' } });
    const later = reduce(record, declined(doneAt + SEC), ctx(doneAt + 2 * SEC)).record;
    expect(later.history.at(-1)).toMatchObject({ type: 'ignored', params: { why: 'earlier-error' } });
  });

  it('a failure left alone is noted again for another line, or a minute later, beside older entries', () => {
    const once = reduce(enabled(), declined(T0), ctx(T0)).record;
    expect(notes(reduce(once, declined(T0, 'other line'), ctx(T0 + SEC)).record, 'ignored')).toHaveLength(2);
    expect(notes(reduce(once, declined(T0), ctx(T0 + MIN)).record, 'ignored')).toHaveLength(2);
    // An entry an earlier version wrote as a sentence it could not read back (no params), and one read back
    // without the failure's line: neither is this note, and neither stops it.
    const older = enabled({
      history: [
        { at: T0, type: 'ignored', detail: 'Restart skipped for reasons of its own' },
        { at: T0, type: 'ignored', params: { why: 'earlier-error' } },
      ],
    });
    expect(notes(reduce(older, declined(T0), ctx(T0 + SEC)).record, 'ignored')).toHaveLength(3);
  });

  it('a dialog or disconnect left to the person is said in words, written again when anything differs', () => {
    const dialog = (at: number, kind: 'drive-permission' | 'gpu-quota' = 'drive-permission'): PolicyEvent => ({
      type: 'dialog',
      tabId: TAB,
      detectedAt: at,
      kind,
      text: 'Colab asks',
    });
    const disconnect = (at: number, line: string): PolicyEvent => ({
      type: 'disconnect',
      tabId: TAB,
      detectedAt: at,
      kind: 'disallowed-code',
      line,
    });
    const first = reduce(enabled(), dialog(T0), ctx(T0));
    expect(first.reply).toEqual({ outcome: 'ignored', reason: 'Colab waits for a person: drive-permission' });
    const left = (record: NotebookRecord) => notes(record, 'left-to-person');
    // Another dialog, the same one 10 minutes on, the same one after a run ended in between.
    expect(left(reduce(first.record, dialog(T0 + SEC, 'gpu-quota'), ctx(T0 + SEC)).record)).toHaveLength(2);
    expect(left(reduce(first.record, dialog(T0 + 10 * MIN), ctx(T0 + 10 * MIN)).record)).toHaveLength(2);
    const ran = reduce(first.record, { type: 'run', tabId: TAB, detectedAt: T0, what: 'started' }, ctx(T0 + SEC));
    expect(ran.record.history.at(-1)?.type).toBe('run-started');
    expect(left(reduce(ran.record, dialog(T0 + 2 * SEC), ctx(T0 + 2 * SEC)).record)).toHaveLength(1);

    const cut = reduce(enabled(), disconnect(T0, 'disallowed code (words A)'), ctx(T0));
    expect(cut.reply).toEqual({
      outcome: 'ignored',
      reason: 'Runtime disconnected: disallowed code: not reconnected',
    });
    expect(
      left(reduce(cut.record, disconnect(T0 + SEC, 'disallowed code (words B)'), ctx(T0 + SEC)).record),
    ).toHaveLength(2);
  });

  it('the daily marker limit says so in the reply and in the history; a marker restart names its pattern', () => {
    const settings = { ...defaultSettings(), markerDailyLimit: 1 };
    const first = reduce(enabled(), marker(T0), ctx(T0, settings)).record;
    expect(pendingOf(first).verdict.description).toBe('Restart marker: RESTART_ME');
    const idle = { ...first, status: { kind: 'watching' as const } };
    const over = reduce(idle, marker(T0 + MIN), ctx(T0 + MIN, settings));
    expect(over.reply).toEqual({ outcome: 'ignored', reason: 'The daily limit of 1 marker restarts is reached' });
    expect(over.record.history.at(-1)).toMatchObject({ type: 'ignored', params: { why: 'marker-limit', max: 1 } });
    const again = reduce(over.record, marker(T0 + 2 * MIN), ctx(T0 + 2 * MIN, settings));
    expect(again.reply).toEqual({ outcome: 'ignored', reason: 'The daily limit of 1 marker restarts is reached' });
  });

  describe('a failure after the guard ended by itself (12 hours with nothing run)', () => {
    const HOUR = 60 * MIN;
    const on = () => reduce(defaultNotebook(KEY), { type: 'set-enabled', enabled: true }, ctx(T0)).record;
    const ended = T0 + 12 * HOUR;
    const endNotes = (record: NotebookRecord) => record.history.filter((e) => e.params?.why === 'guard-ended');
    const reason = 'The guard ended by itself: nothing ran for hours before this run';

    it('is answered off with why, each time, and noted once per line and minute', () => {
      const first = reduce(on(), failure(ended), ctx(ended));
      expect(first.reply).toEqual({ outcome: 'off', reason });
      const again = reduce(first.record, failure(ended + SEC), ctx(ended + SEC));
      expect(again.reply).toEqual({ outcome: 'off', reason });
      expect(again.record).toBe(first.record);
      const other = {
        ...failure(ended + SEC),
        verdict: { ...cudaOom, line: 'RuntimeError: CUDA error: out of memory' },
      };
      expect(endNotes(reduce(first.record, other, ctx(ended + SEC)).record)).toHaveLength(2);
      expect(endNotes(reduce(first.record, failure(ended + MIN), ctx(ended + MIN)).record)).toHaveLength(2);
      expect(endNotes(reduce(first.record, failure(ended + HOUR), ctx(ended + HOUR)).record)).toHaveLength(2);
    });

    it('is noted though the same line was left alone for another reason a moment before the end', () => {
      const declinedJustBefore = reduce(on(), declined(ended - 10 * SEC), ctx(ended - 10 * SEC)).record;
      expect(declinedJustBefore.enabled).toBe(true);
      const result = reduce(declinedJustBefore, failure(ended + SEC), ctx(ended + SEC));
      expect(result.record.enabled).toBe(false);
      expect(endNotes(result.record)).toHaveLength(1);
    });
  });

  it('a claim from an earlier browser session says why its countdown starts again', () => {
    const record = reduce(enabled(), failure(T0), ctx(T0)).record;
    const { attempt, restartAt } = pendingOf(record);
    const result = reduce(
      record,
      { type: 'claim', tabId: TAB, attempt },
      ctx(restartAt, defaultSettings(), 'session-2'),
    );
    expect(result.record.history.at(-1)).toMatchObject({ type: 'resumed', params: { why: 'browser-restarted' } });
  });

  it('a switched-off record that still holds a countdown (an import, a lost write) asks no question', () => {
    const scheduled = reduce(enabled(), failure(T0), ctx(T0)).record;
    const off = { ...scheduled, enabled: false };
    const { attempt } = pendingOf(off);
    const asked = reduce(off, { type: 'ask', tabId: TAB, attempt }, ctx(T0 + SEC));
    expect(asked.reply).toEqual({ ok: false, message: 'No countdown of this tab to ask about' });
    expect(asked.record).toBe(off);
    const answered = reduce(off, { type: 'answer', tabId: TAB, attempt, choice: 'restart' }, ctx(T0 + SEC));
    expect(answered.reply).toMatchObject({ granted: false });
    expect(answered.record).toBe(off);
  });

  it('the question: asked once (asking again changes nothing), and each refusal says why', () => {
    const scheduled = reduce(enabled(), failure(T0), ctx(T0)).record;
    const { attempt } = pendingOf(scheduled);
    const ask = { type: 'ask' as const, tabId: TAB, attempt };
    const asked = reduce(scheduled, ask, ctx(T0 + SEC)).record;
    const again = reduce(asked, ask, ctx(T0 + 30 * SEC));
    expect(again.reply).toEqual({ ok: true });
    expect(again.record).toBe(asked);
    const noSetting = { ...defaultSettings(), askAtKeyboard: false };
    expect(reduce(scheduled, ask, ctx(T0 + SEC, noSetting)).reply).toEqual({
      ok: false,
      message: 'Asking first is switched off',
    });
    const away = reduce(asked, { type: 'answer', tabId: TAB, attempt, choice: 'away' }, ctx(T0 + MIN));
    expect(away.reply).toEqual({ granted: false, reason: 'Nobody answered: the countdown goes on' });
  });

  it('a restart result is answered ok: done, failed to reconnect and tried again, or given up', () => {
    const scheduled = reduce(enabled(), failure(T0), ctx(T0)).record;
    const { attempt, restartAt } = pendingOf(scheduled);
    const claimed = reduce(scheduled, { type: 'claim', tabId: TAB, attempt }, ctx(restartAt)).record;
    const done = reduce(claimed, { type: 'restart-result', tabId: TAB, attempt, ok: true }, ctx(restartAt + SEC));
    expect(done.reply).toEqual({ ok: true });
    expect(done.record.status).toEqual({ kind: 'watching' });
    const settings = { ...defaultSettings(), reconnectOnDisconnect: true, maxRestarts: 2 };
    const outage: PolicyEvent = {
      type: 'disconnect',
      tabId: TAB,
      detectedAt: T0,
      kind: 'unable-to-connect',
      line: 'Unable',
    };
    const unable = (record: NotebookRecord, at: number) => {
      const { attempt, restartAt } = pendingOf(record);
      const claimed = reduce(record, { type: 'claim', tabId: TAB, attempt }, ctx(restartAt, settings)).record;
      const failed = { step: 'reconnect', reason: 'unable-to-connect', saw: 'Unable to connect' } as const;
      const event: PolicyEvent = {
        type: 'restart-result',
        tabId: TAB,
        attempt,
        ok: false,
        failed,
        runtime: 'unable-to-connect',
      };
      return reduce(claimed, event, ctx(restartAt + at, settings));
    };
    const first = unable(reduce(enabled(), outage, ctx(T0, settings)).record, SEC);
    expect(first.reply).toEqual({ ok: true });
    expect(first.record.status.kind).toBe('pending');
    const last = unable(first.record, SEC);
    expect(last.reply).toEqual({ ok: true });
    expect(last.record.status.kind).toBe('gave-up');
  });

  describe('runs', () => {
    const run = (what: 'started' | 'finished' | 'stopped', extra = {}): PolicyEvent => ({
      type: 'run',
      tabId: TAB,
      detectedAt: T0,
      what,
      ...extra,
    });

    it('a run starting 2 minutes after a restart is a new run: written', () => {
      const { record, startedAt } = failAndRestart(enabled(), T0);
      expect(reduce(record, run('started'), ctx(startedAt + 2 * MIN - 1)).record).toBe(record);
      const later = reduce(record, run('started'), ctx(startedAt + 2 * MIN)).record;
      expect(later.history.at(-1)?.type).toBe('run-started');
    });

    it('a run that starts and finishes within a minute is two entries; the same end a minute on again', () => {
      const started = reduce(enabled(), run('started'), ctx(T0)).record;
      const finished = reduce(started, run('finished'), ctx(T0 + 10 * SEC));
      expect(finished.reply).toEqual({ ok: true });
      expect(finished.record.history.map((e) => e.type)).toEqual(['run-started', 'run-finished']);
      const again = reduce(finished.record, run('finished'), ctx(T0 + 10 * SEC + MIN)).record;
      expect(again.history.map((e) => e.type)).toEqual(['run-started', 'run-finished', 'run-finished']);
    });

    it('a stop whose line is unknown says nothing made up', () => {
      const { record } = reduce(enabled(), run('stopped'), ctx(T0));
      expect(record.history).toEqual([{ at: T0, type: 'run-stopped', params: { saw: '' } }]);
      expect(v.is(NotebookRecordSchema, record)).toBe(true);
    });
  });

  describe('a crash loop of unknown age, as migrated from the first version', () => {
    const migrated = (extra: Record<string, unknown> = {}) => {
      const parsed = parseNotebook(KEY, { key: KEY, name: 'train.ipynb', active: true, restarts: 2, ...extra });
      expect(parsed.value).toMatchObject({ loopCount: 2, enabled: true });
      expect(parsed.value.lastRestartAt).toBeUndefined();
      return parsed.value;
    };

    it('is never taken for a healthy stretch: the next failure is restart 3 of 3', () => {
      const result = reduce(migrated(), failure(T0), ctx(T0));
      expect(result.record.history.map((e) => e.type)).toEqual(['restart-scheduled']);
      expect(result.record.history.at(-1)?.params).toMatchObject({ n: 3, max: 3 });
    });

    it('is reset once 30 minutes passed after a counted failure, as any loop is', () => {
      const cancelled = reduce(reduce(migrated(), failure(T0), ctx(T0)).record, { type: 'cancel' }, ctx(T0 + SEC));
      expect(cancelled.record.lastFailureAt).toBe(T0);
      const later = reduce(cancelled.record, failure(T0 + 30 * MIN), ctx(T0 + 30 * MIN)).record;
      expect(later.history.map((e) => e.type)).toContain('healthy-reset');
      expect(later.history.at(-1)?.params).toMatchObject({ n: 1 });
    });
  });
});
