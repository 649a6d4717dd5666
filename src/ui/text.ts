import { type MessageKey, t } from '../lib/i18n';
import type { StatusView } from '../state/policy';
import type { HistoryEntry, NotebookRecord, RestartAction, Verdict } from '../state/schema';

/** Human text for the states, events and verdicts the pages show. */

export interface StatusText {
  /** The state in a few words; for a pending restart it includes the live countdown. */
  headline: string;
  /** The same without numbers that change every second (for the live region). */
  announcement: string;
  detail?: string;
}

export function statusText(view: StatusView, record: NotebookRecord): StatusText {
  switch (view.state) {
    case 'off':
      return same(t('stateOff'), t('stateOffDetail'));
    case 'watching':
      return same(t('stateWatching'), t('stateWatchingDetail'));
    case 'pending': {
      const seconds = view.secondsLeft ?? 0;
      const headline =
        view.reason === 'marker'
          ? t('statePendingMarker', seconds)
          : view.reason === 'disconnect'
            ? t('statePendingDisconnect', seconds)
            : t('statePending', seconds);
      const announcement = view.reason === 'marker' ? t('statePendingMarkerAnnounce') : t('statePendingAnnounce');
      const detail = view.verdict ? verdictText(view.verdict) : undefined;
      return { headline, announcement, detail };
    }
    case 'restarting':
      return same(t('stateRestarting'), view.action ? actionText(view.action) : undefined);
    case 'gave-up': {
      const restarts = record.status.kind === 'gave-up' ? record.status.restarts : view.used;
      const headline = restarts === 1 ? t('stateGaveUpOne') : t('stateGaveUp', restarts);
      return same(headline, t('stateGaveUpDetail'));
    }
    case 'ui-problem':
      return same(t('stateUiProblem', view.step ?? ''), view.detail);
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

/** "PyTorch CUDA out of memory (rule torch-cuda-oom): torch.OutOfMemoryError: CUDA out of memory…" */
export function verdictText(verdict: Verdict): string {
  return t('verdictLine', verdict.description, verdict.rule, verdict.line);
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
};

export interface EventText {
  title: string;
  detail?: string;
  verdict?: string;
}

export function eventText(entry: HistoryEntry): EventText {
  return {
    title: t(HISTORY_KEYS[entry.type]),
    detail: entry.detail,
    verdict: entry.verdict ? verdictText(entry.verdict) : undefined,
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Clock time for today's events; weekday and time within the week; the date beyond. */
export function formatTime(at: number, now: number): string {
  const date = new Date(at);
  const time = date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  if (new Date(now).toDateString() === date.toDateString()) return time;
  if (now - at < 6 * DAY_MS) return `${date.toLocaleDateString(undefined, { weekday: 'short' })} ${time}`;
  return `${date.toLocaleDateString(undefined, { month: 'short', day: 'numeric' })} ${time}`;
}

export function formatHour(at: number): string {
  return new Date(at).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}
