import type { Refusal, refusedPattern } from '../detector/patterns';
import { t } from '../lib/i18n';

/** Why a pattern is refused, in the user's language (the detector gives only the message key and its parts). */
export function sayRefusal(refusal: Refusal): string {
  return t(refusal.key, ...refusal.subs);
}

/** `refusedPattern` with its reason in words, for the import's check (state/transfer.ts has no i18n). */
export function refusedPatternSaid(
  check: typeof refusedPattern,
): (settings: Parameters<typeof refusedPattern>[0]) => { path: string; message: string } | null {
  return (settings) => {
    const refused = check(settings);
    return refused && { path: refused.path, message: sayRefusal(refused.refusal) };
  };
}
