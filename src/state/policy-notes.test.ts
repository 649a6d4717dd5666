import * as v from 'valibot';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  ctx,
  cudaOom,
  enabled,
  failAndRestart,
  failure,
  KEY,
  MIN,
  marker,
  pendingOf,
  resetAttempts,
  SEC,
  T0,
  TAB,
} from '../../test/support/policy';
import { type PolicyEvent, reduce } from './policy';
import { defaultNotebook, defaultSettings, type NotebookRecord, NotebookRecordSchema, parseNotebook } from './schema';

// Notes written once while they stay the same, and the words of each reply, across the rooms of the policy.

beforeEach(resetAttempts);

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
    expect(first.reply).toEqual({ outcome: 'ignored', why: { kind: 'dialog-left', dialog: 'drive-permission' } });
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
      why: { kind: 'disconnect-left', disconnect: 'disallowed-code' },
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
    expect(over.reply).toEqual({ outcome: 'ignored', why: { kind: 'marker-limit', limit: 1 } });
    expect(over.record.history.at(-1)).toMatchObject({ type: 'ignored', params: { why: 'marker-limit', max: 1 } });
    const again = reduce(over.record, marker(T0 + 2 * MIN), ctx(T0 + 2 * MIN, settings));
    expect(again.reply).toEqual({ outcome: 'ignored', why: { kind: 'marker-limit', limit: 1 } });
  });

  describe('a failure after the guard ended by itself (12 hours with nothing run)', () => {
    const HOUR = 60 * MIN;
    const on = () => reduce(defaultNotebook(KEY), { type: 'set-enabled', enabled: true }, ctx(T0)).record;
    const ended = T0 + 12 * HOUR;
    const endNotes = (record: NotebookRecord) => record.history.filter((e) => e.params?.why === 'guard-ended');
    const why = { kind: 'guard-ended' };

    it('is answered off with why, each time, and noted once per line and minute', () => {
      const first = reduce(on(), failure(ended), ctx(ended));
      expect(first.reply).toEqual({ outcome: 'off', why });
      const again = reduce(first.record, failure(ended + SEC), ctx(ended + SEC));
      expect(again.reply).toEqual({ outcome: 'off', why });
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
    expect(asked.reply).toEqual({ ok: false, why: { kind: 'no-countdown' } });
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
      why: { kind: 'asking-off' },
    });
    const away = reduce(asked, { type: 'answer', tabId: TAB, attempt, choice: 'away' }, ctx(T0 + MIN));
    expect(away.reply).toEqual({ granted: false, why: { kind: 'nobody-answered' } });
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
