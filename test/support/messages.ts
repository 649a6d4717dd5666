import messages from '../../public/_locales/en/messages.json';
import type { Translate } from '../../src/state/night';

/** Chrome's getMessage: `$1`…`$9` are the substitutions, `$$` is a dollar sign. */
export function getMessage(key: string, substitutions: string | string[] = []): string {
  const entry = (messages as Record<string, { message: string } | undefined>)[key];
  if (!entry) return '';
  const subs = Array.isArray(substitutions) ? substitutions : [substitutions];
  return entry.message.replace(/\$(\$|[1-9])/g, (_, which: string) =>
    which === '$' ? '$' : (subs[Number(which) - 1] ?? ''),
  );
}

/** `t` as the pages have it, for modules that take the translator as a parameter (state/night.ts). */
export const translate: Translate = (key, ...substitutions) => getMessage(key, substitutions.map(String));
