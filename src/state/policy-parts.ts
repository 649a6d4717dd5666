import { cut, TEXT_LIMITS } from '../limits';
import type { AnyReply } from './policy-events';
import { RETENTION_MS } from './retention';
import {
  type FailedStep,
  HISTORY_LIMIT,
  type HistoryEntry,
  type HistoryParams,
  type NotebookRecord,
  type RestartAction,
  type RestartReason,
  type Settings,
  type Status,
  type Verdict,
} from './schema';

/**
 * The parts every room of the restart policy uses (state/policy.ts and its policy-*.ts rooms): what a reduction is,
 * writing the history, the countdown, the crash-loop counter. It imports none of the rooms.
 */

/** A restart not reported back within this time is treated as interrupted (the tab was closed or reloaded). */
export const RESTART_TIMEOUT_MS = 2 * 60_000;

export interface NotifyEffect {
  type: 'notify';
  kind:
    | 'restarted'
    | 'gave-up'
    | 'ui-problem'
    | 'left-to-person'
    | 'run-finished'
    | 'run-stopped'
    | 'guard-ended'
    | 'tab-gone';
  key: string;
  title: string;
  /** The history entry that tells what happened: the notification says it in the history's words. */
  entry: HistoryEntry;
  /** ui-problem: the step that failed and what the restart was doing, for the notification to say in words. */
  step?: { failed: FailedStep; action?: RestartAction };
}
export type Effect = NotifyEffect;

export interface Reduction<R = AnyReply> {
  record: NotebookRecord;
  effects: Effect[];
  reply: R;
}

export interface PolicyContext {
  now: number;
  settings: Settings;
  /** This browser session (background/session.ts): the pages of another session are gone, whatever their tab ids. */
  session: string;
  newAttemptId: () => string;
}

export interface RestartRequest {
  reason: RestartReason;
  action: RestartAction;
  tabId: number;
  detectedAt: number;
  verdict: Verdict;
}

/** `params.delaySec`: the countdown's length. */
export function schedule(
  record: NotebookRecord,
  request: RestartRequest,
  params: HistoryParams & { delaySec: number },
  ctx: PolicyContext,
): Reduction {
  const attempt = ctx.newAttemptId();
  const restartAt = ctx.now + params.delaySec * 1000;
  const status: Status = {
    kind: 'pending',
    reason: request.reason,
    action: request.action,
    restartAt,
    attempt,
    ownerTab: request.tabId,
    detectedAt: request.detectedAt,
    verdict: request.verdict,
    session: ctx.session,
  };
  const entry: HistoryEntry = {
    at: ctx.now,
    type: 'restart-scheduled',
    params,
    verdict: request.verdict,
    action: request.action,
  };
  return reply(addHistory({ ...record, status }, entry), { outcome: 'scheduled', restartAt, attempt });
}

export function sameParams(a: HistoryParams = {}, b: HistoryParams = {}): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)] as (keyof HistoryParams)[]);
  return [...keys].every((key) => a[key] === b[key]);
}

export function withoutBlind(record: NotebookRecord): NotebookRecord {
  const { blindSince: _, ...rest } = record;
  return rest;
}

export function ok(record: NotebookRecord): Reduction {
  return reply(record, { ok: true });
}

export function effectiveMaxRestarts(record: NotebookRecord, settings: Settings): number {
  return record.overrides.maxRestarts ?? settings.maxRestarts;
}

/** Back-off before restart n+1 (n restarts so far): base · 2^n, capped. With defaults: 5, 10, 20, 40 … 300 s. */
export function backoffSeconds(n: number, settings: Settings): number {
  return Math.min(settings.backoffBaseSec * 2 ** Math.max(0, n), settings.backoffMaxSec);
}

/** The crash-loop counter as the next failure will see it: a healthy stretch since the last restart resets it. */
export function loopCountAt(record: NotebookRecord, settings: Settings, now: number): number {
  if (record.status.kind !== 'watching') return record.loopCount;
  return ranHealthy(record, settings, now) ? 0 : record.loopCount;
}

/** Healthy: no restart and no counted failure (even one whose restart was cancelled) for the whole window. */
export function ranHealthy(record: NotebookRecord, settings: Settings, now: number): boolean {
  const lastTrouble = lastTroubleAt(record);
  return lastTrouble > -Infinity && now - lastTrouble >= settings.healthyMinutes * 60_000;
}

export function lastTroubleAt(record: NotebookRecord): number {
  return Math.max(record.lastRestartAt ?? -Infinity, record.lastFailureAt ?? -Infinity);
}

/** The local calendar day, YYYY-MM-DD: the marker limit resets at the user's midnight, not UTC's. */
export function localDay(now: number): string {
  const d = new Date(now);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

export function minutesSince(time: number, now: number): number {
  return Math.floor((now - time) / 60_000);
}

/** Entries older than the retention period go whenever one is added (idle records are swept by retention.ts). */
/** The history stays in time order: an entry dated back (a healthy stretch) goes after those before its time. */
export function addHistory(record: NotebookRecord, entry: HistoryEntry): NotebookRecord {
  const kept = record.history.filter((old) => entry.at - old.at < RETENTION_MS);
  const place = kept.findLastIndex((old) => old.at <= entry.at) + 1;
  return { ...record, history: kept.toSpliced(place, 0, entry).slice(-HISTORY_LIMIT) };
}

export function notify(record: NotebookRecord, kind: NotifyEffect['kind'], entry: HistoryEntry): NotifyEffect {
  return { type: 'notify', kind, key: record.key, title: record.title || record.key, entry };
}

export function reply(record: NotebookRecord, answer: AnyReply): Reduction {
  return { record, effects: [], reply: answer };
}

export function clipVerdict(verdict: Verdict): Verdict {
  return {
    category: verdict.category,
    rule: cut(verdict.rule, TEXT_LIMITS.verdictField),
    description: cut(verdict.description, TEXT_LIMITS.verdictField),
    line: cut(verdict.line, TEXT_LIMITS.line),
  };
}
