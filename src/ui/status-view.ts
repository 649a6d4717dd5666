import { secondsUntil } from '../lib/units';
import { effectiveMaxRestarts, localDay, loopCountAt } from '../state/policy';
import type { FailedStep, NotebookRecord, RestartAction, RestartReason, Settings, Verdict } from '../state/schema';

/**
 * A notebook's state as the pages, the badge and the notifications show it: what the record and settings mean now
 * (the crash-loop counter as the next failure will see it, the seconds left of a countdown).
 */

export type StatusState = 'off' | 'watching' | 'pending' | 'asking' | 'restarting' | 'gave-up' | 'ui-problem';

export interface StatusView {
  state: StatusState;
  /** Crash-loop restarts used, and the limit. */
  used: number;
  max: number;
  totalRestarts: number;
  markersToday: number;
  markerLimit: number;
  /** pending: whole seconds until the restart. */
  secondsLeft?: number;
  reason?: RestartReason;
  action?: RestartAction;
  verdict?: Verdict;
  /** gave-up / ui-problem: when it stopped; asking: since when the Colab tab asks its person. */
  since?: number;
  /** ui-problem: which UI step failed, and how. */
  failed?: FailedStep;
}

export function describeStatus(record: NotebookRecord, settings: Settings, now: number): StatusView {
  const base = {
    used: loopCountAt(record, settings, now),
    max: effectiveMaxRestarts(record, settings),
    totalRestarts: record.totalRestarts,
    markersToday: record.markerDay === localDay(now) ? Math.min(record.markerCount, settings.markerDailyLimit) : 0,
    markerLimit: settings.markerDailyLimit,
  };
  const { status } = record;
  // A restart already running finishes even when the guard was just switched off, so it is shown as such.
  if (!record.enabled && status.kind !== 'restarting') return { ...base, state: 'off' };
  switch (status.kind) {
    case 'watching':
      return { ...base, state: 'watching' };
    case 'pending':
      if (status.askedAt !== undefined) {
        const { reason, action, verdict } = status;
        return { ...base, state: 'asking', reason, action, verdict, since: status.askedAt };
      }
      return {
        ...base,
        state: 'pending',
        secondsLeft: secondsUntil(status.restartAt, now),
        reason: status.reason,
        action: status.action,
        verdict: status.verdict,
      };
    case 'restarting':
      return { ...base, state: 'restarting', reason: status.reason, action: status.action };
    case 'gave-up':
      return { ...base, state: 'gave-up', since: status.at };
    case 'ui-problem':
      return { ...base, state: 'ui-problem', since: status.at, failed: status.failed };
  }
}
