import { expect } from 'vitest';
import { type PolicyContext, type PolicyEvent, reduce } from '../../src/state/policy';
import {
  defaultNotebook,
  defaultSettings,
  type NotebookRecord,
  type Settings,
  type Verdict,
} from '../../src/state/schema';

// What the tests of the restart policy (src/state/policy*.test.ts) build their records, events and clocks from.

/** README: a countdown that ran out "more than 2 minutes" before any page of the notebook was open is skipped. */
export const COUNTDOWN_GRACE_MS = 2 * 60_000;
/** README: "the last 200 events per notebook". */
export const HISTORY_LIMIT = 200;

export const KEY = 'drive:1AbCdEfGhIjKlMnOpQrStUvWxYz012345';
export const T0 = new Date(2025, 2, 10, 12, 0, 0).getTime(); // local noon, so day arithmetic is timezone-independent
export const SEC = 1000;
export const MIN = 60 * SEC;
export const TAB = 7;
export const OTHER_TAB = 8;

export const cudaOom: Verdict = {
  category: 'gpu-oom',
  rule: 'torch-cuda-oom',
  description: 'CUDA out of memory',
  line: 'torch.OutOfMemoryError: CUDA out of memory.',
};

let attempts = 0;
/** Each test file's `beforeEach`: attempt ids count from 1 again. */
export function resetAttempts(): void {
  attempts = 0;
}

/** How many attempt ids the policy asked for since the test began. */
export function attemptsMade(): number {
  return attempts;
}

export const SESSION = 'session-1';

export function ctx(now: number, settings: Settings = defaultSettings(), session = SESSION): PolicyContext {
  return { now, settings, session, newAttemptId: () => `attempt-${++attempts}` };
}

export function enabled(overrides: Partial<NotebookRecord> = {}): NotebookRecord {
  return { ...defaultNotebook(KEY), title: 'train.ipynb', enabled: true, ...overrides };
}

export type FailureEvent = Extract<PolicyEvent, { type: 'failure' }>;

export function failure(detectedAt: number, extra: Partial<FailureEvent> = {}): FailureEvent {
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

export function marker(detectedAt: number, tabId = TAB): Extract<PolicyEvent, { type: 'marker' }> {
  return { type: 'marker', tabId, detectedAt, pattern: 'RESTART_ME', line: 'RESTART_ME please' };
}

export function pendingOf(record: NotebookRecord) {
  if (record.status.kind !== 'pending') throw new Error(`expected pending, got ${record.status.kind}`);
  return record.status;
}

/** A countdown after a failure at T0, and its status. */
export function scheduled() {
  const record = reduce(enabled(), failure(T0), ctx(T0)).record;
  return { record, status: pendingOf(record) };
}

/** A failure at `now`, the owner claiming at the deadline, and the restart succeeding. */
export function failAndRestart(record: NotebookRecord, now: number, settings = defaultSettings()) {
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

/**
 * One event of every kind the policy reads (the compiler refuses a kind without one): what the tests of the reply
 * kinds, the dispatch and the wire's schemas go through.
 */
export const EVENT_EXAMPLES: { [T in PolicyEvent['type']]: Extract<PolicyEvent, { type: T }> } = {
  failure: failure(T0),
  declined: { type: 'declined', detectedAt: T0, startedAt: T0, reason: 'earlier-error', verdict: cudaOom },
  marker: marker(T0),
  disconnect: { type: 'disconnect', tabId: TAB, detectedAt: T0, kind: 'idle', line: 'Runtime disconnected' },
  dialog: { type: 'dialog', tabId: TAB, detectedAt: T0, kind: 'drive-permission', text: 'Permit this notebook' },
  claim: { type: 'claim', tabId: TAB, attempt: 'attempt-1' },
  ask: { type: 'ask', tabId: TAB, attempt: 'attempt-1' },
  answer: { type: 'answer', tabId: TAB, attempt: 'attempt-1', choice: 'restart' },
  'restart-result': {
    type: 'restart-result',
    tabId: TAB,
    attempt: 'attempt-1',
    ok: false,
    failed: { step: 'reconnect', reason: 'unable-to-connect', saw: 'Unable to connect' },
    runtime: 'unable-to-connect',
  },
  cancel: { type: 'cancel' },
  rearm: { type: 'rearm' },
  'reset-counter': { type: 'reset-counter' },
  'set-enabled': { type: 'set-enabled', enabled: false },
  'set-max-restarts': { type: 'set-max-restarts', value: 5 },
  'set-title': { type: 'set-title', title: 'train.ipynb' },
  adopt: { type: 'adopt', tabId: TAB, ownerAlive: false },
  'tab-closed': { type: 'tab-closed', tabId: TAB, gone: 'closed', othersShow: false },
  sight: { type: 'sight', blind: true, at: T0 },
  run: { type: 'run', tabId: TAB, detectedAt: T0, what: 'stopped', cell: 3, line: 'ValueError' },
  activity: { type: 'activity', tabId: TAB, busy: true },
  settle: { type: 'settle' },
};
