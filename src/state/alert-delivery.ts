import * as v from 'valibot';
import { ALERT_EVENTS, type AlertEvent } from './alerts';

/**
 * The alerts waiting to be sent again and the last failures, under their own storage key: a service worker stopped
 * between two tries finds its work here. Pure: the adapter (background/alerts.ts) reads, applies and writes.
 */

export const ALERT_LOG_KEY = 'alertLog';
export const ALERT_LOG_VERSION = 1;

/** After the first try fails: again 10 s later, then 1 min, then 5 min; then it is given up (and listed). */
export const RETRY_DELAYS_MS = [10_000, 60_000, 300_000] as const;
/** At most this many alerts wait at once (a long outage of the receiver keeps the newest). */
export const MAX_PENDING = 20;
/** The options page lists this many of the newest failures. */
export const MAX_FAILURES = 5;

const Text = (max: number) => v.pipe(v.string(), v.maxLength(max));
const Time = v.pipe(v.number(), v.integer(), v.minValue(0));

const AlertRequestSchema = v.object({
  url: Text(2000),
  headers: v.record(Text(100), Text(4000)),
  body: Text(20_000),
});
export type AlertRequest = v.InferOutput<typeof AlertRequestSchema>;

export const ALERT_KINDS = [...ALERT_EVENTS, 'test'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** Why a try failed, as data: the pages say it in words. */
export const DeliveryErrorSchema = v.variant('kind', [
  v.object({
    kind: v.literal('http'),
    status: v.pipe(v.number(), v.integer()),
    /** How long the receiver asked to be left alone (429 or 503 with `Retry-After`, Telegram's `retry_after`). */
    waitSec: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
    /** What the receiver said (Telegram's `description`: "Bad Request: chat not found"). */
    detail: v.optional(Text(200)),
  }),
  v.object({ kind: v.literal('network'), message: Text(300) }),
  v.object({ kind: v.literal('timeout') }),
  v.object({ kind: v.literal('permission') }),
  /** The receiver answered with a redirect, which is never followed: it may lead to a host nobody granted. */
  v.object({ kind: v.literal('redirect') }),
]);
export type DeliveryError = v.InferOutput<typeof DeliveryErrorSchema>;

const PendingSchema = v.object({
  id: Text(100),
  event: v.picklist(ALERT_KINDS),
  /** Failed tries so far. */
  tries: v.pipe(v.number(), v.integer(), v.minValue(0)),
  dueAt: Time,
  request: AlertRequestSchema,
});
export type PendingAlert = v.InferOutput<typeof PendingSchema>;

const FailureSchema = v.object({
  at: Time,
  event: v.picklist(ALERT_KINDS),
  error: DeliveryErrorSchema,
  /** No try is left: the alert was not delivered. */
  final: v.boolean(),
});
export type AlertFailure = v.InferOutput<typeof FailureSchema>;

/** The last alert sent of one event kind for one notebook, and how many like it were held back since. */
const RecentSchema = v.object({
  key: Text(1000),
  event: v.picklist(ALERT_EVENTS),
  at: Time,
  held: v.pipe(v.number(), v.integer(), v.minValue(0)),
});
export type RecentAlert = v.InferOutput<typeof RecentSchema>;

export const AlertLogSchema = v.object({
  v: v.literal(ALERT_LOG_VERSION),
  pending: v.optional(v.array(PendingSchema), () => []),
  failures: v.optional(v.array(FailureSchema), () => []),
  /** Nothing is sent before this time: the receiver asked to wait (`Retry-After`). */
  pausedUntil: v.optional(Time),
  recent: v.optional(v.array(RecentSchema), () => []),
});
export type AlertLog = v.InferOutput<typeof AlertLogSchema>;

export function emptyAlertLog(): AlertLog {
  return { v: ALERT_LOG_VERSION, pending: [], failures: [], recent: [] };
}

export function parseAlertLog(raw: unknown): AlertLog {
  const parsed = v.safeParse(AlertLogSchema, raw);
  return parsed.success ? parsed.output : emptyAlertLog();
}

/** A new alert, due now: it is stored before the first try, so a worker stopped during it tries again. */
export function queueAlert(log: AlertLog, alert: Omit<PendingAlert, 'tries'>): AlertLog {
  return { ...log, pending: [...log.pending, { ...alert, tries: 0 }].slice(-MAX_PENDING) };
}

/** The delay before the next try after `tries` failed ones, or null when none is left. */
export function retryDelay(tries: number): number | null {
  return RETRY_DELAYS_MS[tries - 1] ?? null;
}

/** A receiver asking to be left alone longer than this gets no more tries of that alert: it is given up and listed. */
export const MAX_WAIT_MS = 60 * 60_000;

/**
 * A try failed: the alert waits for its next try, or goes when none is left; the failure is listed either way. A wait
 * the receiver asked for (`waitSec`) is honoured: the next try comes no sooner, and no other alert goes to it before.
 */
export function afterFailure(log: AlertLog, id: string, error: DeliveryError, now: number): AlertLog {
  const alert = log.pending.find((pending) => pending.id === id);
  if (!alert) return log;
  const tries = alert.tries + 1;
  const wait = error.kind === 'http' && error.waitSec !== undefined ? error.waitSec * 1000 : 0;
  const delay = wait > MAX_WAIT_MS ? null : retryDelay(tries);
  const pending =
    delay === null
      ? log.pending.filter((other) => other.id !== id)
      : log.pending.map((other) => (other.id === id ? { ...other, tries, dueAt: now + Math.max(delay, wait) } : other));
  const failure: AlertFailure = { at: now, event: alert.event, error, final: delay === null };
  const paused = wait > 0 && wait <= MAX_WAIT_MS ? { pausedUntil: Math.max(log.pausedUntil ?? 0, now + wait) } : {};
  return { ...log, ...paused, pending, failures: [...log.failures, failure].slice(-MAX_FAILURES) };
}

/** Delivered: it goes, and the failures listed before are cleared (the receiver works again, and waits no more). */
export function afterSuccess(log: AlertLog, id: string): AlertLog {
  const { pausedUntil: _, ...rest } = log;
  return { ...rest, pending: log.pending.filter((alert) => alert.id !== id), failures: [] };
}

/** A try that cannot be made (the URL changed or went): the alert goes unlisted. */
export function withoutAlert(log: AlertLog, id: string): AlertLog {
  return { ...log, pending: log.pending.filter((alert) => alert.id !== id) };
}

export function dueAlerts(log: AlertLog, now: number): PendingAlert[] {
  if (log.pausedUntil !== undefined && now < log.pausedUntil) return [];
  return log.pending.filter((alert) => alert.dueAt <= now);
}

/** When the next waiting alert is due (not before the receiver's wait ends), or null when none waits. */
export function nextDue(log: AlertLog): number | null {
  const soonest = log.pending.reduce<number | null>((at, alert) => Math.min(at ?? alert.dueAt, alert.dueAt), null);
  return soonest === null ? null : Math.max(soonest, log.pausedUntil ?? soonest);
}

// ---------------------------------------------------------------------------------------------------------------------
// One alert per event kind per notebook in 5 minutes

/** A notebook failing in a loop sends one alert of a kind in this long; the next one says how many were held back. */
export const ALERT_RATE_MS = 5 * 60_000;
/** A count held back is said by the next alert of its kind within a day, else forgotten. */
const RECENT_KEEP_MS = 24 * 60 * 60_000;
const MAX_RECENT = 100;

export interface Admission {
  log: AlertLog;
  /** False: held back (and counted) because one like it was sent less than 5 minutes ago. */
  send: boolean;
  /** How many like it were held back since the last one sent (for the alert to say). */
  heldBack: number;
}

export function admitAlert(log: AlertLog, key: string, event: AlertEvent, now: number): Admission {
  const recent = log.recent.filter((entry) => now - entry.at < RECENT_KEEP_MS);
  const last = recent.find((entry) => entry.key === key && entry.event === event);
  // A clock set back must not hold alerts until it comes round again: only a window that has begun holds.
  if (last && now >= last.at && now - last.at < ALERT_RATE_MS) {
    const held = recent.map((entry) => (entry === last ? { ...entry, held: entry.held + 1 } : entry));
    return { log: { ...log, recent: held }, send: false, heldBack: 0 };
  }
  const others = recent.filter((entry) => entry !== last);
  const sent = [...others, { key, event, at: now, held: 0 }].slice(-MAX_RECENT);
  return { log: { ...log, recent: sent }, send: true, heldBack: last?.held ?? 0 };
}

// ---------------------------------------------------------------------------------------------------------------------
// What a receiver answered

/** What the worker read of a response: redirects are not followed (`redirect: 'manual'`), so they show here. */
export interface ReceiverResponse {
  status: number;
  /** `opaqueredirect` for a redirect not followed. */
  type: string;
  /** True if the browser followed a redirect anyway: the answer is some other host's. */
  redirected: boolean;
  retryAfter: string | null;
  /** The body, read only for an error (Telegram explains itself there). */
  body: string | null;
}

/** The failure a response is, or null for a delivered alert (any 2xx, from the receiver itself). */
export function responseError(response: ReceiverResponse, now: number): DeliveryError | null {
  if (isRedirect(response)) return { kind: 'redirect' };
  const { status } = response;
  if (status >= 200 && status < 300) return null;
  const telegram = telegramError(response.body);
  const waitSec = retryAfterSeconds(response.retryAfter, now) ?? telegram.waitSec;
  const waits = (status === 429 || status === 503) && waitSec !== undefined;
  return {
    kind: 'http',
    status,
    ...(waits ? { waitSec } : {}),
    ...(telegram.detail ? { detail: telegram.detail.slice(0, 200) } : {}),
  };
}

/**
 * A redirect is refused, whatever host it names: fetch's manual mode gives it as an opaque response (status 0, the
 * location hidden), and a 3xx or an answer after a followed redirect are refused too, in case a browser follows.
 */
export function isRedirect(response: Pick<ReceiverResponse, 'status' | 'type' | 'redirected'>): boolean {
  return response.type === 'opaqueredirect' || response.redirected || (response.status >= 300 && response.status < 400);
}

/** `Retry-After`: seconds, or an HTTP date; the wait in whole seconds from `now`, or undefined when unread. */
export function retryAfterSeconds(value: string | null, now: number): number | undefined {
  const text = value?.trim() ?? '';
  if (/^\d{1,9}$/.test(text)) return Number(text);
  // A date names its day or month (IMF-fixdate, RFC 850, asctime): `-5` or `1.5` are none, whatever Date.parse says.
  const at = /[A-Za-z]{3}/.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** Telegram's error body: `{"ok":false,"description":"…","parameters":{"retry_after":34}}`. */
export function telegramError(body: string | null): { waitSec?: number; detail?: string } {
  let json: unknown;
  try {
    json = JSON.parse(body ?? '');
  } catch {
    return {};
  }
  if (typeof json !== 'object' || json === null) return {};
  const { description, parameters } = json as { description?: unknown; parameters?: { retry_after?: unknown } };
  const retry = parameters?.retry_after;
  return {
    ...(typeof retry === 'number' && Number.isInteger(retry) && retry >= 0 ? { waitSec: retry } : {}),
    ...(typeof description === 'string' && description !== '' ? { detail: description } : {}),
  };
}
