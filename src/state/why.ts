import type { Category, Refusal } from '../detector';
import type { PersonOnlyKind } from './dialogs';
import type { DisconnectKind } from './disconnect';

/**
 * Why a reply refuses, or why a report starts no restart: data, never words. Every reply of the worker carries one in
 * its `why` field; the pages say it in the user's language (ui/why-text.ts). A `detail` is text the guard does not own
 * (the browser's or valibot's message), shown as is inside a translated sentence.
 */
export type Why =
  // A report that starts no restart (ReportReply)
  | { kind: 'guard-off' }
  | { kind: 'category-off'; category: Exclude<Category, 'custom'> }
  | { kind: 'reconnect-off' }
  | { kind: 'disconnect-left'; disconnect: DisconnectKind }
  | { kind: 'dialog-left'; dialog: PersonOnlyKind }
  | { kind: 'marker-limit'; limit: number }
  | { kind: 'already-handled' }
  | { kind: 'restart-pending' }
  | { kind: 'stopped' }
  | { kind: 'older-run' }
  | { kind: 'gave-up'; restarts: number; max: number }
  | { kind: 'guard-ended' }
  // A claim or an answer refused (ClaimReply)
  | { kind: 'restart-under-way' }
  | { kind: 'no-pending' }
  | { kind: 'replaced' }
  | { kind: 'other-owner' }
  | { kind: 'asking' }
  | { kind: 'too-early'; seconds: number }
  | { kind: 'countdown-again'; carry: 'browser-restarted' }
  | { kind: 'countdown-again'; carry: 'late'; minutes: number }
  | { kind: 'no-question' }
  | { kind: 'left-to-person' }
  | { kind: 'nobody-answered' }
  // A page's own: the worker gave no answer, or none about the notebook the tab shows (page/notebook-session.ts)
  | { kind: 'no-answer' }
  | { kind: 'tab-moved' }
  // An extension page's own (ui/send.ts): the worker did not answer (the browser's `detail`), or said no without why
  | { kind: 'worker-silent'; detail: string }
  | { kind: 'unknown' }
  // A command refused (CommandReply)
  | { kind: 'not-shown' }
  | { kind: 'no-countdown' }
  | { kind: 'asking-off' }
  | { kind: 'no-restart-in-progress' }
  | { kind: 'cannot-cancel' }
  | { kind: 'max-restarts-range'; min: number; max: number }
  | { kind: 'storage-refused'; full: boolean; detail: string }
  | { kind: 'alerts-no-url' }
  | { kind: 'alerts-url-refused' }
  | { kind: 'alerts-secret'; secret: SecretProblem }
  | { kind: 'permission-missing' }
  | { kind: 'consent-refused' }
  | { kind: 'heartbeat-no-url' }
  | { kind: 'heartbeat-every-refused' }
  | { kind: 'heartbeat-url-refused' }
  // Settings refused (SettingsUpdate)
  | { kind: 'read-only'; key: string }
  | { kind: 'unknown-setting'; names: string[] }
  | { kind: 'invalid-setting'; path: string; detail: string }
  // An import refused (ImportOutcome)
  | { kind: 'import-newer'; names: string[]; more: number }
  | { kind: 'import-too-large'; neededMb: string; quotaMb: string }
  | { kind: 'not-an-export' }
  | { kind: 'not-json'; detail: string }
  | { kind: 'no-version'; found: string }
  | { kind: 'export-newer'; version: number; current: number }
  | { kind: 'too-many-notebooks'; count: number; max: number }
  | { kind: 'expected-list'; path: string }
  | { kind: 'expected-object'; path: string }
  | { kind: 'invalid-field'; path: string; detail: string }
  | { kind: 'duplicate-key'; path: string; key: string }
  | { kind: 'newer-record'; path: string; version: number }
  | { kind: 'pattern-refused'; path: string; refusal: Refusal }
  | { kind: 'patterns-unchecked' };

export type WhyKind = Why['kind'];

/** What keeps an alert receiver's secrets from working (state/alerts.ts checks them). */
export type SecretProblem = 'telegram-token' | 'telegram-chat' | 'token-chars';

/** Every kind, at run time (for the tests that each has words in every language); the compiler keeps it whole. */
export const WHY_KINDS = [
  'guard-off',
  'category-off',
  'reconnect-off',
  'disconnect-left',
  'dialog-left',
  'marker-limit',
  'already-handled',
  'restart-pending',
  'stopped',
  'older-run',
  'gave-up',
  'guard-ended',
  'restart-under-way',
  'no-pending',
  'replaced',
  'other-owner',
  'asking',
  'too-early',
  'countdown-again',
  'no-question',
  'left-to-person',
  'nobody-answered',
  'no-answer',
  'tab-moved',
  'worker-silent',
  'unknown',
  'not-shown',
  'no-countdown',
  'asking-off',
  'no-restart-in-progress',
  'cannot-cancel',
  'max-restarts-range',
  'storage-refused',
  'alerts-no-url',
  'alerts-url-refused',
  'alerts-secret',
  'permission-missing',
  'consent-refused',
  'heartbeat-no-url',
  'heartbeat-every-refused',
  'heartbeat-url-refused',
  'read-only',
  'unknown-setting',
  'invalid-setting',
  'import-newer',
  'import-too-large',
  'not-an-export',
  'not-json',
  'no-version',
  'export-newer',
  'too-many-notebooks',
  'expected-list',
  'expected-object',
  'invalid-field',
  'duplicate-key',
  'newer-record',
  'pattern-refused',
  'patterns-unchecked',
] as const satisfies readonly WhyKind[];

/** The list names every kind: this type does not compile otherwise. */
export type WhyKindsComplete = Exactly<WhyKind, (typeof WHY_KINDS)[number]>;
type Exactly<A extends B, B extends C, C = A> = [A, B, C];
