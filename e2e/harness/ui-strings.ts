import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pluralForms } from '../../src/lib/plural';

/**
 * Which of the extension's UI strings (public/_locales/en/messages.json) a page shows: each picture in docs/ and
 * store/ records them when it is taken, so that a picture whose words the UI no longer shows is found (the e2e test
 * that takes it compares, and scripts/check-docs.mjs compares the record with the messages).
 */

export type Messages = Record<string, { message: string }>;

export const MESSAGES_FILE = resolve(import.meta.dirname, '../../public/_locales/en/messages.json');

export function englishMessages(): Messages {
  return JSON.parse(readFileSync(MESSAGES_FILE, 'utf8')) as Messages;
}

/** Fewer letters than this outside the placeholders would match almost any text ("$1", "$1 — $2"). */
const MIN_LITERAL = 3;

/**
 * A message as a pattern over rendered text: its words as written, each `$1`…`$9` any text on the same line, not
 * inside a longer word. Undefined for a message with too few words of its own to tell it apart.
 */
export function messagePattern(message: string): RegExp | undefined {
  const forms = pluralForms(message);
  if (forms) return anyOf(Object.values(forms).map(messagePattern));
  const parts = message.split(/\$[1-9]/).map((part) => part.replaceAll('$$', '$'));
  if (parts.join('').trim().length < MIN_LITERAL) return undefined;
  const escaped = parts.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped.join('[^\\n]+?')}(?![\\p{L}\\p{N}])`, 'u');
}

/** A counted message (src/lib/plural.ts) is shown when any of its forms is. */
function anyOf(patterns: (RegExp | undefined)[]): RegExp | undefined {
  const known = patterns.filter((pattern): pattern is RegExp => pattern !== undefined);
  return known.length ? new RegExp(known.map((pattern) => pattern.source).join('|'), 'u') : undefined;
}

/** The messages `text` shows, by key, with their text: sorted, so that records compare and diff line by line. */
export function uiStrings(text: string, messages: Messages = englishMessages()): Record<string, string> {
  const shown = Object.entries(messages)
    .filter(([, { message }]) => messagePattern(message)?.test(text))
    .sort(([a], [b]) => a.localeCompare(b));
  return Object.fromEntries(shown.map(([key, { message }]) => [key, message]));
}
