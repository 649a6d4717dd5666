import type { Refusal } from '../detector/patterns';
import { t } from '../lib/i18n';

/** Why a pattern is refused, in the user's language (the detector gives only the message key and its parts). */
export function sayRefusal(refusal: Refusal): string {
  return t(refusal.key, ...refusal.subs);
}
