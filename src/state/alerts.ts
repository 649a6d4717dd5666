import * as v from 'valibot';
import { isObject } from './migrations';
import type { NotifyEffect } from './policy';

/**
 * Alerts to a URL the person chose (an ntfy topic, a Telegram bot, a Slack or Discord webhook, any JSON receiver):
 * which URL, what kind of receiver and its secrets, which events, what of the notebook may leave the browser. Kept
 * under its own storage key with its own version, apart from the settings (and out of exports and diagnostics: it
 * holds secrets): the guard's behaviour never depends on it.
 */

export const ALERTS_KEY = 'alerts';
export const ALERTS_VERSION = 2;

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

/**
 * What the person is told about once a URL is set: every night that ends waiting for them (a give-up, a run stopped
 * by another error, a restart that failed in Colab's interface, Colab leaving something to them, nothing watching the
 * run any more); not each restart, nor a run that finished.
 */
const DEFAULT_EVENTS: Record<AlertEvent, boolean> = {
  'gave-up': true,
  'run-stopped': true,
  'ui-problem': true,
  'left-to-person': true,
  restarted: false,
  'run-finished': false,
  'tab-gone': true,
};

export const RECEIVER_KINDS = ['ntfy', 'telegram', 'slack', 'discord', 'json'] as const;
export type ReceiverKind = (typeof RECEIVER_KINDS)[number];
/** `auto`: read from the URL (`receiverOfUrl`); the others override it (a self-hosted ntfy, a relay). */
export const KIND_CHOICES = ['auto', ...RECEIVER_KINDS] as const;
export type KindChoice = (typeof KIND_CHOICES)[number];

/** The receivers that take a token beside their URL: Telegram's bot token; ntfy's and JSON's sent as a bearer. */
export const TOKEN_KINDS: readonly ReceiverKind[] = ['ntfy', 'telegram', 'json'];
/** Telegram's Bot API server: a self-hosted one (telegram-bot-api) is another URL of the same shape. */
export const TELEGRAM_API = 'https://api.telegram.org';

export const MAX_ALERT_URL_CHARS = 2000;
export const MAX_ALERT_TOKEN_CHARS = 200;
export const MAX_ALERT_CHAT_CHARS = 64;

const EventsSchema = v.object(
  Object.fromEntries(ALERT_EVENTS.map((event) => [event, v.optional(v.boolean(), DEFAULT_EVENTS[event])])) as Record<
    AlertEvent,
    v.OptionalSchema<v.BooleanSchema<undefined>, boolean>
  >,
);

const Text = (max: number) => v.nullable(v.pipe(v.string(), v.maxLength(max)));

export const AlertsConfigSchema = v.object({
  v: v.literal(ALERTS_VERSION),
  url: v.optional(Text(MAX_ALERT_URL_CHARS), null),
  kind: v.optional(v.picklist(KIND_CHOICES), 'auto'),
  /** Telegram's bot token, or ntfy's or a JSON receiver's access token: a secret, for the saved URL's host only. */
  token: v.optional(Text(MAX_ALERT_TOKEN_CHARS), null),
  /** Telegram's chat: a number, or @name for a channel. */
  chatId: v.optional(Text(MAX_ALERT_CHAT_CHARS), null),
  events: v.optional(EventsSchema, {}),
  /** Off: an alert says "a notebook", never its name, and has no link to it. */
  includeTitle: v.optional(v.boolean(), false),
  /** Off: a stopped run's alert names the exception's type and the cell, not the whole line (it may hold a secret). */
  includeErrorLine: v.optional(v.boolean(), false),
  /** The popup offered desktop notifications once (at the first switch-on): it never asks again. */
  notificationsOffered: v.optional(v.boolean(), false),
});
export type AlertsConfig = v.InferOutput<typeof AlertsConfigSchema>;

export function defaultAlertsConfig(): AlertsConfig {
  return v.parse(AlertsConfigSchema, { v: ALERTS_VERSION });
}

/** A stored value that does not read (corrupt, or from a newer version) reads as no alerts: nothing is sent. */
export function parseAlertsConfig(raw: unknown): AlertsConfig {
  const parsed = v.safeParse(AlertsConfigSchema, migrateAlertsConfig(raw));
  return parsed.success ? parsed.output : defaultAlertsConfig();
}

/** Version 1's events when nobody changed them: gave up and a stopped run. */
const V1_DEFAULT_EVENTS: Readonly<Record<string, boolean>> = {
  'gave-up': true,
  'run-stopped': true,
  'ui-problem': false,
  'left-to-person': false,
  restarted: false,
  'run-finished': false,
};

/**
 * Version 1 → 2: no tokens yet, the whole error line was sent (now opt-in: off). Events left as version 1 chose them
 * take version 2's defaults (a UI problem and Colab leaving something to the person alert too); where the person
 * changed any, version 1's choices are kept whole. Anything else (no object, another version) is left to the schema.
 */
export function migrateAlertsConfig(raw: unknown): unknown {
  if (!isObject(raw) || raw.v !== 1) return raw;
  const events = isObject(raw.events) ? raw.events : {};
  const untouched = Object.entries(V1_DEFAULT_EVENTS).every(
    ([event, on]) => (typeof events[event] === 'boolean' ? events[event] : on) === on,
  );
  return { ...raw, v: 2, events: untouched ? {} : { ...V1_DEFAULT_EVENTS, ...events } };
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
  | 'ntfy-topic'
  | 'telegram-path';

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
  if (host === new URL(TELEGRAM_API).hostname) return 'telegram';
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
  const problem = pathProblem(kind, url);
  if (problem) return { ok: false, problem };
  return { ok: true, url: url.href, kind, permission: `${url.protocol}//${url.hostname}/*` };
}

function pathProblem(kind: ReceiverKind, url: URL): UrlProblem | null {
  const path = url.pathname;
  switch (kind) {
    case 'slack':
      return /^\/services\/[^/]+\/[^/]+\/[^/]+$/.test(path) ? null : 'slack-path';
    case 'discord':
      return /^\/api\/webhooks\/\d+\/[^/]+\/?$/.test(path) ? null : 'discord-path';
    case 'ntfy':
      // A topic is the last path segment (a self-hosted server may live under a path of its own).
      return /\/[-\w]{1,64}$/.test(path) ? null : 'ntfy-topic';
    case 'telegram':
      // The Bot API server alone: the token has a field of its own, never the address (which the page shows).
      return /\/bot\d/.test(path) || url.search !== '' || url.hash !== '' ? 'telegram-path' : null;
    case 'json':
      return null;
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// The secrets

import type { SecretProblem } from './why';

export type { SecretProblem };

/** A bot token as @BotFather gives it: the bot's number, a colon, then 35 characters. */
const TELEGRAM_TOKEN = /^\d{5,15}:[\w-]{30,100}$/;
/** A chat: a user's or group's number (groups are negative), or a public channel's @name. */
const TELEGRAM_CHAT = /^(?:-?\d{1,20}|@[A-Za-z][\w]{3,31})$/;
/** An access token goes in an HTTP header: printable ASCII, no spaces. */
const HEADER_TOKEN = /^[\x21-\x7e]{1,200}$/;

/** Whether a receiver of `kind` can use these secrets: Telegram needs both; ntfy and JSON take an optional token. */
export function secretProblem(kind: ReceiverKind, token: string | null, chatId: string | null): SecretProblem | null {
  if (kind === 'telegram') {
    if (token === null || !TELEGRAM_TOKEN.test(token)) return 'telegram-token';
    return chatId !== null && TELEGRAM_CHAT.test(chatId) ? null : 'telegram-chat';
  }
  if (token !== null && TOKEN_KINDS.includes(kind) && !HEADER_TOKEN.test(token)) return 'token-chars';
  return null;
}

export interface Receiver {
  url: string;
  kind: ReceiverKind;
  /** The one host permission its URL needs. */
  permission: string;
  /** Telegram's bot token, or the bearer token of ntfy or JSON; null for the others. */
  token: string | null;
  /** Telegram's chat; null for the others. */
  chatId: string | null;
}

/** The receiver alerts go to as configured, or null when no URL is set (or what is stored no longer checks). */
export function configuredReceiver(config: AlertsConfig): Receiver | null {
  if (config.url === null) return null;
  const checked = checkAlertUrl(config.url, config.kind);
  if (!checked.ok || secretProblem(checked.kind, config.token, config.chatId)) return null;
  const { url, kind, permission } = checked;
  return {
    url,
    kind,
    permission,
    token: TOKEN_KINDS.includes(kind) ? config.token : null,
    chatId: kind === 'telegram' ? config.chatId : null,
  };
}

/**
 * What alerts send, in Firefox's data-collection categories (the manifest's optional `data_collection_permissions`):
 * what happened in Colab and what the guard did (website activity), the error's type or line and Colab's words
 * (website content), and, only when the person allows the notebook's name, its name and address (browsing activity).
 */
export const ALERT_DATA = ['websiteActivity', 'websiteContent'] as const;
export const ALERT_NAME_DATA = 'browsingActivity';
export type AlertDataCategory = (typeof ALERT_DATA)[number] | typeof ALERT_NAME_DATA;

export function alertDataCategories(config: Pick<AlertsConfig, 'includeTitle'>): AlertDataCategory[] {
  return config.includeTitle ? [...ALERT_DATA, ALERT_NAME_DATA] : [...ALERT_DATA];
}
