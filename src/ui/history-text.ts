import { type MessageKey, t, tn } from '../lib/i18n';
import type { NotifyEffect } from '../state/policy';
import { DECLINED, type DeclineReason, type HistoryEntry, type HistoryParams, type TabGoneWay } from '../state/schema';
import { colabSaid } from './steps';

/**
 * A history entry's details in words: the record keeps what happened as data (a type and parameters), and the pages,
 * the notifications and the night log say it from there. An entry an earlier version wrote as a sentence that could
 * not be read back as data (state/migrations.ts) is shown as it was written.
 */
export function historyDetail(entry: HistoryEntry): string | undefined {
  if (entry.detail !== undefined) return entry.detail;
  const p = entry.params ?? {};
  switch (entry.type) {
    case 'restart-scheduled':
      return countdownWords(p);
    case 'restarted':
      return p.why === 'marker' ? t('historyMarkerRestartDone') : t('historyRestartDone', p.n ?? 0, p.max ?? 0);
    // The step is the title; what it saw in Colab's page is said only when it is Colab's words (ui/steps.ts).
    case 'restart-failed':
      return entry.failed ? colabSaid(entry.failed) : undefined;
    case 'interrupted':
      return t('historyInterrupted');
    case 'cancelled':
      return t('historyCancelled');
    case 'gave-up':
      return gaveUpWords(p);
    case 're-armed':
      return t('historyRearmed');
    case 'counter-reset':
      return t('historyCounterReset', p.total ?? 0);
    case 'disabled':
      return p.cancelled ? t('historyPendingCancelled') : undefined;
    case 'healthy-reset':
      return t('historyHealthyReset', p.minutes ?? 0, p.total ?? 0);
    case 'ignored':
      return ignoredWords(p);
    case 'resumed':
      return resumedWords(p);
    case 'skipped':
      return t('historySkipped', p.minutes ?? 0);
    case 'left-to-person':
      return leftWords(entry, p);
    case 'run-stopped':
      return stoppedWords(p);
    case 'guard-ended':
      return t('historyGuardEnded');
    case 'asked':
      return askedWords(p);
    case 'tab-gone':
      return t(TAB_GONE_WORDS[tabGoneWay(p)]);
    case 'enabled':
    case 'run-started':
    case 'run-finished':
    case 'run-interrupted':
      return undefined;
  }
}

const TAB_GONE_WORDS: Record<TabGoneWay, MessageKey> = {
  closed: 'historyTabClosed',
  discarded: 'historyTabDiscarded',
  navigated: 'historyTabNavigated',
};

/** How a tab-gone entry's tab went (an entry without it: closed, the commonest). */
export function tabGoneWay(p: HistoryParams): TabGoneWay {
  return p.why === 'discarded' || p.why === 'navigated' ? p.why : 'closed';
}

/** How the question to the person at the keyboard ended. */
function askedWords(p: HistoryParams): string | undefined {
  switch (p.choice) {
    case 'restart':
      return t('historyAskedRestart');
    case 'not-now':
      return t('historyAskedNotNow');
    case 'away':
      return t('historyAskedAway', p.delaySec ?? 0);
    case 'closed':
      return t('historyAskedClosed');
    case undefined:
      return undefined;
  }
}

/** "Cell [7]: ValueError: bad shape"; the line alone when the cell's number was not shown. */
function stoppedWords(p: HistoryParams): string {
  if (!p.saw) return t('historyRunStoppedUnknown');
  return p.cell === undefined ? p.saw : t('historyRunStoppedCell', p.cell, p.saw);
}

function countdownWords(p: HistoryParams): string | undefined {
  if (p.n === undefined || p.max === undefined || p.delaySec === undefined) return undefined;
  const key: MessageKey =
    p.why === 'marker' ? 'historyMarkerRestartIn' : p.why === 'reconnect' ? 'historyReconnectIn' : 'historyRestartIn';
  return t(key, p.n, p.max, p.delaySec);
}

function gaveUpWords(p: HistoryParams): string | undefined {
  const n = p.n ?? 0;
  const max = p.max ?? 0;
  return tn(p.why === 'unable-to-connect' ? 'historyGaveUpOutage' : 'historyGaveUp', n, n, max);
}

function ignoredWords(p: HistoryParams): string | undefined {
  switch (p.why) {
    case 'already-handled':
      return t('historyAlreadyHandled');
    case 'marker-limit':
      return t('historyMarkerLimit', p.max ?? 0);
    case 'reconnect-not-needed':
      return t('historyReconnectNotNeeded');
    case 'guard-ended':
      return t('historyAfterGuardEnded');
    case undefined:
      return undefined;
    default:
      return Object.hasOwn(DECLINED, p.why) ? t(DECLINED_WORDS[p.why as DeclineReason]) : undefined;
  }
}

/** Why a failure seen was left alone, in the words of the page's language: one string per reason. */
const DECLINED_WORDS: Record<DeclineReason, MessageKey> = {
  'earlier-error': 'historyDeclinedEarlierError',
  'ending-missing': 'historyDeclinedEndingMissing',
  'ending-unclear': 'historyDeclinedEndingUnclear',
  'source-unreadable': 'historyDeclinedSourceUnreadable',
  'crash-without-run': 'historyDeclinedCrashWithoutRun',
};

function resumedWords(p: HistoryParams): string | undefined {
  const delay = p.delaySec ?? 0;
  switch (p.why) {
    case 'browser-restarted':
      return t('historyResumedBrowser', delay);
    case 'reloaded':
      return t('historyResumedReloaded', delay);
    case 'took-over':
      return t('historyResumedTookOver', delay);
    case 'late':
      return t('historyResumedLate', p.minutes ?? 0, delay);
    default:
      return undefined;
  }
}

function leftWords(entry: HistoryEntry, p: HistoryParams): string | undefined {
  if (p.why === 'dialog') return p.saw ? t('historyColabSaid', p.saw) : undefined;
  const description = entry.verdict?.description;
  if (!description) return undefined;
  return p.cancelled ? t('historyNotReconnectedCancelled', description) : t('historyNotReconnected', description);
}

/** What a notification says under its title: the entry's words, or for a note left to the person, what Colab said. */
export function notificationDetail(effect: NotifyEffect): string {
  const { entry } = effect;
  if (effect.kind === 'left-to-person' && entry.detail === undefined) {
    const p = entry.params ?? {};
    if (p.why === 'dialog') return t('notifyLeftDialog', p.saw ?? '');
    if (entry.verdict) return t('notifyLeftDisconnect', entry.verdict.description, entry.verdict.line);
  }
  return historyDetail(entry) ?? '';
}
