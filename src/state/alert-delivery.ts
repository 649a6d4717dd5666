import * as v from 'valibot';
import { ALERT_EVENTS } from './alerts';

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
  v.object({ kind: v.literal('http'), status: v.pipe(v.number(), v.integer()) }),
  v.object({ kind: v.literal('network'), message: Text(300) }),
  v.object({ kind: v.literal('timeout') }),
  v.object({ kind: v.literal('permission') }),
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

export const AlertLogSchema = v.object({
  v: v.literal(ALERT_LOG_VERSION),
  pending: v.optional(v.array(PendingSchema), () => []),
  failures: v.optional(v.array(FailureSchema), () => []),
});
export type AlertLog = v.InferOutput<typeof AlertLogSchema>;

export function emptyAlertLog(): AlertLog {
  return { v: ALERT_LOG_VERSION, pending: [], failures: [] };
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

/** A try failed: the alert waits for its next try, or goes when none is left; the failure is listed either way. */
export function afterFailure(log: AlertLog, id: string, error: DeliveryError, now: number): AlertLog {
  const alert = log.pending.find((pending) => pending.id === id);
  if (!alert) return log;
  const tries = alert.tries + 1;
  const delay = retryDelay(tries);
  const pending =
    delay === null
      ? log.pending.filter((other) => other.id !== id)
      : log.pending.map((other) => (other.id === id ? { ...other, tries, dueAt: now + delay } : other));
  const failure: AlertFailure = { at: now, event: alert.event, error, final: delay === null };
  return { ...log, pending, failures: [...log.failures, failure].slice(-MAX_FAILURES) };
}

/** Delivered: it goes, and the failures listed before are cleared (the receiver works again). */
export function afterSuccess(log: AlertLog, id: string): AlertLog {
  return { ...log, pending: log.pending.filter((alert) => alert.id !== id), failures: [] };
}

/** A try that cannot be made (the URL changed or went): the alert goes unlisted. */
export function withoutAlert(log: AlertLog, id: string): AlertLog {
  return { ...log, pending: log.pending.filter((alert) => alert.id !== id) };
}

export function dueAlerts(log: AlertLog, now: number): PendingAlert[] {
  return log.pending.filter((alert) => alert.dueAt <= now);
}

/** When the next waiting alert is due, or null when none waits. */
export function nextDue(log: AlertLog): number | null {
  return log.pending.reduce<number | null>((soonest, alert) => Math.min(soonest ?? alert.dueAt, alert.dueAt), null);
}

/** The failure a response is, or null for a delivered alert (any 2xx). */
export function responseError(status: number): DeliveryError | null {
  return status >= 200 && status < 300 ? null : { kind: 'http', status };
}
