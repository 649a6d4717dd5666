import { secondsUntil } from '../lib/units';
import { disconnectVerdict } from './disconnect';
import { clipFailed } from './failed-step';
import { forgetTab } from './idle-end';
import type { EventOf, PolicyEvent } from './policy-events';
import {
  addHistory,
  backoffSeconds,
  clipVerdict,
  effectiveMaxRestarts,
  minutesSince,
  notify,
  ok,
  type PolicyContext,
  RESTART_TIMEOUT_MS,
  type Reduction,
  type RestartRequest,
  reply,
  schedule,
  withoutBlind,
} from './policy-parts';
import { tabCarriesRun } from './run-going';
import {
  failedStepText,
  type HistoryEntry,
  type HistoryParams,
  type NotebookRecord,
  type Settings,
  type Status,
} from './schema';
import type { Why } from './why';

// The restart itself: claim at the deadline, then the result; a page arriving on the notebook or a tab leaving it

/** Claims may arrive slightly before the deadline: timers in background tabs are coarse. */
export const CLAIM_TOLERANCE_MS = 500;
/**
 * How late a countdown may still be carried out. Hidden tabs run timers up to a minute late (REFERENCE.md §11.6), so
 * a claim later than this comes from a page that was not running (a computer asleep); a countdown unclaimed for
 * longer had no page to carry it out (the notebook was closed). Neither may restart unseen.
 */
export const COUNTDOWN_GRACE_MS = 2 * 60_000;

export function onClaim(record: NotebookRecord, event: EventOf<'claim'>, ctx: PolicyContext): Reduction {
  const { status } = record;
  if (status.kind === 'restarting') return refuse(record, { kind: 'restart-under-way' });
  if (status.kind !== 'pending') return refuse(record, { kind: 'no-pending' });
  // Switching off clears a countdown; a record that still holds one while off (an import, a lost write) acts no more.
  if (!record.enabled) return refuse(record, { kind: 'guard-off' });
  if (status.attempt !== event.attempt) return refuse(record, { kind: 'replaced' });
  if (status.ownerTab !== event.tabId) return refuse(record, { kind: 'other-owner' });
  if (status.session !== ctx.session) {
    return refuseAndCarry(record, status, event.tabId, { why: 'browser-restarted' }, ctx);
  }
  if (status.askedAt !== undefined) return refuse(record, { kind: 'asking' });
  if (ctx.now < status.restartAt - CLAIM_TOLERANCE_MS) {
    return refuse(record, { kind: 'too-early', seconds: secondsUntil(status.restartAt, ctx.now) });
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
export function onAsk(record: NotebookRecord, event: EventOf<'ask'>, ctx: PolicyContext): Reduction {
  const status = ownPending(record, event.tabId, event.attempt, ctx);
  if (!status) return reply(record, { ok: false, why: { kind: 'no-countdown' } });
  if (!ctx.settings.askAtKeyboard) return reply(record, { ok: false, why: { kind: 'asking-off' } });
  if (status.askedAt !== undefined) return ok(record);
  return ok({ ...record, status: { ...status, askedAt: ctx.now } });
}

/**
 * The question's end. Restart now is the claim, granted at once; Not now leaves the failure to the person for good
 * (it counted as a failure toward the crash loop when it was scheduled, as a cancelled countdown does); `away` (no
 * input for minutes) is the countdown again, shown from at least the first back-off, since nobody is there to be
 * surprised.
 */
export function onAnswer(record: NotebookRecord, event: EventOf<'answer'>, ctx: PolicyContext): Reduction {
  const status = ownPending(record, event.tabId, event.attempt, ctx);
  if (status?.askedAt === undefined) return refuse(record, { kind: 'no-question' });
  const { now } = ctx;
  switch (event.choice) {
    case 'restart': {
      const next = addHistory({ ...record, status: restartingFrom(status, now) }, askedEntry(status, 'restart', now));
      return reply(next, { granted: true, action: status.action });
    }
    case 'not-now':
      return refuse(addHistory({ ...record, status: { kind: 'watching' } }, askedEntry(status, 'not-now', now)), {
        kind: 'left-to-person',
      });
    case 'away': {
      const restartAt = Math.max(status.restartAt, now + ctx.settings.backoffBaseSec * 1000);
      const again: Pending = { ...counting(status), restartAt, attempt: ctx.newAttemptId() };
      const entry = askedEntry(status, 'away', now);
      entry.params = { ...entry.params, delaySec: secondsUntil(restartAt, now) };
      return refuse(addHistory({ ...record, status: again }, entry), { kind: 'nobody-answered' });
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

function refuse(record: NotebookRecord, why: Why): Reduction {
  return reply(record, { granted: false, why });
}

function refuseAndCarry(record: NotebookRecord, status: Pending, tabId: number, carry: ClaimCarry, ctx: PolicyContext) {
  const carried = carryCountdown(record, status, tabId, carry, ctx);
  const why: Why =
    carry.why === 'late'
      ? { kind: 'countdown-again', carry: 'late', minutes: carry.minutes }
      : { kind: 'countdown-again', carry: carry.why };
  return refuse(carried, why);
}

type RestartResult = EventOf<'restart-result'>;
type Pending = Extract<Status, { kind: 'pending' }>;
type Restarting = Extract<Status, { kind: 'restarting' }>;

export function onRestartResult(record: NotebookRecord, event: RestartResult, ctx: PolicyContext): Reduction {
  const { status } = record;
  if (status.kind !== 'restarting' || status.attempt !== event.attempt || status.ownerTab !== event.tabId) {
    return reply(record, { ok: false, why: { kind: 'no-restart-in-progress' } });
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
export function expireStale(record: NotebookRecord, event: PolicyEvent, ctx: PolicyContext): NotebookRecord {
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
/** The carries a claim meets: the page that claims is the one that shows the countdown again. */
type ClaimCarry = { why: 'browser-restarted' } | Extract<Carry, { why: 'late' }>;

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
export function onAdopt(current: NotebookRecord, event: EventOf<'adopt'>, ctx: PolicyContext): Reduction {
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
export function onTabClosed(current: NotebookRecord, event: EventOf<'tab-closed'>, ctx: PolicyContext): Reduction {
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
