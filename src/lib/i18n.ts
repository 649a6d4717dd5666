import browser from 'webextension-polyfill';
import type messages from '../../public/_locales/en/messages.json';

export type MessageKey = keyof typeof messages;
export type MessageBundle = Partial<Record<MessageKey, { message: string }>>;

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
  if (message === undefined) return key;
  return message.replace(/\$(\d)/g, (_, n: string) => substitutions[Number(n) - 1] ?? '');
}
