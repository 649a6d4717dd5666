import * as v from 'valibot';
import { secondsUntil } from '../lib/units';
import { cut, TEXT_LIMITS } from '../limits';
import type { PersonOnlyKind } from './dialogs';
import { answersDisconnect, type DisconnectKind, disconnectVerdict } from './disconnect';
import { clipFailed } from './failed-step';
import { endedByItself, endIdleGuard, forgetTab, freshActivity, noteActivity } from './idle-end';
import { RETENTION_MS } from './retention';
import { tabCarriesRun } from './run-going';
import {
  type AskChoice,
  type DeclineReason,
  type FailedStep,
  type FailureSource,
  failedStepText,
  HISTORY_LIMIT,
  type HistoryEntry,
  type HistoryParams,
  MaxRestartsSchema,
  type NotebookRecord,
  type ReconnectEnd,
  type RestartAction,
  type RestartReason,
  type RunEvent,
  SETTING_BOUNDS,
  type Settings,
  type Status,
  type TabGoneWay,
  type Verdict,
} from './schema';
import { withoutUnsafeText } from './storage-keys';

/**
 * The restart policy as a pure reducer. The service worker applies it one event at a time per notebook and stores the
 * result, so it alone decides: one failure gives one restart (however many places report it), a crash loop stops after
 * the limit, and only the owner tab, at the deadline, may perform the restart.
 *
 * A reducer that changes nothing returns the very same record object, so the caller can skip the write.
 */

/** Claims may arrive slightly before the deadline: timers in background tabs are coarse. */
export const CLAIM_TOLERANCE_MS = 500;
/** A restart not reported back within this time is treated as interrupted (the tab was closed or reloaded). */
export const RESTART_TIMEOUT_MS = 2 * 60_000;
/**
 * How late a countdown may still be carried out. Hidden tabs run timers up to a minute late (REFERENCE.md §11.6), so
 * a claim later than this comes from a page that was not running (a computer asleep); a countdown unclaimed for
 * longer had no page to carry it out (the notebook was closed). Neither may restart unseen.
 */
export const COUNTDOWN_GRACE_MS = 2 * 60_000;

export type { FailureSource, ReconnectEnd } from './schema';

/**
 * A note left to the person is written once while it stays the same: every tab on the notebook shows the same
 * disconnect or dialog, a background one late.
 */
export const LEFT_REPEAT_MS = 10 * 60_000;

export type PolicyEvent =
  | { type: 'failure'; tabId: number; detectedAt: number; startedAt: number; verdict: Verdict; source: FailureSource }
  | { type: 'declined'; detectedAt: number; startedAt: number; reason: DeclineReason; verdict: Verdict }
  | { type: 'marker'; tabId: number; detectedAt: number; pattern: string; line: string }
  | { type: 'disconnect'; tabId: number; detectedAt: number; kind: DisconnectKind; line: string }
  /** Colab shows a dialog only a person may answer, saying `text`. */
  | { type: 'dialog'; tabId: number; detectedAt: number; kind: PersonOnlyKind; text: string }
  | { type: 'claim'; tabId: number; attempt: string }
  /** The owner tab has a person at its keyboard: its countdown waits for their answer instead of acting. */
  | { type: 'ask'; tabId: number; attempt: string }
  /** The person's answer to the question, or `away`: no input for minutes, so the countdown acts after all. */
  | { type: 'answer'; tabId: number; attempt: string; choice: AskChoice }
  | { type: 'restart-result'; tabId: number; attempt: string; ok: true }
  | {
      type: 'restart-result';
      tabId: number;
      attempt: string;
      ok: false;
      failed: FailedStep;
      /** A reconnect that found Colab unable to connect (an outage), or nothing to reconnect: no UI problem. */
      runtime?: ReconnectEnd;
    }
  | { type: 'cancel' }
  | { type: 'rearm' }
  | { type: 'reset-counter' }
  | { type: 'set-enabled'; enabled: boolean }
  | { type: 'set-max-restarts'; value: number | null }
  | { type: 'set-title'; title: string }
  | { type: 'adopt'; tabId: number; ownerAlive: boolean }
  /**
   * The tab no longer shows the notebook, and its page could not say so: closed, discarded by the browser, or
   * navigated away (`gone`). `othersShow`: another tab of this session still shows the notebook.
   */
  | { type: 'tab-closed'; tabId: number; gone: TabGoneWay; othersShow: boolean }
  | { type: 'sight'; blind: boolean; at: number }
  | { type: 'run'; tabId: number; detectedAt: number; what: RunEvent; cell?: number; line?: string }
  /** Cells began to be under way in the tab (`busy`), or none is any more. */
  | { type: 'activity'; tabId: number; busy: boolean }
  /** Nothing but the guard's own time: a page showing the record (the popup) lets a guard idle too long end. */
  | { type: 'settle' };

/** The answer to a failure, marker or disconnect report. */
export type ReportReply =
  | { outcome: 'scheduled'; restartAt: number; attempt: string }
  | { outcome: 'absorbed' | 'ignored' | 'off' | 'gave-up'; reason: string };
export type ClaimReply = { granted: true; action: RestartAction } | { granted: false; reason: string };
export type CommandReply = { ok: true } | { ok: false; message: string };
/** `owner`: this tab runs the countdown of the pending restart. */
export type AdoptReply = { owner: boolean };

interface ReplyMap {
  failure: ReportReply;
  declined: CommandReply;
  marker: ReportReply;
  disconnect: ReportReply;
  dialog: ReportReply;
  claim: ClaimReply;
  ask: CommandReply;
  answer: ClaimReply;
  'restart-result': CommandReply;
  cancel: CommandReply;
  rearm: CommandReply;
  'reset-counter': CommandReply;
  'set-enabled': CommandReply;
  'set-max-restarts': CommandReply;
  'set-title': CommandReply;
  adopt: AdoptReply;
  'tab-closed': CommandReply;
  sight: CommandReply;
  run: CommandReply;
  activity: CommandReply;
  settle: CommandReply;
}
export type ReplyFor<E extends PolicyEvent> = ReplyMap[E['type']];
type EventOf<T extends PolicyEvent['type']> = Extract<PolicyEvent, { type: T }>;
type AnyReply = ReplyMap[keyof ReplyMap];

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

export function reduce<E extends PolicyEvent>(
  record: NotebookRecord,
  event: E,
  ctx: PolicyContext,
): Reduction<ReplyFor<E>> {
  const idle = endIdle(record, ctx);
  const current = expireStale(idle.record, event, ctx);
  // The map ties each event type to its reply type; the handlers below each return the matching one.
  const dispatched = dispatch(current, event, ctx) as Reduction<ReplyFor<E>>;
  const result = idle.effect ? { ...dispatched, effects: [idle.effect, ...dispatched.effects] } : dispatched;
  // A new title is no activity: a notebook merely opened again must not keep an idle record alive.
  if (result.record === record || event.type === 'set-title') return result;
  return { ...result, record: { ...result.record, touchedAt: ctx.now } };
}

/**
 * Only a user's choice creates a record (switching the guard on, a notebook's own limit): a notebook the guard never
 * watched leaves nothing in storage. Every other event changes a record only once it exists.
 */
export function createsRecord(event: PolicyEvent): boolean {
  return event.type === 'set-enabled' || event.type === 'set-max-restarts';
}

function dispatch(record: NotebookRecord, event: PolicyEvent, ctx: PolicyContext): Reduction {
  switch (event.type) {
    case 'failure':
      return onFailure(record, event, ctx);
    case 'declined':
      return onDeclined(record, event, ctx);
    case 'marker':
      return onMarker(record, event, ctx);
    case 'disconnect':
      return onDisconnect(record, event, ctx);
    case 'dialog':
      return onDialog(record, event, ctx);
    case 'claim':
      return onClaim(record, event, ctx);
    case 'ask':
      return onAsk(record, event, ctx);
    case 'answer':
      return onAnswer(record, event, ctx);
    case 'restart-result':
      return onRestartResult(record, event, ctx);
    case 'cancel':
      return onCancel(record, ctx);
    case 'rearm':
      return onRearm(record, ctx);
    case 'reset-counter':
      return onResetCounter(record, ctx);
    case 'set-enabled':
      return onSetEnabled(record, event.enabled, ctx);
    case 'set-max-restarts':
      return onSetMaxRestarts(record, event.value);
    case 'set-title':
      return onSetTitle(record, event.title);
    case 'adopt':
      return onAdopt(record, event, ctx);
    case 'tab-closed':
      return onTabClosed(record, event, ctx);
    case 'sight':
      return onSight(record, event);
    case 'run':
      return onRun(record, event, ctx);
    case 'activity':
      return onActivity(record, event, ctx);
    case 'settle':
      return ok(record);
  }
}

/**
 * A guard that saw nothing run for a whole stretch ends before the event is read (state/idle-end.ts), and says so: a
 * person who comes back expecting it on learns it is off.
 */
function endIdle(record: NotebookRecord, ctx: PolicyContext): { record: NotebookRecord; effect?: NotifyEffect } {
  const ended = endIdleGuard(record, ctx.settings, ctx.session, ctx.now);
  if (!ended) return { record };
  const next = addHistory(ended.record, ended.entry);
  return { record: next, effect: notify(next, 'guard-ended', ended.entry) };
}

function onActivity(record: NotebookRecord, event: EventOf<'activity'>, ctx: PolicyContext): Reduction {
  if (!record.enabled) return ok(record);
  return ok(noteActivity(record, event.tabId, event.busy, ctx.session, ctx.now));
}

// ---------------------------------------------------------------------------------------------------------------------
// Reports: failure, marker, disconnect

type Report = EventOf<'failure' | 'marker' | 'disconnect'>;

interface RestartRequest {
  reason: RestartReason;
  action: RestartAction;
  tabId: number;
  detectedAt: number;
  verdict: Verdict;
}

function onFailure(record: NotebookRecord, event: EventOf<'failure'>, ctx: PolicyContext): Reduction {
  const { settings } = ctx;
  if (endedByItself(record)) return leftAfterEnd(record, event.verdict, ctx);
  if (!record.enabled) return reportOff(record);
  const { category } = event.verdict;
  if (category !== 'custom' && !settings.categories[category]) {
    return ignored(record, `Category ${category} is switched off`);
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
function onDeclined(record: NotebookRecord, event: EventOf<'declined'>, ctx: PolicyContext): Reduction {
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
function onDisconnect(record: NotebookRecord, event: EventOf<'disconnect'>, ctx: PolicyContext): Reduction {
  if (!record.enabled) return reportOff(record);
  const verdict = clipVerdict(disconnectVerdict(event.kind, event.line));
  if (!answersDisconnect(event.kind)) return leaveDisconnect(record, verdict, ctx);
  if (!ctx.settings.reconnectOnDisconnect) return ignored(record, 'Reconnecting after a disconnect is switched off');
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

function leaveDisconnect(record: NotebookRecord, verdict: Verdict, ctx: PolicyContext): Reduction {
  const cancelling = record.status.kind === 'pending';
  const next: NotebookRecord = cancelling ? { ...record, status: { kind: 'watching' } } : record;
  const params: HistoryParams = cancelling ? { why: 'disconnect', cancelled: true } : { why: 'disconnect' };
  const reason = `${verdict.description}: not reconnected`;
  return leaveToPerson(next, { at: ctx.now, type: 'left-to-person', params, verdict }, reason);
}

/** A dialog only a person may answer: the history says what Colab waits for (the page's notice says it too). */
function onDialog(record: NotebookRecord, event: EventOf<'dialog'>, ctx: PolicyContext): Reduction {
  if (!record.enabled) return reportOff(record);
  const params: HistoryParams = {
    why: 'dialog',
    dialog: cut(event.kind, TEXT_LIMITS.uiStep),
    saw: cut(event.text, TEXT_LIMITS.detail),
  };
  return leaveToPerson(
    record,
    { at: ctx.now, type: 'left-to-person', params },
    `Colab waits for a person: ${event.kind}`,
  );
}

/** Written, and notified, once while it stays the same. */
function leaveToPerson(record: NotebookRecord, entry: HistoryEntry, reason: string): Reduction {
  const last = record.history.findLast((old) => old.type === 'left-to-person');
  const repeated =
    last !== undefined &&
    sameParams(last.params, entry.params) &&
    last.verdict?.line === entry.verdict?.line &&
    entry.at - last.at < LEFT_REPEAT_MS;
  if (repeated) return ignored(record, reason);
  const next = addHistory(record, entry);
  return { record: next, effects: [notify(next, 'left-to-person', entry)], reply: { outcome: 'ignored', reason } };
}

function sameParams(a: HistoryParams = {}, b: HistoryParams = {}): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)] as (keyof HistoryParams)[]);
  return [...keys].every((key) => a[key] === b[key]);
}

/**
 * Markers are restarts the user's own code asks for: they do not count toward the crash-loop limit, but a marker
 * printed in a loop must not spin forever, so they are bounded per local day. `markerCount` also counts the first
 * refused marker of the day: that is how the "limit reached" note is written once and not on every marker.
 */
function onMarker(record: NotebookRecord, event: EventOf<'marker'>, ctx: PolicyContext): Reduction {
  if (!record.enabled) return reportOff(record);
  const blocked = blockedReport(record, event);
  if (blocked) return blocked;
  const day = localDay(ctx.now);
  const today = record.markerDay === day ? record : { ...record, markerDay: day, markerCount: 0 };
  const limit = ctx.settings.markerDailyLimit;
  if (today.markerCount > limit) return ignored(today, `The daily limit of ${limit} marker restarts is reached`);
  const counted = { ...today, markerCount: today.markerCount + 1 };
  if (today.markerCount === limit) {
    const entry: HistoryEntry = { at: ctx.now, type: 'ignored', params: { why: 'marker-limit', max: limit } };
    return ignored(addHistory(counted, entry), `The daily limit of ${limit} marker restarts is reached`);
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
  return ignored(addHistory(record, entry), 'Already handled: the failed run started before the last restart');
}

/** Why a report cannot start a restart now, or null if it can. */
function blockedReport(record: NotebookRecord, event: Report): Reduction | null {
  const { status } = record;
  // One failure gives one restart, however many outputs, frames, toasts or tabs report it.
  if (status.kind === 'pending' || status.kind === 'restarting') {
    return reply(record, { outcome: 'absorbed', reason: `A restart is already ${status.kind}` });
  }
  if (status.kind === 'gave-up' || status.kind === 'ui-problem') {
    return ignored(record, 'The guard is stopped until the user re-arms it');
  }
  if (record.lastRestartAt !== undefined && event.detectedAt <= record.lastRestartAt) {
    return ignored(record, 'The report is about a run older than the last restart');
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

/** `params.delaySec`: the countdown's length. */
function schedule(
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

function giveUp(record: NotebookRecord, request: RestartRequest, max: number, ctx: PolicyContext): Reduction {
  const entry: HistoryEntry = {
    at: ctx.now,
    type: 'gave-up',
    params: { why: 'failed-again', n: record.loopCount, max },
    verdict: request.verdict,
  };
  const next = addHistory({ ...record, status: { kind: 'gave-up', at: ctx.now, restarts: record.loopCount } }, entry);
  const reason = `Gave up: ${record.loopCount} restarts already (limit ${max})`;
  return { record: next, effects: [notify(next, 'gave-up', entry)], reply: { outcome: 'gave-up', reason } };
}

/** A failure after the guard ended by itself: not restarted, and the history says why (once per failure line). */
function leftAfterEnd(record: NotebookRecord, reported: Verdict, ctx: PolicyContext): Reduction {
  const verdict = clipVerdict(reported);
  const reason = 'The guard ended by itself: nothing ran for hours before this run';
  const repeated = record.history.some(
    (e) => e.params?.why === 'guard-ended' && e.verdict?.line === verdict.line && ctx.now - e.at < DECLINED_REPEAT_MS,
  );
  if (repeated) return reply(record, { outcome: 'off', reason });
  const entry: HistoryEntry = { at: ctx.now, type: 'ignored', params: { why: 'guard-ended' }, verdict };
  return reply(addHistory(record, entry), { outcome: 'off', reason });
}

function reportOff(record: NotebookRecord): Reduction {
  return reply(record, { outcome: 'off', reason: 'The guard is off for this notebook' });
}

function ignored(record: NotebookRecord, reason: string): Reduction {
  return reply(record, { outcome: 'ignored', reason });
}

// ---------------------------------------------------------------------------------------------------------------------
// The restart itself: claim at the deadline, then the result

function onClaim(record: NotebookRecord, event: EventOf<'claim'>, ctx: PolicyContext): Reduction {
  const { status } = record;
  if (status.kind === 'restarting') return refuse(record, 'A restart is already in progress');
  if (status.kind !== 'pending') return refuse(record, 'No restart is pending');
  // Switching off clears a countdown; a record that still holds one while off (an import, a lost write) acts no more.
  if (!record.enabled) return refuse(record, 'The guard is off for this notebook');
  if (status.attempt !== event.attempt) return refuse(record, 'This restart was cancelled or replaced');
  if (status.ownerTab !== event.tabId) return refuse(record, 'Another tab owns this restart');
  if (status.session !== ctx.session) {
    return refuseAndCarry(record, status, event.tabId, { why: 'browser-restarted' }, ctx);
  }
  if (status.askedAt !== undefined) return refuse(record, 'Waiting for the person at the keyboard to answer');
  if (ctx.now < status.restartAt - CLAIM_TOLERANCE_MS) {
    return refuse(record, `Too early: ${secondsUntil(status.restartAt, ctx.now)} s left`);
  }
  // The page was not running at the deadline (a computer waking from sleep): nobody saw the countdown end.
  if (ctx.now - status.restartAt > COUNTDOWN_GRACE_MS) {
    const minutes = minutesSince(status.restartAt, ctx.now);
    return refuseAndCarry(record, status, event.tabId, { why: 'late', minutes }, ctx);
  }
  return reply({ ...record, status: restartingFrom(status, ctx.now) }, { granted: true, action: status.action });
}

function restartingFrom(status: Pending, now: number): Restarting {
  return {
    kind: 'restarting',
    reason: status.reason,
    action: status.action,
    attempt: status.attempt,
    ownerTab: status.ownerTab,
    startedAt: now,
  };
}

/** The countdown of the tab's own page, in this browser session: the only one its page may ask about or answer. */
function ownPending(record: NotebookRecord, tabId: number, attempt: string, ctx: PolicyContext): Pending | null {
  const { status } = record;
  if (!record.enabled || status.kind !== 'pending') return null;
  const own = status.attempt === attempt && status.ownerTab === tabId && status.session === ctx.session;
  return own ? status : null;
}

/**
 * A person is working in the owner tab (keys or pointer within minutes, the tab focused): a restart now would throw
 * away what they are doing, so the countdown becomes a question ("Restart session and run all?") and waits.
 */
function onAsk(record: NotebookRecord, event: EventOf<'ask'>, ctx: PolicyContext): Reduction {
  const status = ownPending(record, event.tabId, event.attempt, ctx);
  if (!status) return reply(record, { ok: false, message: 'No countdown of this tab to ask about' });
  if (!ctx.settings.askAtKeyboard) return reply(record, { ok: false, message: 'Asking first is switched off' });
  if (status.askedAt !== undefined) return ok(record);
  return ok({ ...record, status: { ...status, askedAt: ctx.now } });
}

/**
 * The question's end. Restart now is the claim, granted at once; Not now leaves the failure to the person for good
 * (it counted as a failure toward the crash loop when it was scheduled, as a cancelled countdown does); `away` (no
 * input for minutes) is the countdown again, shown from at least the first back-off, since nobody is there to be
 * surprised.
 */
function onAnswer(record: NotebookRecord, event: EventOf<'answer'>, ctx: PolicyContext): Reduction {
  const status = ownPending(record, event.tabId, event.attempt, ctx);
  if (status?.askedAt === undefined) return refuse(record, 'No question is waiting in this tab');
  const { now } = ctx;
  switch (event.choice) {
    case 'restart': {
      const next = addHistory({ ...record, status: restartingFrom(status, now) }, askedEntry(status, 'restart', now));
      return reply(next, { granted: true, action: status.action });
    }
    case 'not-now':
      return refuse(
        addHistory({ ...record, status: { kind: 'watching' } }, askedEntry(status, 'not-now', now)),
        'Left to the person',
      );
    case 'away': {
      const restartAt = Math.max(status.restartAt, now + ctx.settings.backoffBaseSec * 1000);
      const again: Pending = { ...counting(status), restartAt, attempt: ctx.newAttemptId() };
      const entry = askedEntry(status, 'away', now);
      entry.params = { ...entry.params, delaySec: secondsUntil(restartAt, now) };
      return refuse(addHistory({ ...record, status: again }, entry), 'Nobody answered: the countdown goes on');
    }
  }
}

function askedEntry(status: Pending, choice: HistoryParams['choice'], now: number): HistoryEntry {
  return { at: now, type: 'asked', params: { choice }, verdict: status.verdict, action: status.action };
}

/** The countdown without its question. */
function counting(status: Pending): Pending {
  const { askedAt: _, ...rest } = status;
  return rest;
}

function refuse(record: NotebookRecord, reason: string): Reduction {
  return reply(record, { granted: false, reason });
}

function refuseAndCarry(record: NotebookRecord, status: Pending, tabId: number, why: Carry, ctx: PolicyContext) {
  const carried = carryCountdown(record, status, tabId, why, ctx);
  return refuse(carried, `Countdown started again (${why.why}): a new countdown is shown before any restart`);
}

type RestartResult = EventOf<'restart-result'>;
type Pending = Extract<Status, { kind: 'pending' }>;
type Restarting = Extract<Status, { kind: 'restarting' }>;

function onRestartResult(record: NotebookRecord, event: RestartResult, ctx: PolicyContext): Reduction {
  const { status } = record;
  if (status.kind !== 'restarting' || status.attempt !== event.attempt || status.ownerTab !== event.tabId) {
    return reply(record, { ok: false, message: 'No such restart in progress (interrupted or already reported)' });
  }
  if (!event.ok && event.runtime === 'unable-to-connect') return reconnectFailed(record, status, event, ctx);
  if (!event.ok && event.runtime === 'not-needed') return reconnectNotNeeded(record, ctx.now);
  if (!event.ok) return restartFailed(record, event, ctx.now);
  // Dated from the claim: the page stops trusting older outputs then, so later reports belong to the new run.
  const done = countRestart(record, status, status.startedAt);
  const params = restartParams(done, status, ctx.settings);
  const entry: HistoryEntry = { at: ctx.now, type: 'restarted', params, action: status.action };
  const next = addHistory(done, entry);
  return { record: next, effects: [notify(next, 'restarted', entry)], reply: { ok: true } };
}

/**
 * Colab could not connect to a runtime (an outage): the attempt used its crash-loop slot. The next slot gets one more
 * attempt after its back-off, shown as a countdown; once the limit is used, the guard gives up and says why.
 */
function reconnectFailed(
  record: NotebookRecord,
  status: Restarting,
  event: Extract<RestartResult, { ok: false }>,
  ctx: PolicyContext,
): Reduction {
  const { now, settings } = ctx;
  const attempts = record.loopCount + 1;
  // Its status is set below: a give-up, or the next attempt's countdown.
  const tried: NotebookRecord = {
    ...withoutBlind(record),
    loopCount: attempts,
    lastRestartAt: status.startedAt,
    lastFailureAt: now,
  };
  const verdict = clipVerdict(disconnectVerdict('unable-to-connect', failedStepText(event.failed)));
  const failed = addHistory(tried, {
    at: now,
    type: 'restart-failed',
    failed: clipFailed(event.failed),
    verdict,
    action: status.action,
  });
  const max = effectiveMaxRestarts(failed, settings);
  if (attempts >= max) {
    const entry: HistoryEntry = {
      at: now,
      type: 'gave-up',
      params: { why: 'unable-to-connect', n: attempts, max },
      verdict,
    };
    const next = addHistory({ ...failed, status: { kind: 'gave-up', at: now, restarts: attempts } }, entry);
    return { record: next, effects: [notify(next, 'gave-up', entry)], reply: { ok: true } };
  }
  const delaySec = backoffSeconds(attempts, settings);
  const request: RestartRequest = {
    reason: 'disconnect',
    action: 'reconnect-and-run-all',
    tabId: event.tabId,
    detectedAt: now,
    verdict,
  };
  const scheduled = schedule(failed, request, { why: 'reconnect', n: attempts + 1, max, delaySec }, ctx);
  return { ...scheduled, reply: { ok: true } };
}

/** When the reconnect was due the runtime was connected (or connecting) again: nothing to do, nothing counted. */
function reconnectNotNeeded(record: NotebookRecord, now: number): Reduction {
  const entry: HistoryEntry = { at: now, type: 'ignored', params: { why: 'reconnect-not-needed' } };
  return ok(addHistory({ ...record, status: { kind: 'watching' } }, entry));
}

/** The UI operation failed: stop and tell the user. Retrying blindly could click the wrong thing again and again. */
function restartFailed(record: NotebookRecord, event: Extract<RestartResult, { ok: false }>, now: number): Reduction {
  const failed = clipFailed(event.failed);
  const entry: HistoryEntry = { at: now, type: 'restart-failed', failed };
  const next = addHistory({ ...record, status: { kind: 'ui-problem', at: now, failed } }, entry);
  const action = record.status.kind === 'restarting' ? record.status.action : undefined;
  const effect = { ...notify(next, 'ui-problem', entry), step: { failed, action } };
  return { record: next, effects: [effect], reply: { ok: true } };
}

/** Markers do not count toward the crash-loop limit; every restart counts toward the lifetime total. */
function countRestart(record: NotebookRecord, status: Restarting, restartedAt: number): NotebookRecord {
  return {
    ...withoutBlind(record),
    status: { kind: 'watching' },
    loopCount: status.reason === 'marker' ? record.loopCount : record.loopCount + 1,
    totalRestarts: record.totalRestarts + 1,
    lastRestartAt: restartedAt,
  };
}

function restartParams(record: NotebookRecord, status: Restarting, settings: Settings): HistoryParams {
  if (status.reason === 'marker') return { why: 'marker' };
  return { n: record.loopCount, max: effectiveMaxRestarts(record, settings) };
}

/**
 * A restart whose result never came (tab closed or reloaded mid-way, or no answer within the bound). Whether it
 * happened is unknown, so it is never retried, and it counts as a restart so an interruption cannot dodge the limit.
 */
function interruptRestart(record: NotebookRecord, status: Restarting, now: number): NotebookRecord {
  const entry: HistoryEntry = { at: now, type: 'interrupted', action: status.action };
  return addHistory(countRestart(record, status, status.startedAt), entry);
}

/** A restart that never reported back, and a countdown that nobody carried out in time, end before any event. */
function expireStale(record: NotebookRecord, event: PolicyEvent, ctx: PolicyContext): NotebookRecord {
  const { status } = record;
  if (status.kind === 'restarting' && ctx.now - status.startedAt >= RESTART_TIMEOUT_MS) {
    return interruptRestart(record, status, ctx.now);
  }
  if (status.kind !== 'pending' || ctx.now - status.restartAt <= COUNTDOWN_GRACE_MS) return record;
  // A question waits for its answer however long the person takes; its page ends it when they leave (onAnswer).
  if (status.askedAt !== undefined && status.session === ctx.session) return record;
  // Its own page claiming late is alive after all: onClaim shows the countdown again instead.
  const ownClaim =
    event.type === 'claim' &&
    event.tabId === status.ownerTab &&
    event.attempt === status.attempt &&
    status.session === ctx.session;
  return ownClaim ? record : skipCountdown(record, status, ctx.now);
}

/** Nothing restarts a notebook nobody had open: the countdown ends unperformed, with the failure it answered. */
function skipCountdown(record: NotebookRecord, status: Pending, now: number): NotebookRecord {
  const entry: HistoryEntry = {
    at: now,
    type: 'skipped',
    params: { minutes: minutesSince(status.restartAt, now) },
    verdict: status.verdict,
    action: status.action,
  };
  return addHistory({ ...record, status: { kind: 'watching' } }, entry);
}

/**
 * The countdown starts again, whole, in the page that carries it: `tabId` owns it with a new attempt and the base
 * delay, so its notice shows before anything restarts. A new attempt also makes any older claim void.
 */
type Carry = { why: 'browser-restarted' | 'reloaded' | 'took-over' } | { why: 'late'; minutes: number };

function carryCountdown(
  record: NotebookRecord,
  status: Pending,
  tabId: number,
  why: Carry,
  ctx: PolicyContext,
): NotebookRecord {
  const delay = ctx.settings.backoffBaseSec;
  const carried: Pending = {
    ...counting(status),
    ownerTab: tabId,
    restartAt: ctx.now + delay * 1000,
    attempt: ctx.newAttemptId(),
    session: ctx.session,
  };
  const params: HistoryParams = { ...why, tab: tabId, delaySec: delay };
  return addHistory({ ...record, status: carried }, { at: ctx.now, type: 'resumed', params });
}

/**
 * A page arrived on this notebook: a tab opened, reloaded or navigated back to it, Chrome reloaded a discarded tab,
 * the browser restored its tabs, or a tab inherits the countdown of one that left. A countdown is carried into the new
 * page only from the start (carryCountdown): a stored deadline would fire the moment the page loads, unseen. One that
 * ended long ago was skipped already (expireStale). A live owner in another tab keeps its countdown.
 */
function onAdopt(current: NotebookRecord, event: EventOf<'adopt'>, ctx: PolicyContext): Reduction {
  // The page arriving reports again what it sees under way; what its tab had before is not watched any more.
  const record = forgetTab(current, event.tabId, ctx.session, ctx.now);
  const { status } = record;
  if (status.kind === 'pending') {
    const reload = status.ownerTab === event.tabId;
    const liveOwner = !reload && event.ownerAlive && status.session === ctx.session;
    if (liveOwner) return reply(record, { owner: false });
    const why: Carry = {
      why: status.session !== ctx.session ? 'browser-restarted' : reload ? 'reloaded' : 'took-over',
    };
    return reply(carryCountdown(record, status, event.tabId, why, ctx), { owner: true });
  }
  // The owner reloading mid-restart also loses the result: its content script that would report it is gone.
  if (status.kind === 'restarting' && (status.ownerTab === event.tabId || !event.ownerAlive)) {
    return reply(interruptRestart(record, status, ctx.now), { owner: false });
  }
  return reply(record, { owner: false });
}

/**
 * A tab left the notebook without a word (closed, discarded, navigated away). The restart it was running ends as
 * interrupted now rather than showing "Restarting" until the next event; a countdown stays: another tab, or the
 * notebook reopened, takes it over. When the tab carried the notebook's run and no other tab shows the notebook,
 * nothing watches the run any more: that is written and told (`tab-gone`), once.
 */
function onTabClosed(current: NotebookRecord, event: EventOf<'tab-closed'>, ctx: PolicyContext): Reduction {
  const carried = !event.othersShow && tabCarriesRun(current, event.tabId, ctx.session);
  const record = forgetTab(current, event.tabId, ctx.session, ctx.now);
  const { status } = record;
  // The person closed the tab that asked them: their answer, in effect, is no.
  if (status.kind === 'pending' && status.askedAt !== undefined && status.ownerTab === event.tabId) {
    return ok(addHistory({ ...record, status: { kind: 'watching' } }, askedEntry(status, 'closed', ctx.now)));
  }
  const ended =
    status.kind === 'restarting' && status.ownerTab === event.tabId
      ? interruptRestart(record, status, ctx.now)
      : record;
  if (!carried || toldGone(ended, event.tabId)) return ok(ended);
  const entry: HistoryEntry = { at: ctx.now, type: 'tab-gone', params: { why: event.gone, tab: event.tabId } };
  const next = addHistory(ended, entry);
  return { record: next, effects: [notify(next, 'tab-gone', entry)], reply: { ok: true } };
}

/** The browser reports one navigation more than once: a tab gone is told once, until anything else is written. */
function toldGone(record: NotebookRecord, tab: number): boolean {
  const last = record.history.at(-1);
  return last?.type === 'tab-gone' && last.params?.tab === tab;
}

// ---------------------------------------------------------------------------------------------------------------------
// User commands

function onCancel(record: NotebookRecord, ctx: PolicyContext): Reduction {
  const { status } = record;
  if (status.kind === 'restarting') {
    return reply(record, { ok: false, message: 'The restart has already started and cannot be cancelled' });
  }
  if (status.kind !== 'pending') return ok(record);
  const entry: HistoryEntry = { at: ctx.now, type: 'cancelled' };
  return ok(addHistory({ ...record, status: { kind: 'watching' } }, entry));
}

function onRearm(record: NotebookRecord, ctx: PolicyContext): Reduction {
  const { kind } = record.status;
  if (kind !== 'gave-up' && kind !== 'ui-problem') return ok(record);
  const rearmed: NotebookRecord = { ...record, status: { kind: 'watching' }, loopCount: 0 };
  return ok(addHistory(rearmed, { at: ctx.now, type: 're-armed' }));
}

/** Resets the crash-loop counter (the "2 of 3"); the lifetime total stays, it is a statistic. Ends a give-up. */
function onResetCounter(record: NotebookRecord, ctx: PolicyContext): Reduction {
  const gaveUp = record.status.kind === 'gave-up';
  if (record.loopCount === 0 && !gaveUp) return ok(record);
  const next: NotebookRecord = { ...record, loopCount: 0, status: gaveUp ? { kind: 'watching' } : record.status };
  return ok(addHistory(next, { at: ctx.now, type: 'counter-reset', params: { total: record.totalRestarts } }));
}

/**
 * Off cancels a pending restart (one already running cannot be stopped and finishes normally). On is a fresh start:
 * a previous give-up or UI problem is cleared along with the crash-loop counter.
 */
function onSetEnabled(record: NotebookRecord, enabled: boolean, ctx: PolicyContext): Reduction {
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

function onSetMaxRestarts(record: NotebookRecord, value: number | null): Reduction {
  if (value !== null && !v.is(MaxRestartsSchema, value)) {
    const [min, max] = SETTING_BOUNDS.maxRestarts;
    return reply(record, { ok: false, message: `The limit must be a whole number from ${min} to ${max}` });
  }
  if ((record.overrides.maxRestarts ?? null) === value) return ok(record);
  return ok({ ...record, overrides: value === null ? {} : { maxRestarts: value } });
}

function onSetTitle(record: NotebookRecord, title: string): Reduction {
  const clean = cleanTitle(title);
  return ok(clean === record.title ? record : { ...record, title: clean });
}

/** A notebook's name as stored: what a page sends is never trusted to be short or free of spoofing characters. */
export function cleanTitle(title: string): string {
  return cut(withoutUnsafeText(title).trim(), TEXT_LIMITS.title);
}

function ok(record: NotebookRecord): Reduction {
  return reply(record, { ok: true });
}

// ---------------------------------------------------------------------------------------------------------------------
// Whether the page can see

/**
 * A page reports that detection may be blind (Colab busy, no cell seen running), or that it sees a cell running
 * again. Kept while the guard is on; a restart and switching the guard off clear it too.
 */
function onSight(record: NotebookRecord, event: EventOf<'sight'>): Reduction {
  if (!event.blind) return ok(record.blindSince === undefined ? record : withoutBlind(record));
  if (!record.enabled || record.blindSince !== undefined) return ok(record);
  return ok({ ...record, blindSince: event.at });
}

// ---------------------------------------------------------------------------------------------------------------------
// How runs end

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
function onRun(record: NotebookRecord, event: EventOf<'run'>, ctx: PolicyContext): Reduction {
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

function withoutBlind(record: NotebookRecord): NotebookRecord {
  const { blindSince: _, ...rest } = record;
  return rest;
}

// ---------------------------------------------------------------------------------------------------------------------
// Helpers, also for the pages

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
function ranHealthy(record: NotebookRecord, settings: Settings, now: number): boolean {
  const lastTrouble = lastTroubleAt(record);
  return lastTrouble > -Infinity && now - lastTrouble >= settings.healthyMinutes * 60_000;
}

function lastTroubleAt(record: NotebookRecord): number {
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

function minutesSince(time: number, now: number): number {
  return Math.floor((now - time) / 60_000);
}

/** Entries older than the retention period go whenever one is added (idle records are swept by retention.ts). */
/** The history stays in time order: an entry dated back (a healthy stretch) goes after those before its time. */
function addHistory(record: NotebookRecord, entry: HistoryEntry): NotebookRecord {
  const kept = record.history.filter((old) => entry.at - old.at < RETENTION_MS);
  const place = kept.findLastIndex((old) => old.at <= entry.at) + 1;
  return { ...record, history: kept.toSpliced(place, 0, entry).slice(-HISTORY_LIMIT) };
}

function notify(record: NotebookRecord, kind: NotifyEffect['kind'], entry: HistoryEntry): NotifyEffect {
  return { type: 'notify', kind, key: record.key, title: record.title || record.key, entry };
}

function reply(record: NotebookRecord, answer: AnyReply): Reduction {
  return { record, effects: [], reply: answer };
}

function clipVerdict(verdict: Verdict): Verdict {
  return {
    category: verdict.category,
    rule: cut(verdict.rule, TEXT_LIMITS.verdictField),
    description: cut(verdict.description, TEXT_LIMITS.verdictField),
    line: cut(verdict.line, TEXT_LIMITS.line),
  };
}
