import type { HistoryEntry, RestartAction } from './schema';

/**
 * What the guard was doing when a step failed (a restart, or Run all after a crash): the action of the newest history
 * event that names one. A UI problem's status does not keep it, and its words depend on it.
 */
export function lastAction(history: readonly HistoryEntry[]): RestartAction | undefined {
  return history.findLast((entry) => entry.action !== undefined)?.action;
}
