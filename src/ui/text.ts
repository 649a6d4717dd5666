import { type MessageKey, t, tn } from '../lib/i18n';
import { DAY_MS } from '../lib/units';
import type { DialogKind } from '../state/dialogs';
import { UNKNOWN_STEP } from '../state/failed-step';
import { gaveUpUnableToConnect, lastAction } from '../state/last-action';
import type { HistoryEntry, NotebookRecord, RestartAction, Verdict } from '../state/schema';
import { clock, countdownText, foundText } from './countdown';
import { personOnlyDialog } from './dialog-words';
import { historyDetail } from './history-text';
import { clockTime } from './night-text';
import type { StatusView } from './status-view';
import { colabSaid, stepWords } from './steps';
import { verdictName } from './verdict-name';

/** Human text for the states, events and verdicts the pages and the in-page notice show. */

export interface StatusText {
  /** The state in a few words; for a countdown it includes the time left. */
  headline: string;
  /** The same without numbers that change every second (for the live region). */
  announcement: string;
  detail?: string;
  /** The failure's line, or the words of the dialog Colab showed: for the curious, never the headline. */
  details?: string;
}

export function statusText(view: StatusView, record: NotebookRecord): StatusText {
  switch (view.state) {
    case 'off':
      return same(t('stateOff'), t('stateOffDetail'));
    case 'watching':
      return same(t('stateWatching'), t('stateWatchingDetail'));
    case 'pending': {
      const reason = view.reason ?? 'failure';
      const what = foundText(reason, view.verdict);
      return {
        headline: countdownText(reason, what, clock(view.secondsLeft ?? 0)),
        announcement: t('countdownAnnounce', what),
        detail: reason === 'crash' ? t('countdownCrash') : undefined,
        details: view.verdict ? verdictText(view.verdict) : undefined,
      };
    }
    case 'asking':
      return same(t('stateAsking'), t('stateAskingDetail', foundText(view.reason ?? 'failure', view.verdict)));
    case 'restarting':
      return same(t('stateRestarting'), view.action ? actionText(view.action) : undefined);
    case 'gave-up': {
      const restarts = record.status.kind === 'gave-up' ? record.status.restarts : view.used;
      if (gaveUpUnableToConnect(record.history)) {
        return same(tn('stateGaveUpOutage', restarts, restarts), t('stateGaveUpOutageDetail'));
      }
      return same(tn('stateGaveUp', restarts, restarts), t('stateGaveUpDetail'));
    }
    case 'ui-problem': {
      const failed = view.failed ?? UNKNOWN_STEP;
      const headline = t('stateUiProblem', stepWords(failed, lastAction(record.history)));
      return { headline, announcement: headline, detail: t('stateUiProblemDetail'), details: colabSaid(failed) };
    }
  }
}

function same(headline: string, detail?: string): StatusText {
  return { headline, announcement: headline, detail };
}

export function actionText(action: RestartAction): string {
  const keys: Record<RestartAction, MessageKey> = {
    'restart-and-run-all': 'actionRestartRunAll',
    'run-all': 'actionRunAll',
    'reconnect-and-run-all': 'actionReconnectRunAll',
  };
  return t(keys[action]);
}

/** "PyTorch CUDA out of memory: torch.OutOfMemoryError: CUDA out of memory…"; the rule's id is for diagnostics. */
export function verdictText(verdict: Verdict): string {
  return t('verdictWords', verdictName(verdict), verdict.line);
}

const HISTORY_KEYS: Record<HistoryEntry['type'], MessageKey> = {
  'restart-scheduled': 'eventRestartScheduled',
  restarted: 'eventRestarted',
  'restart-failed': 'eventRestartFailed',
  interrupted: 'eventInterrupted',
  cancelled: 'eventCancelled',
  'gave-up': 'eventGaveUp',
  're-armed': 'eventRearmed',
  'counter-reset': 'eventCounterReset',
  enabled: 'eventEnabled',
  disabled: 'eventDisabled',
  'healthy-reset': 'eventHealthyReset',
  ignored: 'eventIgnored',
  resumed: 'eventResumed',
  skipped: 'eventSkipped',
  'left-to-person': 'eventLeftDisconnect',
  'run-started': 'eventRunStarted',
  'run-finished': 'eventRunFinished',
  'run-stopped': 'eventRunStopped',
  'run-interrupted': 'eventRunInterrupted',
  'guard-ended': 'eventGuardEnded',
  asked: 'eventAsked',
  'tab-gone': 'eventTabGone',
};

export interface EventText {
  title: string;
  detail?: string;
  verdict?: string;
}

/** `earlier`: the entries before this one, which tell what a failed restart was doing. */
export function eventText(entry: HistoryEntry, earlier: readonly HistoryEntry[] = []): EventText {
  return {
    title: eventTitle(entry, earlier),
    detail: historyDetail(entry),
    verdict: entry.verdict ? verdictText(entry.verdict) : undefined,
  };
}

function eventTitle(entry: HistoryEntry, earlier: readonly HistoryEntry[]): string {
  switch (entry.type) {
    case 'restart-scheduled':
      if (entry.action === 'reconnect-and-run-all') return t('eventDisconnectScheduled');
      return t(entry.verdict?.rule === 'restart-marker' ? 'eventMarkerScheduled' : 'eventRestartScheduled');
    case 'restarted':
      if (entry.action === 'run-all') return t('eventRanAll');
      return t(entry.action === 'reconnect-and-run-all' ? 'eventReconnected' : 'eventRestarted');
    case 'restart-failed': {
      const failed = entry.failed ?? UNKNOWN_STEP;
      return t('eventRestartFailed', stepWords(failed, lastAction(earlier)));
    }
    case 'left-to-person': {
      const words = waitsFor(entry.params?.dialog);
      return words ? t('eventLeftDialog', words) : t('eventLeftDisconnect');
    }
    default:
      return t(HISTORY_KEYS[entry.type]);
  }
}

/** The dialog a "left to you" entry names, in words, or null. */
function waitsFor(kind: string | undefined): string | null {
  const words = kind ? personOnlyDialog(kind as DialogKind) : null;
  return words ? t(words) : null;
}

/** Clock time for today's events; weekday and time within the week; the date beyond. */
export function formatTime(at: number, now: number): string {
  const date = new Date(at);
  const time = clockTime(at);
  if (new Date(now).toDateString() === date.toDateString()) return time;
  if (now - at < 6 * DAY_MS) return `${date.toLocaleDateString(undefined, { weekday: 'short' })} ${time}`;
  return `${date.toLocaleDateString(undefined, { month: 'short', day: 'numeric' })} ${time}`;
}

/** A language's name in the browser's language ("Portuguese (Brazil)" for "pt-BR"); the tag itself if it has none. */
export function languageName(tag: string): string {
  try {
    return new Intl.DisplayNames(undefined, { type: 'language' }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}

/** Languages' names as a list in the browser's language ("English, Spanish and Japanese"). */
export function languageList(tags: readonly string[]): string {
  return new Intl.ListFormat(undefined, { type: 'conjunction' }).format(tags.map(languageName));
}
