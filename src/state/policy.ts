import { endIdleGuard } from './idle-end';
import { onCancel, onRearm, onResetCounter, onSetEnabled, onSetMaxRestarts, onSetTitle } from './policy-commands';
import type { PolicyEvent, ReplyFor } from './policy-events';
import { addHistory, type NotifyEffect, notify, ok, type PolicyContext, type Reduction } from './policy-parts';
import { onDeclined, onDialog, onDisconnect, onFailure, onMarker } from './policy-reports';
import { expireStale, onAdopt, onAnswer, onAsk, onClaim, onRestartResult, onTabClosed } from './policy-restarts';
import { onActivity, onRun, onSight } from './policy-runs';
import type { NotebookRecord } from './schema';

/**
 * The restart policy as a pure reducer. The service worker applies it one event at a time per notebook and stores the
 * result, so it alone decides: one failure gives one restart (however many places report it), a crash loop stops after
 * the limit, and only the owner tab, at the deadline, may perform the restart.
 *
 * A reducer that changes nothing returns the very same record object, so the caller can skip the write.
 *
 * Its rooms: policy-reports.ts, policy-restarts.ts, policy-commands.ts and policy-runs.ts handle the events; below them
 * all, policy-events.ts says what the policy reads and answers, and policy-parts.ts holds what the rooms share.
 */
export { cleanTitle } from './policy-commands';
export {
  type AdoptReply,
  type ClaimReply,
  type CommandRefused,
  type CommandReply,
  type PageEvent,
  type PolicyEvent,
  REPLY_KIND,
  type Replies,
  type ReplyFor,
  type ReportReply,
  withTab,
} from './policy-events';
export {
  backoffSeconds,
  type Effect,
  effectiveMaxRestarts,
  localDay,
  loopCountAt,
  type NotifyEffect,
  type PolicyContext,
  RESTART_TIMEOUT_MS,
  type Reduction,
} from './policy-parts';
export { LEFT_REPEAT_MS } from './policy-reports';
export { CLAIM_TOLERANCE_MS, COUNTDOWN_GRACE_MS } from './policy-restarts';
export type { FailureSource, ReconnectEnd } from './schema';

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
