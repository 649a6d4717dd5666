import { describe, expect, it } from 'vitest';
import { type PolicyContext, type PolicyEvent, reduce } from './policy';
import { defaultNotebook, defaultSettings, type NotebookRecord, type Settings, type Verdict } from './schema';

/** The countdown that asks the person at the keyboard first (policy-restarts.ts onAsk, onAnswer). */

const KEY = 'drive:1AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const T0 = new Date(2025, 2, 10, 12, 0, 0).getTime();
const SEC = 1000;
const MIN = 60 * SEC;
const TAB = 7;
const SESSION = 'session-1';

const cudaOom: Verdict = {
  category: 'gpu-oom',
  rule: 'torch-cuda-oom',
  description: 'CUDA out of memory',
  line: 'torch.OutOfMemoryError: CUDA out of memory.',
};

let attempts = 0;
function ctx(now: number, settings: Settings = defaultSettings(), session = SESSION): PolicyContext {
  return { now, settings, session, newAttemptId: () => `attempt-${++attempts}` };
}

function failure(at: number): PolicyEvent {
  return { type: 'failure', tabId: TAB, detectedAt: at, startedAt: at, verdict: cudaOom, source: 'error-output' };
}

function pendingOf(record: NotebookRecord) {
  if (record.status.kind !== 'pending') throw new Error(`expected pending, got ${record.status.kind}`);
  return record.status;
}

/** A failure at T0 whose countdown the owner tab turned into a question at T0 + 1 s. */
function asked() {
  const scheduled = reduce({ ...defaultNotebook(KEY), enabled: true }, failure(T0), ctx(T0)).record;
  const { attempt, restartAt } = pendingOf(scheduled);
  const result = reduce(scheduled, { type: 'ask', tabId: TAB, attempt }, ctx(T0 + SEC));
  expect(result.reply).toEqual({ ok: true });
  return { record: result.record, attempt, restartAt };
}

describe('asking the person at the keyboard', () => {
  it('turns the countdown into a question that no claim can act on, however late', () => {
    const { record, attempt, restartAt } = asked();
    expect(pendingOf(record).askedAt).toBe(T0 + SEC);
    expect(record.history.map((e) => e.type)).toEqual(['restart-scheduled']);
    const claim = reduce(record, { type: 'claim', tabId: TAB, attempt }, ctx(restartAt));
    expect(claim.reply).toEqual({ granted: false, why: { kind: 'asking' } });
    expect(claim.record.status).toEqual(record.status);
    // Long past the deadline in the same browser session: the question still waits (nothing skipped it).
    const later = reduce(record, { type: 'settle' }, ctx(restartAt + 30 * MIN));
    expect(pendingOf(later.record).askedAt).toBe(T0 + SEC);
  });

  it('is asked only by the owner tab, for its own countdown, in this browser session, with the setting on', () => {
    const scheduled = reduce({ ...defaultNotebook(KEY), enabled: true }, failure(T0), ctx(T0)).record;
    const { attempt } = pendingOf(scheduled);
    const refused = [
      reduce(scheduled, { type: 'ask', tabId: TAB + 1, attempt }, ctx(T0)),
      reduce(scheduled, { type: 'ask', tabId: TAB, attempt: 'other' }, ctx(T0)),
      reduce(scheduled, { type: 'ask', tabId: TAB, attempt }, ctx(T0, defaultSettings(), 'session-2')),
      reduce(scheduled, { type: 'ask', tabId: TAB, attempt }, ctx(T0, { ...defaultSettings(), askAtKeyboard: false })),
    ];
    for (const result of refused) {
      expect(result.reply).toMatchObject({ ok: false });
      expect(result.record).toBe(scheduled);
    }
  });

  it('is on by default', () => {
    expect(defaultSettings().askAtKeyboard).toBe(true);
  });

  it('Restart now restarts at once, before the deadline, and the history says who chose it', () => {
    const { record, attempt } = asked();
    const answer = reduce(record, { type: 'answer', tabId: TAB, attempt, choice: 'restart' }, ctx(T0 + 2 * SEC));
    expect(answer.reply).toEqual({ granted: true, action: 'restart-and-run-all' });
    expect(answer.record.status).toMatchObject({ kind: 'restarting', attempt, ownerTab: TAB, startedAt: T0 + 2 * SEC });
    expect(answer.record.history.at(-1)).toMatchObject({
      type: 'asked',
      params: { choice: 'restart' },
      verdict: cudaOom,
      action: 'restart-and-run-all',
    });
    const done = reduce(answer.record, { type: 'restart-result', tabId: TAB, attempt, ok: true }, ctx(T0 + 9 * SEC));
    expect(done.record.loopCount).toBe(1);
    expect(done.record.history.at(-1)?.type).toBe('restarted');
  });

  it('Not now is final for that failure: no restart, the failure left to the person, no crash-loop slot used', () => {
    const { record, attempt } = asked();
    const answer = reduce(record, { type: 'answer', tabId: TAB, attempt, choice: 'not-now' }, ctx(T0 + 3 * SEC));
    expect(answer.reply).toEqual({ granted: false, why: { kind: 'left-to-person' } });
    expect(answer.record.status).toEqual({ kind: 'watching' });
    expect(answer.record.loopCount).toBe(0);
    expect(answer.record.history.at(-1)).toMatchObject({ type: 'asked', params: { choice: 'not-now' } });
    // The old attempt cannot be claimed any more.
    const claim = reduce(answer.record, { type: 'claim', tabId: TAB, attempt }, ctx(T0 + 10 * SEC));
    expect(claim.reply).toEqual({ granted: false, why: { kind: 'no-pending' } });
    // A later failure of a new run is a new failure, asked about or counted down again from the first slot.
    const next = reduce(answer.record, failure(T0 + 5 * MIN), ctx(T0 + 5 * MIN));
    expect(next.reply).toMatchObject({ outcome: 'scheduled' });
    expect(next.record.history.at(-1)?.params).toMatchObject({ n: 1 });
  });

  it('nobody there any more: the countdown comes back, at least the first back-off long, with a new attempt', () => {
    const { record, attempt, restartAt } = asked();
    const away = T0 + 3 * MIN;
    const answer = reduce(record, { type: 'answer', tabId: TAB, attempt, choice: 'away' }, ctx(away));
    const again = pendingOf(answer.record);
    expect(again.askedAt).toBeUndefined();
    expect(again.attempt).not.toBe(attempt);
    expect(again.restartAt).toBe(away + defaultSettings().backoffBaseSec * SEC);
    expect(answer.record.history.at(-1)).toMatchObject({ type: 'asked', params: { choice: 'away', delaySec: 5 } });
    expect(reduce(answer.record, { type: 'claim', tabId: TAB, attempt }, ctx(again.restartAt)).reply).toMatchObject({
      granted: false,
    });
    const claim = reduce(answer.record, { type: 'claim', tabId: TAB, attempt: again.attempt }, ctx(again.restartAt));
    expect(claim.reply).toEqual({ granted: true, action: 'restart-and-run-all' });
    // Asked and left before the first deadline: the original deadline stands.
    const early = reduce(record, { type: 'answer', tabId: TAB, attempt, choice: 'away' }, ctx(T0 + 2 * SEC));
    expect(pendingOf(early.record).restartAt).toBe(Math.max(restartAt, T0 + 7 * SEC));
  });

  it('answers count only from the tab asking, for the question standing', () => {
    const { record, attempt } = asked();
    for (const event of [
      { type: 'answer', tabId: TAB + 1, attempt, choice: 'restart' },
      { type: 'answer', tabId: TAB, attempt: 'old', choice: 'restart' },
    ] as const) {
      const result = reduce(record, event, ctx(T0 + 2 * SEC));
      expect(result.reply).toEqual({ granted: false, why: { kind: 'no-question' } });
      expect(result.record).toBe(record);
    }
    const counting = reduce({ ...defaultNotebook(KEY), enabled: true }, failure(T0), ctx(T0)).record;
    const unasked = { type: 'answer', tabId: TAB, attempt: pendingOf(counting).attempt, choice: 'restart' } as const;
    expect(reduce(counting, unasked, ctx(T0)).reply).toMatchObject({ granted: false });
  });

  it('the tab closed while asking: not restarted, and the history says so', () => {
    const { record } = asked();
    const closed = reduce(
      record,
      { type: 'tab-closed', tabId: TAB, gone: 'closed', othersShow: false },
      ctx(T0 + 4 * SEC),
    );
    expect(closed.record.status).toEqual({ kind: 'watching' });
    expect(closed.record.history.at(-1)).toMatchObject({ type: 'asked', params: { choice: 'closed' } });
    const other = reduce(
      record,
      { type: 'tab-closed', tabId: TAB + 1, gone: 'closed', othersShow: false },
      ctx(T0 + 4 * SEC),
    );
    expect(pendingOf(other.record).askedAt).toBe(T0 + SEC);
  });

  it('the asking page reloaded: a countdown from the start, without the question, which its page may ask again', () => {
    const { record } = asked();
    const adopted = reduce(record, { type: 'adopt', tabId: TAB, ownerAlive: false }, ctx(T0 + 4 * SEC));
    expect(adopted.reply).toEqual({ owner: true });
    expect(pendingOf(adopted.record).askedAt).toBeUndefined();
    expect(pendingOf(adopted.record).restartAt).toBe(T0 + 4 * SEC + 5 * SEC);
  });

  it('a question of an earlier browser session is skipped like any countdown nobody carried out', () => {
    const { record, restartAt } = asked();
    const later = reduce(record, { type: 'settle' }, ctx(restartAt + 3 * MIN, defaultSettings(), 'session-2'));
    expect(later.record.status).toEqual({ kind: 'watching' });
    expect(later.record.history.at(-1)?.type).toBe('skipped');
  });

  it('Cancel in the popup, switching off and another failure treat it as the countdown it is', () => {
    const { record } = asked();
    expect(reduce(record, { type: 'cancel' }, ctx(T0 + 2 * SEC)).record.history.at(-1)?.type).toBe('cancelled');
    const off = reduce(record, { type: 'set-enabled', enabled: false }, ctx(T0 + 2 * SEC)).record;
    expect(off.status).toEqual({ kind: 'watching' });
    expect(reduce(record, failure(T0 + 2 * SEC), ctx(T0 + 2 * SEC)).reply).toMatchObject({ outcome: 'absorbed' });
  });
});
