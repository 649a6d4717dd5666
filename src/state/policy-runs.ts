import { cut, TEXT_LIMITS } from '../limits';
import { noteActivity } from './idle-end';
import type { EventOf } from './policy-events';
import {
  addHistory,
  notify,
  ok,
  type PolicyContext,
  RESTART_TIMEOUT_MS,
  type Reduction,
  sameParams,
  withoutBlind,
} from './policy-parts';
import type { HistoryEntry, HistoryParams, NotebookRecord, RunEvent } from './schema';

// What the page sees run: cells under way, whether it can see, and how runs end

export function onActivity(record: NotebookRecord, event: EventOf<'activity'>, ctx: PolicyContext): Reduction {
  if (!record.enabled) return ok(record);
  return ok(noteActivity(record, event.tabId, event.busy, ctx.session, ctx.now));
}

/**
 * A page reports that detection may be blind (Colab busy, no cell seen running), or that it sees a cell running
 * again. Kept while the guard is on; a restart and switching the guard off clear it too.
 */
export function onSight(record: NotebookRecord, event: EventOf<'sight'>): Reduction {
  if (!event.blind) return ok(record.blindSince === undefined ? record : withoutBlind(record));
  if (!record.enabled || record.blindSince !== undefined) return ok(record);
  return ok({ ...record, blindSince: event.at });
}

const RUN_TYPES = {
  started: 'run-started',
  finished: 'run-finished',
  stopped: 'run-stopped',
  interrupted: 'run-interrupted',
} as const satisfies Record<RunEvent, HistoryEntry['type']>;

/** Every tab on the notebook shows the same run end: one like it this recently is the same one. */
const RUN_REPEAT_MS = 60_000;

/**
 * A run began or ended while the guard was on: the history tells the night whole, not its failures only. The run a
 * restart starts is the restart's own (its status says restarting until it reports, and its claim dates it).
 */
export function onRun(record: NotebookRecord, event: EventOf<'run'>, ctx: PolicyContext): Reduction {
  if (!record.enabled) return ok(record);
  const restartsRun =
    record.status.kind === 'restarting' ||
    (record.lastRestartAt !== undefined && ctx.now - record.lastRestartAt < RESTART_TIMEOUT_MS);
  if (event.what === 'started' && restartsRun) return ok(record);
  const entry = runEntry(event, ctx.now);
  const repeated = record.history.some(
    (old) => old.type === entry.type && sameParams(old.params, entry.params) && ctx.now - old.at < RUN_REPEAT_MS,
  );
  if (repeated) return ok(record);
  const next = addHistory(record, entry);
  if (event.what !== 'finished' && event.what !== 'stopped') return ok(next);
  const effect = notify(next, event.what === 'finished' ? 'run-finished' : 'run-stopped', entry);
  return { record: next, effects: [effect], reply: { ok: true } };
}

function runEntry(event: EventOf<'run'>, now: number): HistoryEntry {
  const type = RUN_TYPES[event.what];
  if (event.what !== 'stopped') return { at: now, type };
  const params: HistoryParams = { saw: cut(event.line ?? '', TEXT_LIMITS.line) };
  if (event.cell !== undefined) params.cell = event.cell;
  return { at: now, type, params };
}
