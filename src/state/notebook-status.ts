import { effectiveMaxRestarts, loopCountAt } from './policy';
import type { HistoryEntry, NotebookRecord, Settings } from './schema';
import { type GuardedStatus, type NotebookStatus, STATUS_API_VERSION } from './status-shape';

/** The entries that record a failure the guard acted on: it scheduled a restart for it, or gave up because of it. */
const ACTED_ON: ReadonlySet<HistoryEntry['type']> = new Set(['restart-scheduled', 'gave-up']);
/** A marker is the notebook's own request for a restart (policy-reports.ts onMarker), not a failure. */
const MARKER_RULE = 'restart-marker';

/**
 * What the notebook's own code may read about itself: the same counts the popup shows, from the record as
 * stored. Of a notebook the guard is not on for (never switched on, or switched off), only that.
 */
export function notebookStatus(record: NotebookRecord, settings: Settings, now: number): NotebookStatus {
  if (!record.enabled) return { v: STATUS_API_VERSION, guarded: false };
  return {
    v: STATUS_API_VERSION,
    guarded: true,
    restarts: loopCountAt(record, settings, now),
    maxRestarts: effectiveMaxRestarts(record, settings),
    totalRestarts: record.totalRestarts,
    lastFailure: lastFailure(record.history),
    lastRestartAt: record.lastRestartAt === undefined ? null : isoTime(record.lastRestartAt),
  };
}

function lastFailure(history: readonly HistoryEntry[]): GuardedStatus['lastFailure'] {
  const entry = history.findLast((e) => ACTED_ON.has(e.type) && e.verdict && e.verdict.rule !== MARKER_RULE);
  if (!entry?.verdict) return null;
  return { kind: entry.verdict.category, line: entry.verdict.line, at: isoTime(entry.at) };
}

function isoTime(epochMs: number): string {
  return new Date(epochMs).toISOString();
}
