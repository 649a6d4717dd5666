import { t } from '../lib/i18n';
import { disconnectVerdict } from '../state/disconnect';
import type { Why, WhyKind } from '../state/why';
import { secretProblemText } from './alert-text';
import { categoryLabel } from './category-labels';
import { personOnlyDialog } from './dialog-words';
import { sayRefusal } from './refusal-text';
import { verdictName } from './verdict-name';

/** The words of one kind of why, from its parameters. */
type Words = { [K in WhyKind]: (why: Extract<Why, { kind: K }>) => string };

/** Every kind has words (the compiler refuses a kind without): a reply is said in the user's language. */
const WORDS: Words = {
  'guard-off': () => t('whyGuardOff'),
  'category-off': (why) => t('whyCategoryOff', categoryLabel(why.category)),
  'reconnect-off': () => t('whyReconnectOff'),
  'disconnect-left': (why) => t('whyDisconnectLeft', verdictName(disconnectVerdict(why.disconnect, ''))),
  'dialog-left': (why) => t('whyDialogLeft', dialogWords(why.dialog)),
  'marker-limit': (why) => t('whyMarkerLimit', why.limit),
  'already-handled': () => t('whyAlreadyHandled'),
  'restart-pending': () => t('whyRestartPending'),
  stopped: () => t('whyStopped'),
  'older-run': () => t('whyOlderRun'),
  'gave-up': (why) => t('whyGaveUp', why.restarts, why.max),
  'guard-ended': () => t('whyGuardEnded'),
  'restart-under-way': () => t('whyRestartUnderWay'),
  'no-pending': () => t('whyNoPending'),
  replaced: () => t('whyReplaced'),
  'other-owner': () => t('whyOtherOwner'),
  asking: () => t('whyAsking'),
  'too-early': (why) => t('whyTooEarly', why.seconds),
  'countdown-again': (why) =>
    why.carry === 'late' ? t('whyCountdownLate', why.minutes) : t('whyCountdownBrowserRestarted'),
  'no-question': () => t('whyNoQuestion'),
  'left-to-person': () => t('whyLeftToPerson'),
  'nobody-answered': () => t('whyNobodyAnswered'),
  'no-answer': () => t('whyNoAnswer'),
  'tab-moved': () => t('whyTabMoved'),
  'worker-silent': (why) => t('errorNoAnswer', why.detail),
  unknown: () => t('errorUnknown'),
  'not-shown': () => t('whyNotShown'),
  'no-countdown': () => t('whyNoCountdown'),
  'asking-off': () => t('whyAskingOff'),
  'no-restart-in-progress': () => t('whyNoRestartInProgress'),
  'cannot-cancel': () => t('whyCannotCancel'),
  'max-restarts-range': (why) => t('whyMaxRestartsRange', why.min, why.max),
  'storage-refused': (why) => t(why.full ? 'whyStorageFull' : 'whyStorageRefused', why.detail),
  'alerts-no-url': () => t('alertsNoUrl'),
  'alerts-url-refused': () => t('alertsUrlRefused'),
  'alerts-secret': (why) => secretProblemText(why.secret),
  'permission-missing': () => t('alertsPermissionMissing'),
  'consent-refused': () => t('alertsConsentRefused'),
  'heartbeat-no-url': () => t('heartbeatNoUrl'),
  'heartbeat-every-refused': () => t('heartbeatEveryRefused'),
  'heartbeat-url-refused': () => t('heartbeatUrlRefused'),
  'read-only': (why) => t('whyReadOnly', why.key),
  'unknown-setting': (why) => t('whyUnknownSetting', why.names.join(', ')),
  'invalid-setting': (why) =>
    why.path ? t('whyInvalidSetting', why.path, why.detail) : t('whyInvalidSettings', why.detail),
  'import-newer': (why) => t('whyImportNewer', namesText(why.names, why.more)),
  'import-too-large': (why) => t('whyImportTooLarge', why.neededMb, why.quotaMb),
  'not-an-export': () => t('whyNotAnExport'),
  'not-json': (why) => t('whyNotJson', why.detail),
  'no-version': (why) => (why.found ? t('whyNoVersion', why.found) : t('whyNoVersionNone')),
  'export-newer': (why) => t('whyExportNewer', why.version, why.current),
  'too-many-notebooks': (why) => t('whyTooManyNotebooks', why.count, why.max),
  'expected-list': (why) => t('whyExpectedList', why.path),
  'expected-object': (why) => t('whyExpectedObject', why.path),
  'invalid-field': (why) => t('whyInvalidField', why.path, why.detail),
  'duplicate-key': (why) => t('whyDuplicateKey', why.path, why.key),
  'newer-record': (why) => t('whyNewerRecord', why.path, why.version),
  'pattern-refused': (why) => t('whyPatternRefused', why.path, sayRefusal(why.refusal)),
  'patterns-unchecked': () => t('whyPatternsUnchecked'),
};

/**
 * Why a reply refused, in the user's language. A why this version does not know (from a worker of another version,
 * between an update and the page's reload) is said as an unknown failure.
 */
export function whyWords(why: Why): string {
  const words = WORDS[why.kind] as ((why: Why) => string) | undefined;
  return words ? words(why) : t('errorUnknown');
}

function dialogWords(kind: Extract<Why, { kind: 'dialog-left' }>['dialog']): string {
  const key = personOnlyDialog(kind);
  return key ? t(key) : kind;
}

function namesText(names: readonly string[], more: number): string {
  const listed = names.join(', ');
  return more > 0 ? t('whyNamesMore', listed, more) : listed;
}
