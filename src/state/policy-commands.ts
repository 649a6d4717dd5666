import * as v from 'valibot';
import { cut, TEXT_LIMITS } from '../limits';
import { freshActivity } from './idle-end';
import { addHistory, ok, type PolicyContext, type Reduction, reply, withoutBlind } from './policy-parts';
import { type HistoryEntry, MaxRestartsSchema, type NotebookRecord, SETTING_BOUNDS } from './schema';
import { withoutUnsafeText } from './storage-keys';

// User commands: from the popup, the options page and the notice's button

export function onCancel(record: NotebookRecord, ctx: PolicyContext): Reduction {
  const { status } = record;
  if (status.kind === 'restarting') {
    return reply(record, { ok: false, why: { kind: 'cannot-cancel' } });
  }
  if (status.kind !== 'pending') return ok(record);
  const entry: HistoryEntry = { at: ctx.now, type: 'cancelled' };
  return ok(addHistory({ ...record, status: { kind: 'watching' } }, entry));
}

export function onRearm(record: NotebookRecord, ctx: PolicyContext): Reduction {
  const { kind } = record.status;
  if (kind !== 'gave-up' && kind !== 'ui-problem') return ok(record);
  const rearmed: NotebookRecord = { ...record, status: { kind: 'watching' }, loopCount: 0 };
  return ok(addHistory(rearmed, { at: ctx.now, type: 're-armed' }));
}

/** Resets the crash-loop counter (the "2 of 3"); the lifetime total stays, it is a statistic. Ends a give-up. */
export function onResetCounter(record: NotebookRecord, ctx: PolicyContext): Reduction {
  const gaveUp = record.status.kind === 'gave-up';
  if (record.loopCount === 0 && !gaveUp) return ok(record);
  const next: NotebookRecord = { ...record, loopCount: 0, status: gaveUp ? { kind: 'watching' } : record.status };
  return ok(addHistory(next, { at: ctx.now, type: 'counter-reset', params: { total: record.totalRestarts } }));
}

/**
 * Off cancels a pending restart (one already running cannot be stopped and finishes normally). On is a fresh start:
 * a previous give-up or UI problem is cleared along with the crash-loop counter.
 */
export function onSetEnabled(record: NotebookRecord, enabled: boolean, ctx: PolicyContext): Reduction {
  if (record.enabled === enabled) return ok(record);
  if (!enabled) {
    const cancelling = record.status.kind === 'pending';
    const next: NotebookRecord = {
      ...withoutBlind(record),
      enabled,
      status: cancelling ? { kind: 'watching' } : record.status,
    };
    const entry: HistoryEntry = { at: ctx.now, type: 'disabled' };
    return ok(addHistory(next, cancelling ? { ...entry, params: { cancelled: true } } : entry));
  }
  const { status } = record;
  const stopped = status.kind === 'gave-up' || status.kind === 'ui-problem';
  // Switched on, the guard is armed for a stretch from now (state/idle-end.ts). A restart still under way when switched
  // off and on again finishes and counts; otherwise the crash loop starts over.
  const armed = { ...record, enabled, activity: freshActivity(ctx.now, ctx.session) };
  const next: NotebookRecord = stopped
    ? { ...armed, status: { kind: 'watching' }, loopCount: 0 }
    : { ...armed, loopCount: status.kind === 'restarting' ? record.loopCount : 0 };
  return ok(addHistory(next, { at: ctx.now, type: 'enabled' }));
}

export function onSetMaxRestarts(record: NotebookRecord, value: number | null): Reduction {
  if (value !== null && !v.is(MaxRestartsSchema, value)) {
    const [min, max] = SETTING_BOUNDS.maxRestarts;
    return reply(record, { ok: false, why: { kind: 'max-restarts-range', min, max } });
  }
  if ((record.overrides.maxRestarts ?? null) === value) return ok(record);
  return ok({ ...record, overrides: value === null ? {} : { maxRestarts: value } });
}

export function onSetTitle(record: NotebookRecord, title: string): Reduction {
  const clean = cleanTitle(title);
  return ok(clean === record.title ? record : { ...record, title: clean });
}

/** A notebook's name as stored: what a page sends is never trusted to be short or free of spoofing characters. */
export function cleanTitle(title: string): string {
  return cut(withoutUnsafeText(title).trim(), TEXT_LIMITS.title);
}
