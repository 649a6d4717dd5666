import messages from '../../public/_locales/en/messages.json';
import { fillMessage } from '../../src/lib/fill-message';
import { pluralForm } from '../../src/lib/plural';
import type { Translate } from '../../src/ui/night-text';

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
