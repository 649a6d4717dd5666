import * as v from 'valibot';
import type { NotifyEffect } from './policy';

/**
 * Alerts to a URL the person chose (an ntfy topic, a Slack or Discord webhook, any JSON receiver): which URL, what
 * kind of receiver, which events, whether the notebook's name may leave the browser. Kept under its own storage key
 * with its own version, apart from the settings: the guard's behaviour never depends on it.
 */

export const ALERTS_KEY = 'alerts';
export const ALERTS_VERSION = 1;

/** The events that may alert, most urgent first (the options page lists them in this order). */
export const ALERT_EVENTS = [
  'gave-up',
  'run-stopped',
  'ui-problem',
  'left-to-person',
  'restarted',
  'run-finished',
  'tab-gone',
] as const satisfies readonly NotifyEffect['kind'][];
export type AlertEvent = (typeof ALERT_EVENTS)[number];

/** What the person is told about at first: the ends of a night that need them (nothing watching the run is one). */
const DEFAULT_EVENTS: Record<AlertEvent, boolean> = {
  'gave-up': true,
  'run-stopped': true,
  'ui-problem': false,
  'left-to-person': false,
  restarted: false,
  'run-finished': false,
  'tab-gone': true,
};

export const RECEIVER_KINDS = ['ntfy', 'slack', 'discord', 'json'] as const;
export type ReceiverKind = (typeof RECEIVER_KINDS)[number];
/** `auto`: read from the URL (`receiverOfUrl`); the others override it (a self-hosted ntfy, a relay). */
export const KIND_CHOICES = ['auto', ...RECEIVER_KINDS] as const;
export type KindChoice = (typeof KIND_CHOICES)[number];

export const MAX_ALERT_URL_CHARS = 2000;

const EventsSchema = v.object(
  Object.fromEntries(ALERT_EVENTS.map((event) => [event, v.optional(v.boolean(), DEFAULT_EVENTS[event])])) as Record<
    AlertEvent,
    v.OptionalSchema<v.BooleanSchema<undefined>, boolean>
  >,
);

export const AlertsConfigSchema = v.object({
  v: v.literal(ALERTS_VERSION),
  url: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(MAX_ALERT_URL_CHARS))), null),
  kind: v.optional(v.picklist(KIND_CHOICES), 'auto'),
  events: v.optional(EventsSchema, {}),
  /** Off: an alert says "a notebook", never its name. */
  includeTitle: v.optional(v.boolean(), false),
  /** The popup offered desktop notifications once (at the first switch-on): it never asks again. */
  notificationsOffered: v.optional(v.boolean(), false),
});
export type AlertsConfig = v.InferOutput<typeof AlertsConfigSchema>;

export function defaultAlertsConfig(): AlertsConfig {
  return v.parse(AlertsConfigSchema, { v: ALERTS_VERSION });
}

/** A stored value that does not read (corrupt, or from a newer version) reads as no alerts: nothing is sent. */
export function parseAlertsConfig(raw: unknown): AlertsConfig {
  const parsed = v.safeParse(AlertsConfigSchema, raw);
  return parsed.success ? parsed.output : defaultAlertsConfig();
}

/** Whether this event alerts: only with a URL, and only the events the person chose (the guard's own end never). */
export function shouldAlert(config: AlertsConfig, kind: NotifyEffect['kind']): kind is AlertEvent {
  return config.url !== null && isAlertEvent(kind) && config.events[kind];
}

function isAlertEvent(kind: NotifyEffect['kind']): kind is AlertEvent {
  return (ALERT_EVENTS as readonly string[]).includes(kind);
}

// ---------------------------------------------------------------------------------------------------------------------
// The URL

export type UrlProblem =
  | 'empty'
  | 'not-a-url'
  | 'too-long'
  | 'not-https'
  | 'credentials'
  | 'slack-path'
  | 'discord-path'
  | 'ntfy-topic';

export type CheckedUrl =
  | { ok: true; url: string; kind: ReceiverKind; permission: string }
  | { ok: false; problem: UrlProblem };

/** Plain http only to this computer: a self-hosted receiver, or a test's. */
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1']);
const DISCORD_HOSTS = new Set(['discord.com', 'discordapp.com', 'ptb.discord.com', 'canary.discord.com']);

/** The receiver a URL names by its host: the services' own webhook hosts, ntfy.sh; anything else gets JSON. */
export function receiverOfUrl(url: URL): ReceiverKind {
  const host = url.hostname.toLowerCase();
  if (host === 'hooks.slack.com') return 'slack';
  if (DISCORD_HOSTS.has(host) && url.pathname.startsWith('/api/webhooks/')) return 'discord';
  if (host === 'ntfy.sh') return 'ntfy';
  return 'json';
}

/**
 * Whether `text` can receive alerts as `choice`, and the one host permission it needs (every port of that host: a
 * match pattern names no port). https only, except http to this computer; no user:password (fetch refuses them).
 */
export function checkAlertUrl(text: string, choice: KindChoice): CheckedUrl {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, problem: 'empty' };
  if (trimmed.length > MAX_ALERT_URL_CHARS) return { ok: false, problem: 'too-long' };
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { ok: false, problem: 'not-a-url' };
  }
  const local = url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !local) return { ok: false, problem: 'not-https' };
  if (url.username !== '' || url.password !== '') return { ok: false, problem: 'credentials' };
  const kind = choice === 'auto' ? receiverOfUrl(url) : choice;
  const problem = pathProblem(kind, url.pathname);
  if (problem) return { ok: false, problem };
  return { ok: true, url: url.href, kind, permission: `${url.protocol}//${url.hostname}/*` };
}

function pathProblem(kind: ReceiverKind, path: string): UrlProblem | null {
  switch (kind) {
    case 'slack':
      return /^\/services\/[^/]+\/[^/]+\/[^/]+$/.test(path) ? null : 'slack-path';
    case 'discord':
      return /^\/api\/webhooks\/\d+\/[^/]+\/?$/.test(path) ? null : 'discord-path';
    case 'ntfy':
      // A topic is the last path segment (a self-hosted server may live under a path of its own).
      return /\/[-\w]{1,64}$/.test(path) ? null : 'ntfy-topic';
    case 'json':
      return null;
  }
}

/** The receiver alerts go to as configured, or null when no URL is set (or the stored one no longer checks). */
export function configuredReceiver(config: AlertsConfig): Extract<CheckedUrl, { ok: true }> | null {
  if (config.url === null) return null;
  const checked = checkAlertUrl(config.url, config.kind);
  return checked.ok ? checked : null;
}
