import type { AlertKind, AlertRequest } from './alert-delivery';
import type { Receiver } from './alerts';

/**
 * What an alert says, already in words (the worker makes them from the history's words, in the extension's
 * language), and the request each kind of receiver takes for it.
 */
export interface AlertWords {
  event: AlertKind;
  at: number;
  /** "Gave up: train.ipynb" (or "…: a notebook" when the name may not leave the browser). */
  title: string;
  /** What happened, and what the guard did. */
  message: string;
  /** What happens next: "2 of 3 restarts left…", "Waits for you…"; '' when nothing follows (a test). */
  next: string;
  /** How many alerts like it were held back since the last one sent, and that in words ('' for none). */
  heldBack: { count: number; text: string };
  /** The notebook's address and the words offering it: only when the person allows the name to leave the browser. */
  link: { url: string; label: string } | null;
  /** The notebook's name, or null when the person did not allow it. */
  notebook: string | null;
  restarts: { used: number; limit: number };
}

/** The generic JSON shape's name and version: a receiver can tell what it got, and a later shape gets a new `v`. */
export const JSON_ALERT_SCHEMA = 'colab-oom-guard/alert';
export const JSON_ALERT_VERSION = 1;

/** Discord refuses a message over 2,000 characters, Telegram one over 4,096; Slack cuts at 40,000, ntfy at 4 kB. */
const DISCORD_MAX = 2000;
const TELEGRAM_MAX = 4096;
const NTFY_MAX_CHARS = 1000;

/**
 * ntfy's priorities per event (`urgent`: long vibration bursts and a pop-over, through "do not disturb" where the phone
 * allows it) and tags (emoji names shown before the title). A give-up wakes; what waits for the person is high; a
 * restart or a finished run, which need nobody, ring as usual; a test rings as usual too, to show what an alert does.
 */
const NTFY: Record<AlertKind, { priority: string; tags: string }> = {
  'gave-up': { priority: 'urgent', tags: 'warning' },
  'run-stopped': { priority: 'high', tags: 'x' },
  'ui-problem': { priority: 'high', tags: 'wrench' },
  'left-to-person': { priority: 'high', tags: 'raising_hand' },
  restarted: { priority: 'default', tags: 'arrows_counterclockwise' },
  'run-finished': { priority: 'default', tags: 'white_check_mark' },
  'tab-gone': { priority: 'high', tags: 'see_no_evil' },
  test: { priority: 'default', tags: 'test_tube' },
};

/** The request for `receiver`, without its secrets: those are added at each try (`authorized`), never stored twice. */
export function alertRequest(receiver: Pick<Receiver, 'kind' | 'url' | 'chatId'>, words: AlertWords): AlertRequest {
  const { url } = receiver;
  const lines = textLines(words);
  switch (receiver.kind) {
    case 'ntfy':
      return {
        url,
        headers: {
          'Content-Type': 'text/plain; charset=utf-8',
          Title: headerText(words.title),
          Priority: NTFY[words.event].priority,
          Tags: NTFY[words.event].tags,
          // A tap on the notification opens the notebook.
          ...(words.link ? { Click: words.link.url } : {}),
        },
        body: withLink(lines, words.link, NTFY_MAX_CHARS, (link) => `${link.label}: ${link.url}`),
      };
    case 'telegram':
      return jsonRequest(url, {
        chat_id: receiver.chatId,
        text: withLink(`${words.title}\n${lines}`, words.link, TELEGRAM_MAX, (link) => `${link.label}: ${link.url}`),
        link_preview_options: { is_disabled: true },
      });
    case 'slack':
      return jsonRequest(url, {
        text: withLink(
          `${slackEscape(words.title)}\n${slackEscape(lines)}`,
          words.link,
          Number.POSITIVE_INFINITY,
          (link) => `<${link.url}|${slackEscape(link.label)}>`,
        ),
      });
    case 'discord':
      // No mention in a notebook's name or an error line may ping anyone; <url> shows no preview.
      return jsonRequest(url, {
        content: withLink(
          `${words.title}\n${lines}`,
          words.link,
          DISCORD_MAX,
          (link) => `${link.label}: <${link.url}>`,
        ),
        allowed_mentions: { parse: [] },
      });
    case 'json':
      return jsonRequest(url, genericAlert(words));
  }
}

/** What happened, what the guard did, what happens next, and how many like it were held back: a line each. */
function textLines(words: AlertWords): string {
  return [words.message, words.next, words.heldBack.text].filter((line) => line !== '').join('\n');
}

/** The text cut to `max` with the link kept whole after it: the link is what a person acts on. */
function withLink(
  text: string,
  link: AlertWords['link'],
  max: number,
  format: (link: NonNullable<AlertWords['link']>) => string,
): string {
  if (!link) return clip(text, max);
  const line = `\n${format(link)}`;
  return `${clip(text, Math.max(1, max - line.length))}${line}`;
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
    next: words.next,
    heldBack: words.heldBack.count,
    link: words.link?.url ?? null,
    restarts: words.restarts,
  };
}

/**
 * The request as it is sent: Telegram's bot token goes in the method's path (`/bot<token>/sendMessage`), the access
 * token of ntfy or a JSON receiver in `Authorization: Bearer`.
 */
export function authorized(request: AlertRequest, receiver: Pick<Receiver, 'kind' | 'token'>): AlertRequest {
  if (receiver.token === null) return request;
  if (receiver.kind === 'telegram') {
    return { ...request, url: `${request.url.replace(/\/+$/, '')}/bot${receiver.token}/sendMessage` };
  }
  return { ...request, headers: { ...request.headers, Authorization: `Bearer ${receiver.token}` } };
}

/**
 * The exception's type at the start of an error's last line (`torch.OutOfMemoryError: CUDA out…` →
 * `torch.OutOfMemoryError`), or null when the line does not start with one: all a stopped run's alert says of the
 * line unless the person asks for the whole of it.
 */
export function exceptionType(line: string): string | null {
  return /^\s*([A-Za-z_][\w.]{0,99})(?=:|\s*$)/.exec(line)?.[1] ?? null;
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
