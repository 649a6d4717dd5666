import * as v from 'valibot';
import { DeliveryErrorSchema } from './alert-delivery';
import { type AlertDataCategory, checkAlertUrl, type UrlProblem } from './alerts';
import type { NotifyEffect } from './policy';

/**
 * A heartbeat: a URL the service worker pings every few minutes while a guarded run goes on (state/run-going.ts), so
 * that a service watching it (healthchecks.io, an Uptime Kuma push monitor, a Better Stack heartbeat, any URL that
 * takes a GET) tells the person when the pings stop: the computer slept, the browser closed or crashed. Kept under
 * its own storage key with its own version, like the alerts: the guard's behaviour never depends on it.
 */

export const HEARTBEAT_KEY = 'heartbeat';
export const HEARTBEAT_VERSION = 1;
/** How often it pings, in minutes: healthchecks.io's shortest period is one minute; an hour is a long night's step. */
export const HEARTBEAT_MINUTES = [1, 60] as const;
export const DEFAULT_HEARTBEAT_MINUTES = 5;
/** What a ping tells its service, for Firefox's data consent: that a run goes on in this browser, nothing of it. */
export const HEARTBEAT_DATA: readonly AlertDataCategory[] = ['websiteActivity'];

export const HeartbeatConfigSchema = v.object({
  v: v.literal(HEARTBEAT_VERSION),
  url: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(2000))), null),
  everyMinutes: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(HEARTBEAT_MINUTES[0]), v.maxValue(HEARTBEAT_MINUTES[1])),
    DEFAULT_HEARTBEAT_MINUTES,
  ),
});
export type HeartbeatConfig = v.InferOutput<typeof HeartbeatConfigSchema>;

export function defaultHeartbeatConfig(): HeartbeatConfig {
  return v.parse(HeartbeatConfigSchema, { v: HEARTBEAT_VERSION });
}

/** A stored value that does not read (corrupt, or from a newer version) reads as no heartbeat: nothing is pinged. */
export function parseHeartbeatConfig(raw: unknown): HeartbeatConfig {
  const parsed = v.safeParse(HeartbeatConfigSchema, raw);
  return parsed.success ? parsed.output : defaultHeartbeatConfig();
}

/**
 * `healthchecks`: a healthchecks.io ping URL, hosted (hc-ping.com) or self-hosted (its `/ping/` path): the start of a
 * run and its failure are signalled too. Any other URL gets the same GET every time.
 */
export type HeartbeatService = 'healthchecks' | 'plain';

export type CheckedHeartbeat =
  | { ok: true; url: string; permission: string; service: HeartbeatService }
  | { ok: false; problem: UrlProblem };

/** A check's UUID, or a project's ping key and the check's slug (healthchecks.io's two ping URL forms). */
const CHECK = String.raw`(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[\w-]{22}/[\w-]+)`;
const HOSTED_PATH = new RegExp(`^/${CHECK}$`, 'i');
/** A self-hosted instance serves its pings under `/ping/` (its PING_ENDPOINT), perhaps below a path of its own. */
const SELF_HOSTED_PATH = new RegExp(`/ping/${CHECK}$`, 'i');

export function heartbeatService(url: URL): HeartbeatService {
  const path = url.pathname.replace(/\/$/, '');
  if (url.hostname.toLowerCase() === 'hc-ping.com' && HOSTED_PATH.test(path)) return 'healthchecks';
  return SELF_HOSTED_PATH.test(path) ? 'healthchecks' : 'plain';
}

/** The same rules as an alert URL (https, or http to this computer; no user:password), and its one host permission. */
export function checkHeartbeatUrl(text: string): CheckedHeartbeat {
  const checked = checkAlertUrl(text, 'json');
  if (!checked.ok) return checked;
  return {
    ok: true,
    url: checked.url,
    permission: checked.permission,
    service: heartbeatService(new URL(checked.url)),
  };
}

/** The heartbeat as configured, or null when none is set (or the stored URL no longer checks). */
export function configuredHeartbeat(config: HeartbeatConfig): Extract<CheckedHeartbeat, { ok: true }> | null {
  if (config.url === null) return null;
  const checked = checkHeartbeatUrl(config.url);
  return checked.ok ? checked : null;
}

/**
 * What a ping says: a run began (`start`), it goes on (`ping`), it ended in a way nobody will repair by morning
 * (`fail`), or the person's "Send a test ping" (`test`).
 */
export const PING_KINDS = ['start', 'ping', 'fail', 'test'] as const;
export type PingKind = (typeof PING_KINDS)[number];

const HEALTHCHECKS_SUFFIX: Record<PingKind, string> = { start: '/start', ping: '', fail: '/fail', test: '/log' };

/**
 * The URL a ping of `kind` goes to, or null when this service has no such signal. healthchecks.io takes `/start`,
 * `/fail`, and `/log` (an event that leaves the check's state alone: a test in the evening does not start a period
 * that would end in an alarm before the run); any other service gets its URL as it is, and no failure signal: a
 * plain ping would say the run is fine, and silence will say it is not.
 */
export function pingUrl(target: Extract<CheckedHeartbeat, { ok: true }>, kind: PingKind): string | null {
  if (target.service === 'plain') return kind === 'fail' ? null : target.url;
  const url = new URL(target.url);
  const path = url.pathname.replace(/\/$/, '') + HEALTHCHECKS_SUFFIX[kind];
  return `${url.protocol}//${url.host}${path}${url.search}${url.hash}`;
}

/** The events after which no guarded run goes on and nothing will bring it back by itself: the heartbeat says fail. */
const FAILING: ReadonlySet<NotifyEffect['kind']> = new Set([
  'gave-up',
  'run-stopped',
  'ui-problem',
  'left-to-person',
  'tab-gone',
]);

export function failsRun(kinds: readonly NotifyEffect['kind'][]): boolean {
  return kinds.some((kind) => FAILING.has(kind));
}

/**
 * What the heartbeat does as runs come and go: ping `start` when one begins (or the heartbeat is set or changed while
 * one goes on), keep the timer while it goes on, stop when none does. `was`: what it did last, for this URL and period.
 */
export type HeartbeatStep = 'start' | 'keep' | 'stop' | 'idle';

export interface HeartbeatBeat {
  url: string;
  everyMinutes: number;
}

export function heartbeatStep(was: HeartbeatBeat | null, now: HeartbeatBeat | null): HeartbeatStep {
  if (now === null) return was === null ? 'idle' : 'stop';
  return was !== null && was.url === now.url && was.everyMinutes === now.everyMinutes ? 'keep' : 'start';
}

/** The last pings and what the service answered, in `storage.session`, for the options page: newest last. */
export const HEARTBEAT_LOG_KEY = 'heartbeatLog';
const LOG_LENGTH = 5;

const PingSchema = v.object({
  at: v.number(),
  kind: v.picklist(PING_KINDS),
  outcome: v.union([v.object({ kind: v.literal('sent'), status: v.number() }), DeliveryErrorSchema]),
});
export type Ping = v.InferOutput<typeof PingSchema>;

export function parsePings(raw: unknown): Ping[] {
  return Array.isArray(raw) ? raw.filter((ping): ping is Ping => v.is(PingSchema, ping)) : [];
}

export function withPing(pings: readonly Ping[], ping: Ping): Ping[] {
  return [...pings, ping].slice(-LOG_LENGTH);
}
