import type { DialogKind } from './dialogs';

/**
 * Dialogs only a person may answer, with the `_locales` key of the words the in-page notice names each with. The
 * guard never answers them; what they ask (access to Drive, giving the VM away, running disallowed code, an
 * untrusted notebook, a paid or slower runtime, a robot check) is the user's decision, or (cannot save) news the user
 * must have. Not listed: the restart confirmation (ours), the disconnect dialog (its own setting), the high-RAM offer
 * (declined by the guard), and the dialogs a person opens themselves (change runtime type, delete runtime).
 */
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
} as const satisfies Partial<Record<DialogKind, string>>;

export type PersonOnlyWords = (typeof PERSON_ONLY_WORDS)[keyof typeof PERSON_ONLY_WORDS];
export type PersonOnlyKind = keyof typeof PERSON_ONLY_WORDS;
/** The kinds, for a message naming one to be checked at its receiver. */
export const PERSON_ONLY_KINDS = Object.keys(PERSON_ONLY_WORDS) as PersonOnlyKind[];
const PERSON_ONLY: Partial<Record<DialogKind, PersonOnlyWords>> = PERSON_ONLY_WORDS;

export function isPersonOnly(kind: DialogKind): kind is PersonOnlyKind {
  return Object.hasOwn(PERSON_ONLY_WORDS, kind);
}

/** Whether only a person may answer a dialog of this kind: the `_locales` key of the notice's words for it, or null. */
export function personOnlyDialog(kind: DialogKind): PersonOnlyWords | null {
  return PERSON_ONLY[kind] ?? null;
}
