import { DAY_MS } from '../lib/units';
import { RETENTION_DAYS } from '../limits';
import type { NotebookRecord } from './schema';
import { isScratchKey } from './scratch';

/**
 * How long storage keeps what the guard did: history entries older than RETENTION_DAYS go, and so do records that
 * are switched off and saw nothing for that long. Records that hold nothing the user chose (off, no limit of their
 * own, no history: what versions before 0.1 wrote for every notebook opened) go at once, and so do the records of
 * scratch notebooks no tab shows any more (`shown`: the keys tabs show; a browser that quit left them behind), and of
 * `notebooks:empty`, where versions before 0.2 merged every scratch notebook and which no address names any more.
 */
export const RETENTION_MS = RETENTION_DAYS * DAY_MS;

export type Retention = { kind: 'keep' } | { kind: 'remove' } | { kind: 'rewrite'; record: NotebookRecord };

const RETIRED_KEYS: readonly string[] = ['notebooks:empty'];

export function retain(record: NotebookRecord, now: number, shown: ReadonlySet<string>): Retention {
  if (isBlank(record) || RETIRED_KEYS.includes(record.key)) return { kind: 'remove' };
  if (isScratchKey(record.key) && !shown.has(record.key)) return { kind: 'remove' };
  const last = lastActivity(record);
  // A record from before `touchedAt` with nothing else dated: its idle time starts now.
  if (last === null) return { kind: 'rewrite', record: { ...record, touchedAt: now } };
  if (!record.enabled && now - last >= RETENTION_MS) return { kind: 'remove' };
  const history = record.history.filter((entry) => now - entry.at < RETENTION_MS);
  if (history.length === record.history.length) return { kind: 'keep' };
  return { kind: 'rewrite', record: { ...record, history } };
}

/** When the user or the guard last did something with the notebook, or null if the record does not say. */
export function lastActivity(record: NotebookRecord): number | null {
  const times = [record.touchedAt, record.lastRestartAt, record.lastFailureAt, record.history.at(-1)?.at];
  const known = times.filter((time) => time !== undefined);
  return known.length > 0 ? Math.max(...known) : null;
}

function isBlank(record: NotebookRecord): boolean {
  return (
    !record.enabled &&
    record.status.kind === 'watching' &&
    record.history.length === 0 &&
    record.overrides.maxRestarts === undefined &&
    record.totalRestarts === 0 &&
    record.loopCount === 0
  );
}
