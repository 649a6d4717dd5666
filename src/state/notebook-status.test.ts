import { describe, expect, it } from 'vitest';
import { notebookStatus } from './notebook-status';
import { type PolicyContext, type PolicyEvent, reduce } from './policy';
import { defaultNotebook, defaultSettings, type NotebookRecord, type Settings, type Verdict } from './schema';

const KEY = 'drive:abc';
const T0 = Date.UTC(2026, 2, 10, 12, 0, 0);
const SEC = 1000;
const MIN = 60 * SEC;
const TAB = 7;

const cudaOom: Verdict = {
  category: 'gpu-oom',
  rule: 'torch-cuda-oom',
  description: 'CUDA out of memory',
  line: 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB',
};

let attempts = 0;
function ctx(now: number, settings: Settings = defaultSettings()): PolicyContext {
  return { now, settings, session: 'session-1', newAttemptId: () => `attempt-${++attempts}` };
}

function apply(record: NotebookRecord, event: PolicyEvent, now: number, settings?: Settings): NotebookRecord {
  return reduce(record, event, ctx(now, settings)).record;
}

/** A report at `now`, claimed at its deadline, restarted: the record as the worker leaves it. */
function restartedAfter(record: NotebookRecord, event: PolicyEvent, now: number): NotebookRecord {
  const pending = apply(record, event, now);
  if (pending.status.kind !== 'pending') throw new Error(`expected pending, got ${pending.status.kind}`);
  const { attempt, restartAt } = pending.status;
  const claimed = apply(pending, { type: 'claim', tabId: TAB, attempt }, restartAt);
  return apply(claimed, { type: 'restart-result', tabId: TAB, attempt, ok: true }, restartAt + SEC);
}

/** A failure reported at `at`, of a run that started at `startedAt`. */
const failure = (at: number, verdict: Verdict = cudaOom, startedAt = at): PolicyEvent => ({
  type: 'failure',
  tabId: TAB,
  detectedAt: at,
  startedAt,
  verdict,
  source: 'error-output',
});

describe('the status a notebook reads about itself', () => {
  const on: NotebookRecord = { ...defaultNotebook(KEY), enabled: true };

  it('of a notebook never switched on: not guarded, and nothing else (no limit, no setting)', () => {
    expect(notebookStatus(defaultNotebook(KEY), defaultSettings(), T0)).toEqual({ v: 1, guarded: false });
  });

  it('of a notebook switched off after restarts: not guarded, and nothing else', () => {
    const restarted = { ...restartedAfter(on, failure(T0), T0), overrides: { maxRestarts: 7 } };
    const off = apply(restarted, { type: 'set-enabled', enabled: false }, T0 + MIN);
    expect(off.totalRestarts).toBe(1);
    expect(notebookStatus(off, { ...defaultSettings(), maxRestarts: 9 }, T0 + MIN)).toEqual({ v: 1, guarded: false });
  });

  it('of a guarded notebook never restarted: nothing counted, the default limit', () => {
    expect(notebookStatus(on, defaultSettings(), T0)).toEqual({
      v: 1,
      guarded: true,
      restarts: 0,
      maxRestarts: 3,
      totalRestarts: 0,
      lastFailure: null,
      lastRestartAt: null,
    });
  });

  it('after one OOM restart: one restart in the loop, the failure by category and line, ISO times', () => {
    const record = restartedAfter(on, failure(T0), T0);
    const status = notebookStatus(record, defaultSettings(), T0 + MIN);
    expect(status).toEqual({
      v: 1,
      guarded: true,
      restarts: 1,
      maxRestarts: 3,
      totalRestarts: 1,
      lastFailure: { kind: 'gpu-oom', line: cudaOom.line, at: new Date(T0).toISOString() },
      lastRestartAt: new Date(T0 + 5 * SEC).toISOString(),
    });
  });

  it("counts the current crash loop only: a healthy stretch resets it, the notebook's own limit applies", () => {
    const record = { ...restartedAfter(on, failure(T0), T0), overrides: { maxRestarts: 7 } };
    const status = notebookStatus(record, defaultSettings(), T0 + 31 * MIN);
    expect(status).toMatchObject({ restarts: 0, maxRestarts: 7, totalRestarts: 1, lastFailure: { kind: 'gpu-oom' } });
  });

  it('names the failure that made the guard give up, and never a restart marker', () => {
    const settings = { ...defaultSettings(), maxRestarts: 0 };
    const hostRam = { ...cudaOom, category: 'host-ram' as const, line: 'MemoryError' };
    const gaveUp = apply(on, failure(T0, hostRam), T0, settings);
    expect(gaveUp.status.kind).toBe('gave-up');
    expect(notebookStatus(gaveUp, settings, T0)).toMatchObject({
      lastFailure: { kind: 'host-ram', line: 'MemoryError', at: new Date(T0).toISOString() },
    });

    const marker: PolicyEvent = {
      type: 'marker',
      tabId: TAB,
      detectedAt: T0,
      pattern: 'RESTART_ME',
      line: 'RESTART_ME',
    };
    const afterMarker = restartedAfter(on, marker, T0);
    expect(afterMarker.totalRestarts).toBe(1);
    expect(notebookStatus(afterMarker, defaultSettings(), T0 + MIN)).toMatchObject({ restarts: 0, lastFailure: null });
  });

  it('does not name a failure the guard only noted (a late report of a run the last restart ended)', () => {
    const restarted = restartedAfter(on, failure(T0), T0);
    const late = { ...cudaOom, line: 'RuntimeError: CUDA out of memory (late, from another tab)' };
    const noted = apply(restarted, failure(T0 + MIN, late, T0 - MIN), T0 + MIN);
    expect(noted.history.at(-1)).toMatchObject({ type: 'ignored', verdict: { line: late.line } });
    expect(notebookStatus(noted, defaultSettings(), T0 + MIN)).toMatchObject({ lastFailure: { line: cudaOom.line } });
  });
});
