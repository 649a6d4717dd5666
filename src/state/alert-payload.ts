import type { AlertKind, AlertRequest } from './alert-delivery';
import type { ReceiverKind } from './alerts';

/**
 * What an alert says, already in words (the worker makes them from the history's words, in the extension's
 * language), and the request each kind of receiver takes for it.
 */
export interface AlertWords {
  event: AlertKind;
  at: number;
  /** "Gave up: train.ipynb" (or "…: a notebook" when the name may not leave the browser). */
  title: string;
  message: string;
  /** The notebook's name, or null when the person did not allow it. */
  notebook: string | null;
  restarts: { used: number; limit: number };
}

/** The generic JSON shape's name and version: a receiver can tell what it got, and a later shape gets a new `v`. */
export const JSON_ALERT_SCHEMA = 'colab-oom-guard/alert';
export const JSON_ALERT_VERSION = 1;

/** Discord refuses a message longer than 2,000 characters; Slack cuts at 40,000, ntfy at 4,096 bytes. */
const DISCORD_MAX = 2000;
const NTFY_MAX_CHARS = 1000;

/** ntfy's priorities (1-5 by name) and tags (emoji names shown before the title) per event. */
const NTFY: Record<AlertKind, { priority: string; tags: string }> = {
  'gave-up': { priority: 'high', tags: 'warning' },
  'run-stopped': { priority: 'high', tags: 'x' },
  'ui-problem': { priority: 'high', tags: 'wrench' },
  'left-to-person': { priority: 'high', tags: 'raising_hand' },
  restarted: { priority: 'default', tags: 'arrows_counterclockwise' },
  'run-finished': { priority: 'default', tags: 'white_check_mark' },
  'tab-gone': { priority: 'high', tags: 'see_no_evil' },
  test: { priority: 'low', tags: 'test_tube' },
};

export function alertRequest(kind: ReceiverKind, url: string, words: AlertWords): AlertRequest {
  switch (kind) {
    case 'ntfy':
      return {
        url,
        headers: {
          'Content-Type': 'text/plain; charset=utf-8',
          Title: headerText(words.title),
          Priority: NTFY[words.event].priority,
          Tags: NTFY[words.event].tags,
        },
        body: clip(words.message, NTFY_MAX_CHARS),
      };
    case 'slack':
      return jsonRequest(url, { text: `${slackEscape(words.title)}\n${slackEscape(words.message)}` });
    case 'discord':
      // No mention in a notebook's name or an error line may ping anyone.
      return jsonRequest(url, {
        content: clip(`${words.title}\n${words.message}`, DISCORD_MAX),
        allowed_mentions: { parse: [] },
      });
    case 'json':
      return jsonRequest(url, genericAlert(words));
  }
}

/** The generic JSON shape (docs/alerts.md documents it). */
export function genericAlert(words: AlertWords) {
  return {
    schema: JSON_ALERT_SCHEMA,
    v: JSON_ALERT_VERSION,
    event: words.event,
    time: new Date(words.at).toISOString(),
    notebook: words.notebook,
    title: words.title,
    message: words.message,
    restarts: words.restarts,
  };
}

function jsonRequest(url: string, body: unknown): AlertRequest {
  return { url, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Slack reads &, < and > as markup (links, mentions): escaped as its documentation asks. */
function slackEscape(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/**
 * An HTTP header carries Latin-1 only (fetch refuses anything else): a title with other characters goes as an
 * RFC 2047 encoded word, which ntfy decodes. Control characters (a line break would end the header) become spaces.
 */
export function headerText(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced
  const flat = clip(text.replace(/[\u0000-\u001f\u007f]/g, ' '), 250);
  return /^[\u0020-\u007e]*$/.test(flat) ? flat : `=?UTF-8?B?${base64(utf8(flat))}?=`;
}

function utf8(text: string): number[] {
  const bytes: number[] = [];
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x80) bytes.push(code);
    else if (code < 0x800) bytes.push(0xc0 | (code >> 6), 0x80 | (code & 63));
    else if (code < 0x10000) bytes.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
    else bytes.push(0xf0 | (code >> 18), 0x80 | ((code >> 12) & 63), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
  }
  return bytes;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function base64(bytes: number[]): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const [a = 0, b = 0, c = 0] = bytes.slice(i, i + 3);
    const n = (a << 16) | (b << 8) | c;
    out += BASE64.charAt(n >> 18) + BASE64.charAt((n >> 12) & 63);
    out += i + 1 < bytes.length ? BASE64.charAt((n >> 6) & 63) : '=';
    out += i + 2 < bytes.length ? BASE64.charAt(n & 63) : '=';
  }
  return out;
}
