import browser from 'webextension-polyfill';
import type messages from '../../public/_locales/en/messages.json';
import { fillMessage } from './fill-message';
import { pluralForm } from './plural';

export type MessageKey = keyof typeof messages;
type MessageBundle = Partial<Record<MessageKey, { message: string }>>;

let fallback: MessageBundle = {};

/**
 * What `t` says when the browser's getMessage answers '' (Chromium once did so for every key of a popup on CI).
 * Extension pages and the worker pass the English bundle; content scripts stay small and show the key.
 */
export function setFallbackMessages(bundle: MessageBundle): void {
  fallback = bundle;
}

/** A UI string from `_locales`, English first; `$1`… placeholders come from `substitutions`. */
export function t(key: MessageKey, ...substitutions: (string | number)[]): string {
  const strings = substitutions.map(String);
  return browser.i18n.getMessage(key, strings) || fromFallback(key, strings);
}

function fromFallback(key: MessageKey, substitutions: string[]): string {
  const message = fallback[key]?.message;
  return message === undefined ? key : fillMessage(message, substitutions);
}

/**
 * A message whose words depend on `count` (lib/plural.ts), in the plural form the messages' own language uses for it:
 * `tn('stateGaveUp', 1, 1)` is "Gave up after 1 restart". `substitutions` fill `$1`… as in `t`. Where a message holds
 * two numbers, every language's text counts the noun that follows `count` ("1 of 3 restarts": the 3).
 */
export function tn(key: MessageKey, count: number, ...substitutions: (string | number)[]): string {
  return pluralForm(t(key, ...substitutions), messagesLocale(), count);
}

/**
 * The language of the messages the browser chose (its own `_locales` entry), not the browser's: where the browser's
 * language is not shipped, the English messages are shown and must be counted by English rules.
 */
export function messagesLocale(): string {
  return t('messagesLocale');
}
