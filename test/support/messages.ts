import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import messages from '../../public/_locales/en/messages.json';
import { fillMessage } from '../../src/lib/fill-message';
import type { MessageKey } from '../../src/lib/i18n';
import { pluralForm } from '../../src/lib/plural';
import type { NightWords, Translate } from '../../src/ui/night-text';

/** Chrome's getMessage over our English messages ('' for an unknown key). */
export function getMessage(key: string, substitutions: string | string[] = []): string {
  const entry = (messages as Record<string, { message: string } | undefined>)[key];
  if (!entry) return '';
  return fillMessage(entry.message, Array.isArray(substitutions) ? substitutions : [substitutions]);
}

/** `t` as the pages have it, for modules that take the translator as a parameter (ui/night-text.ts). */
export const translate: Translate = (key, ...substitutions) => getMessage(key, substitutions.map(String));

/** `tn` as the pages have it in English: the plural form for `count` of a counted message. */
export function translateCounted(key: string, count: number, ...substitutions: (string | number)[]): string {
  return pluralForm(getMessage(key, substitutions.map(String)), 'en', count);
}

/** `t` and `tn` as a page whose browser chose `locale`'s messages has them (`pt_BR`, as `_locales` names it). */
export function localeWords(locale: string): NightWords {
  const bundle: Record<string, { message: string } | undefined> = JSON.parse(
    readFileSync(join(__dirname, '../../public/_locales', locale, 'messages.json'), 'utf8'),
  );
  const say = (key: string, substitutions: (string | number)[]) =>
    fillMessage(bundle[key]?.message ?? key, substitutions.map(String));
  const language = bundle.messagesLocale?.message ?? 'en';
  return {
    t: (key, ...substitutions) => say(key, substitutions),
    tn: (key, count, ...substitutions) => pluralForm(say(key, substitutions), language, count),
  };
}

/** Chrome's getMessage over `locale`'s messages ('' for an unknown key), as a browser in that language answers. */
export function localeGetMessage(locale: string): (key: string, substitutions?: string | string[]) => string {
  const bundle: Record<string, { message: string } | undefined> = JSON.parse(
    readFileSync(join(__dirname, '../../public/_locales', locale, 'messages.json'), 'utf8'),
  );
  return (key, substitutions = []) => {
    const entry = bundle[key];
    if (!entry) return '';
    return fillMessage(entry.message, Array.isArray(substitutions) ? substitutions : [substitutions]);
  };
}

/** The words of the locale a test chose with `speakIn`; none chosen yet, every key is said as itself. */
let chosen: NightWords | null = null;

/** From now on, `inChosenLocale` speaks `locale`'s messages. */
export function speakIn(locale: string): void {
  chosen = localeWords(locale);
}

/**
 * `t` and `tn` in the locale a test chose, for `vi.mock('…/lib/i18n', …)`: a key missing from it is said as the bare
 * key, so a test sees which words are missing.
 */
export const inChosenLocale = {
  t: (key: MessageKey, ...substitutions: (string | number)[]) => chosen?.t(key, ...substitutions) ?? key,
  tn: (key: MessageKey, count: number, ...substitutions: (string | number)[]) =>
    chosen?.tn(key, count, ...substitutions) ?? key,
};
