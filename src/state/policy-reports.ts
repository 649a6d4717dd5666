import { cut, TEXT_LIMITS } from '../limits';
import { answersDisconnect, type DisconnectKind, disconnectVerdict } from './disconnect';
import { endedByItself } from './idle-end';
import type { EventOf } from './policy-events';
import {
  addHistory,
  backoffSeconds,
  clipVerdict,
  effectiveMaxRestarts,
  lastTroubleAt,
  localDay,
  notify,
  ok,
  type PolicyContext,
  type Reduction,
  type RestartRequest,
  ranHealthy,
  reply,
  sameParams,
  schedule,
} from './policy-parts';
import type { HistoryEntry, HistoryParams, NotebookRecord, Settings, Verdict } from './schema';
import type { Why } from './why';

// Reports: failure, marker, disconnect, dialog, and a failure a page left alone

/**
 * A note left to the person is written once while it stays the same: every tab on the notebook shows the same
 * disconnect or dialog, a background one late.
 */
export const LEFT_REPEAT_MS = 10 * 60_000;

type Report = EventOf<'failure' | 'marker' | 'disconnect'>;

export function onFailure(record: NotebookRecord, event: EventOf<'failure'>, ctx: PolicyContext): Reduction {
  const { settings } = ctx;
  if (endedByItself(record)) return leftAfterEnd(record, event.verdict, ctx);
  if (!record.enabled) return reportOff(record);
  const { category } = event.verdict;
  if (category !== 'custom' && !settings.categories[category]) {
    return ignored(record, { kind: 'category-off', category });
  }
  const handled = alreadyHandled(record, event, ctx);
  if (handled) return handled;
  const blocked = blockedReport(record, event);
  if (blocked) return blocked;
  // After a crash toast Colab has already restarted the kernel: running all cells is enough.
  const crash = event.source === 'crash-toast';
  const request: RestartRequest = {
    reason: crash ? 'crash' : 'failure',
    action: crash ? 'run-all' : 'restart-and-run-all',
    ...requestFields(event),
    verdict: clipVerdict(event.verdict),
  };
  return requestCountedRestart(record, request, ctx);
}

/** Two tabs on a notebook show the same run: a note like one written this recently is the same note. */
const DECLINED_REPEAT_MS = 60_000;

/**
 * A failure a page saw and left alone, with why (schema.ts DECLINED): a history entry, so that the morning's reader
 * knows why nothing restarted. Not for a run that started before the last restart (handled already), nor twice.
 */
export function onDeclined(record: NotebookRecord, event: EventOf<'declined'>, ctx: PolicyContext): Reduction {
  if (!record.enabled) return ok(record);
  if (record.lastRestartAt !== undefined && event.startedAt < record.lastRestartAt) return ok(record);
  const verdict = clipVerdict(event.verdict);
  const repeated = record.history.some(
    (e) =>
      e.type === 'ignored' &&
      e.params?.why === event.reason &&
      e.verdict?.line === verdict.line &&
      ctx.now - e.at < DECLINED_REPEAT_MS,
  );
  if (repeated) return ok(record);
  return ok(addHistory(record, { at: ctx.now, type: 'ignored', params: { why: event.reason }, verdict }));
}

/**
 * Only an idle time-out (or maximum duration) and Colab failing to connect are answered, and only with the setting
 * on; every other disconnect was meant (disallowed code, no compute units, usage limits, the notebook ending its own
 * runtime) or is not understood: noted with Colab's words, and a countdown due would run the notebook again on a new
 * runtime, so it is cancelled.
 */
export function onDisconnect(record: NotebookRecord, event: EventOf<'disconnect'>, ctx: PolicyContext): Reduction {
  if (!record.enabled) return reportOff(record);
  const verdict = clipVerdict(disconnectVerdict(event.kind, event.line));
  if (!answersDisconnect(event.kind)) return leaveDisconnect(record, event.kind, verdict, ctx);
  if (!ctx.settings.reconnectOnDisconnect) return ignored(record, { kind: 'reconnect-off' });
  const blocked = blockedReport(record, event);
  if (blocked) return blocked;
  const request: RestartRequest = {
    reason: 'disconnect',
    action: 'reconnect-and-run-all',
    ...requestFields(event),
    verdict,
  };
  return requestCountedRestart(record, request, ctx);
}

function leaveDisconnect(
  record: NotebookRecord,
  kind: DisconnectKind,
  verdict: Verdict,
  ctx: PolicyContext,
): Reduction {
  const cancelling = record.status.kind === 'pending';
  const next: NotebookRecord = cancelling ? { ...record, status: { kind: 'watching' } } : record;
  const params: HistoryParams = cancelling ? { why: 'disconnect', cancelled: true } : { why: 'disconnect' };
  const why: Why = { kind: 'disconnect-left', disconnect: kind };
  return leaveToPerson(next, { at: ctx.now, type: 'left-to-person', params, verdict }, why);
}

/** A dialog only a person may answer: the history says what Colab waits for (the page's notice says it too). */
export function onDialog(record: NotebookRecord, event: EventOf<'dialog'>, ctx: PolicyContext): Reduction {
  if (!record.enabled) return reportOff(record);
  const params: HistoryParams = {
    why: 'dialog',
    dialog: cut(event.kind, TEXT_LIMITS.uiStep),
    saw: cut(event.text, TEXT_LIMITS.detail),
  };
  return leaveToPerson(
    record,
    { at: ctx.now, type: 'left-to-person', params },
    { kind: 'dialog-left', dialog: event.kind },
  );
}

/** Written, and notified, once while it stays the same. */
function leaveToPerson(record: NotebookRecord, entry: HistoryEntry, why: Why): Reduction {
  const last = record.history.findLast((old) => old.type === 'left-to-person');
  const repeated =
    last !== undefined &&
    sameParams(last.params, entry.params) &&
    last.verdict?.line === entry.verdict?.line &&
    entry.at - last.at < LEFT_REPEAT_MS;
  if (repeated) return ignored(record, why);
  const next = addHistory(record, entry);
  return { record: next, effects: [notify(next, 'left-to-person', entry)], reply: { outcome: 'ignored', why } };
}

/**
 * Markers are restarts the user's own code asks for: they do not count toward the crash-loop limit, but a marker
 * printed in a loop must not spin forever, so they are bounded per local day. `markerCount` also counts the first
 * refused marker of the day: that is how the "limit reached" note is written once and not on every marker.
 */
export function onMarker(record: NotebookRecord, event: EventOf<'marker'>, ctx: PolicyContext): Reduction {
  if (!record.enabled) return reportOff(record);
  const blocked = blockedReport(record, event);
  if (blocked) return blocked;
  const day = localDay(ctx.now);
  const today = record.markerDay === day ? record : { ...record, markerDay: day, markerCount: 0 };
  const limit = ctx.settings.markerDailyLimit;
  if (today.markerCount > limit) return ignored(today, { kind: 'marker-limit', limit });
  const counted = { ...today, markerCount: today.markerCount + 1 };
  if (today.markerCount === limit) {
    const entry: HistoryEntry = { at: ctx.now, type: 'ignored', params: { why: 'marker-limit', max: limit } };
    return ignored(addHistory(counted, entry), { kind: 'marker-limit', limit });
  }
  const verdict = clipVerdict({
    category: 'custom',
    rule: 'restart-marker',
    description: `Restart marker: ${event.pattern}`,
    line: event.line,
  });
  const request: RestartRequest = { reason: 'marker', action: 'restart-and-run-all', ...requestFields(event), verdict };
  const delaySec = ctx.settings.backoffBaseSec;
  return schedule(counted, request, { why: 'marker', n: counted.markerCount, max: limit, delaySec }, ctx);
}

function requestFields(event: Report): Pick<RestartRequest, 'tabId' | 'detectedAt'> {
  return { tabId: event.tabId, detectedAt: event.detectedAt };
}

/**
 * One execution, one failure, across tabs: every tab on the notebook shows the same failure, a
 * background one possibly after the restart it caused. A failure of an execution that began before the last restart
 * was claimed was handled by that restart (which ended the execution): noted, never acted on.
 */
function alreadyHandled(record: NotebookRecord, event: EventOf<'failure'>, ctx: PolicyContext): Reduction | null {
  const { lastRestartAt } = record;
  if (lastRestartAt === undefined || event.startedAt >= lastRestartAt) return null;
  const verdict = clipVerdict(event.verdict);
  const entry: HistoryEntry = { at: ctx.now, type: 'ignored', params: { why: 'already-handled' }, verdict };
  return ignored(addHistory(record, entry), { kind: 'already-handled' });
}

/** Why a report cannot start a restart now, or null if it can. */
function blockedReport(record: NotebookRecord, event: Report): Reduction | null {
  const { status } = record;
  // One failure gives one restart, however many outputs, frames, toasts or tabs report it.
  if (status.kind === 'pending' || status.kind === 'restarting') {
    const why: Why = { kind: status.kind === 'pending' ? 'restart-pending' : 'restart-under-way' };
    return reply(record, { outcome: 'absorbed', why });
  }
  if (status.kind === 'gave-up' || status.kind === 'ui-problem') {
    return ignored(record, { kind: 'stopped' });
  }
  if (record.lastRestartAt !== undefined && event.detectedAt <= record.lastRestartAt) {
    return ignored(record, { kind: 'older-run' });
  }
  return null;
}

/** Failures, crashes and disconnects count toward the crash-loop limit; a healthy stretch since the last restart or
 * counted failure resets it. */
function requestCountedRestart(record: NotebookRecord, request: RestartRequest, ctx: PolicyContext): Reduction {
  const { now, settings } = ctx;
  const rested = { ...applyHealthyReset(record, settings, now), lastFailureAt: now };
  const max = effectiveMaxRestarts(rested, settings);
  if (rested.loopCount >= max) return giveUp(rested, request, max, ctx);
  const delaySec = backoffSeconds(rested.loopCount, settings);
  return schedule(rested, request, { n: rested.loopCount + 1, max, delaySec }, ctx);
}

/** The "Healthy run" entry is dated when the stretch was reached, not when the next failure came to show it. */
function applyHealthyReset(record: NotebookRecord, settings: Settings, now: number): NotebookRecord {
  if (record.loopCount === 0 || !ranHealthy(record, settings, now)) return record;
  const params = { minutes: settings.healthyMinutes, total: record.totalRestarts };
  const at = lastTroubleAt(record) + settings.healthyMinutes * 60_000;
  return addHistory({ ...record, loopCount: 0 }, { at, type: 'healthy-reset', params });
}

function giveUp(record: NotebookRecord, request: RestartRequest, max: number, ctx: PolicyContext): Reduction {
  const entry: HistoryEntry = {
    at: ctx.now,
    type: 'gave-up',
    params: { why: 'failed-again', n: record.loopCount, max },
    verdict: request.verdict,
  };
  const next = addHistory({ ...record, status: { kind: 'gave-up', at: ctx.now, restarts: record.loopCount } }, entry);
  const why: Why = { kind: 'gave-up', restarts: record.loopCount, max };
  return { record: next, effects: [notify(next, 'gave-up', entry)], reply: { outcome: 'gave-up', why } };
}

/** A failure after the guard ended by itself: not restarted, and the history says why (once per failure line). */
function leftAfterEnd(record: NotebookRecord, reported: Verdict, ctx: PolicyContext): Reduction {
  const verdict = clipVerdict(reported);
  const why: Why = { kind: 'guard-ended' };
  const repeated = record.history.some(
    (e) => e.params?.why === 'guard-ended' && e.verdict?.line === verdict.line && ctx.now - e.at < DECLINED_REPEAT_MS,
  );
  if (repeated) return reply(record, { outcome: 'off', why });
  const entry: HistoryEntry = { at: ctx.now, type: 'ignored', params: { why: 'guard-ended' }, verdict };
  return reply(addHistory(record, entry), { outcome: 'off', why });
}

function reportOff(record: NotebookRecord): Reduction {
  return reply(record, { outcome: 'off', why: { kind: 'guard-off' } });
}

function ignored(record: NotebookRecord, why: Why): Reduction {
  return reply(record, { outcome: 'ignored', why });
}
