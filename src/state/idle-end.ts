import type { HistoryEntry, NotebookRecord, Settings } from './schema';

/**
 * A guard is armed for a stretch of work, not forever: one that has seen nothing run (no cell queued or running in any
 * tab of the notebook) for this long ends by itself, so an out-of-memory error while the person works in the notebook
 * days later restarts nothing. A cell under way keeps it armed however long it runs. Computed from stored times when
 * an event arrives (no timer).
 */
export const IDLE_END_MS = 12 * 60 * 60_000;

type Activity = NonNullable<NotebookRecord['activity']>;

/** Nothing under way yet: what a guard switched on starts from. */
export function freshActivity(now: number, session: string): Activity {
  return { at: now, busyTabs: [], session };
}

/** Whether cells are under way now in a tab of this browser session (a tab of an earlier session is gone). */
function busy(activity: Activity, session: string): boolean {
  return activity.busyTabs.length > 0 && activity.session === session;
}

/** When the guard ends by itself if nothing runs before; null: it does not (off, never ends, cells under way). */
export function idleEndAt(record: NotebookRecord, settings: Settings, session: string): number | null {
  const { activity } = record;
  if (!record.enabled || settings.guardNeverEnds || !activity || busy(activity, session)) return null;
  return activity.at + IDLE_END_MS;
}

/** The guard switched off by itself, with the history entry that says why; the same record while it stays on. */
export function endIdleGuard(record: NotebookRecord, settings: Settings, session: string, now: number) {
  const endAt = idleEndAt(record, settings, session);
  // A countdown or restart under way is the guard at work, never idle.
  if (endAt === null || now < endAt || record.status.kind === 'pending' || record.status.kind === 'restarting') {
    return null;
  }
  // Dated when the stretch ended, not when the event that found it came: the morning reads the true hour.
  const entry: HistoryEntry = { at: endAt, type: 'guard-ended', params: { minutes: IDLE_END_MS / 60_000 } };
  const { blindSince: _, ...rest } = record;
  return { record: { ...rest, enabled: false }, entry };
}

/** A page saw cells under way in `tab` begin (`busy`) or all end. */
export function noteActivity(
  record: NotebookRecord,
  tab: number,
  isBusy: boolean,
  session: string,
  now: number,
): NotebookRecord {
  const current = record.activity?.session === session ? record.activity.busyTabs : [];
  const others = current.filter((id) => id !== tab);
  return { ...record, activity: { at: now, busyTabs: isBusy ? [...others, tab] : others, session } };
}

/**
 * A tab closed, or its page reloaded: what it had under way is no longer watched (a page arriving reports what it
 * sees again). The activity ends now.
 */
export function forgetTab(record: NotebookRecord, tab: number, session: string, now: number): NotebookRecord {
  const { activity } = record;
  if (!activity?.busyTabs.includes(tab)) return record;
  return noteActivity(record, tab, false, session, now);
}

/** The guard ended by itself and was not switched on since: a failure now is left alone; the history says why. */
export function endedByItself(record: NotebookRecord): boolean {
  if (record.enabled) return false;
  const last = record.history.findLast(
    (e) => e.type === 'guard-ended' || e.type === 'enabled' || e.type === 'disabled',
  );
  return last?.type === 'guard-ended';
}
