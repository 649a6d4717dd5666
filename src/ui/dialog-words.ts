import type { MessageKey } from '../lib/i18n';
import { isPersonOnly, type PersonOnlyKind } from '../state/dialogs';

/** The `_locales` key of the words the in-page notice, the popup and the history name each person-only dialog with. */
const PERSON_ONLY_WORDS = {
  recaptcha: 'noticeRecaptcha',
  'usage-limit': 'noticeUsageLimit',
  'gpu-quota': 'noticeGpuQuota',
  'pip-restart': 'noticePipRestart',
  'drive-permission': 'noticeDrivePermission',
  'new-runtime-required': 'noticeNewRuntime',
  'disallowed-code': 'noticeDisallowedCode',
  'cannot-save': 'noticeCannotSave',
  'not-authored': 'noticeNotAuthored',
} as const satisfies Record<PersonOnlyKind, MessageKey>;

export type PersonOnlyWords = (typeof PERSON_ONLY_WORDS)[PersonOnlyKind];

/** Whether only a person may answer a dialog of this kind: the `_locales` key of the notice's words for it, or null. */
export function personOnlyDialog(kind: string): PersonOnlyWords | null {
  return isPersonOnly(kind) ? PERSON_ONLY_WORDS[kind] : null;
}
