import browser from 'webextension-polyfill';
import type messages from '../../public/_locales/en/messages.json';

export type MessageKey = keyof typeof messages;

/** A UI string from `_locales`, English first; `$1`… placeholders come from `substitutions`. */
export function t(key: MessageKey, ...substitutions: (string | number)[]): string {
  return browser.i18n.getMessage(key, substitutions.map(String)) || key;
}
