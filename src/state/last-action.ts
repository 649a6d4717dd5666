import { disconnectKindOf } from './disconnect';
import type { HistoryEntry, RestartAction } from './schema';

/**
 * What the guard was doing when a step failed (a restart, or Run all after a crash): the action of the newest history
 * event that names one. A UI problem's status does not keep it, and its words depend on it.
 */
export function lastAction(history: readonly HistoryEntry[]): RestartAction | undefined {
  return history.findLast((entry) => entry.action !== undefined)?.action;
}

/** Whether the guard last gave up because Colab could not connect to a runtime (an outage), not a crash loop. */
export function gaveUpUnableToConnect(history: readonly HistoryEntry[]): boolean {
  const gaveUp = history.findLast((entry) => entry.type === 'gave-up');
  return disconnectKindOf(gaveUp?.verdict) === 'unable-to-connect';
}
