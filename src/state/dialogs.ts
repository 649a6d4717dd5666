/**
 * The kinds of Colab dialog the guard tells apart (colab/dialogs.ts reads them from the page), and which of them only
 * a person may answer. Named here, without the DOM, because the page, the worker and the pages all speak of them.
 */

export type DialogKind =
  | 'restart-confirm'
  | 'disconnected'
  | 'gpu-quota'
  | 'recaptcha'
  | 'usage-limit'
  | 'pip-restart'
  | 'drive-permission'
  | 'new-runtime-required'
  | 'disallowed-code'
  | 'change-runtime-type'
  | 'cannot-save'
  | 'delete-runtime'
  | 'not-authored'
  | 'high-ram-offer'
  | 'unknown';

/**
 * Dialogs only a person may answer. The guard never answers them; what they ask (access to Drive, giving the VM
 * away, running disallowed code, an untrusted notebook, a paid or slower runtime, a robot check) is the user's
 * decision, or (cannot save) news the user must have. Not listed: the restart confirmation (ours), the disconnect
 * dialog (its own setting), the high-RAM offer (declined by the guard), and the dialogs a person opens themselves
 * (change runtime type, delete runtime).
 */
export const PERSON_ONLY_KINDS = [
  'recaptcha',
  'usage-limit',
  'gpu-quota',
  'pip-restart',
  'drive-permission',
  'new-runtime-required',
  'disallowed-code',
  'cannot-save',
  'not-authored',
] as const satisfies readonly DialogKind[];
export type PersonOnlyKind = (typeof PERSON_ONLY_KINDS)[number];

export function isPersonOnly(kind: string): kind is PersonOnlyKind {
  return (PERSON_ONLY_KINDS as readonly string[]).includes(kind);
}
