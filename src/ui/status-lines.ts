import { type MessageKey, t, tn } from '../lib/i18n';
import { nightStart } from '../state/night';
import { backoffSeconds } from '../state/policy';
import type { HistoryEntry, NotebookRecord, Settings, TabGoneWay } from '../state/schema';
import { tabGoneWay } from './history-text';
import type { StatusView } from './status-view';
import { formatTime } from './text';

/**
 * The status box's second and third answers, after whether the notebook is guarded: what happened to the night's
 * run ("Run finished at 06:12 after 1 restart", "Run stopped at 03:10: ValueError: … (not out of memory, not
 * restarted)", "Gave up at 04:00 after 3 restarts"), and what happens next ("2 of 3 restarts left; next wait 20 s").
 * Times carry the day when it is not today.
 */

const ENDINGS: ReadonlySet<HistoryEntry['type']> = new Set([
  'run-finished',
  'run-stopped',
  'run-interrupted',
  'gave-up',
  'guard-ended',
  'tab-gone',
]);

const TAB_GONE_HAPPENED: Record<TabGoneWay, MessageKey> = {
  closed: 'happenedTabClosed',
  discarded: 'happenedTabDiscarded',
  navigated: 'happenedTabNavigated',
};

/** How the night's newest run ended (or the guard gave up on it), in words; null while nothing has ended. */
export function happenedText(history: readonly HistoryEntry[], now: number): string | null {
  const since = nightStart(history, now);
  const end = history.findLast((entry) => entry.at >= since && entry.at <= now && ENDINGS.has(entry.type));
  if (!end) return null;
  const at = formatTime(end.at, now);
  switch (end.type) {
    case 'run-finished': {
      const restarts = history.filter((e) => e.at >= since && e.at <= end.at && isRestart(e)).length;
      if (restarts === 0) return t('happenedFinished', at);
      return tn('happenedFinishedAfter', restarts, at, restarts);
    }
    case 'run-stopped':
      return end.params?.saw ? t('happenedStopped', at, end.params.saw) : t('happenedStoppedUnknown', at);
    case 'run-interrupted':
      return t('happenedInterrupted', at);
    case 'guard-ended':
      return t('happenedGuardEnded', at);
    case 'tab-gone':
      return t(TAB_GONE_HAPPENED[tabGoneWay(end.params ?? {})], at);
    default: {
      const restarts = end.params?.n ?? 0;
      return tn('happenedGaveUp', restarts, at, restarts);
    }
  }
}

function isRestart(entry: HistoryEntry): boolean {
  return entry.type === 'restarted' || entry.type === 'interrupted';
}

/** What the guard does at the next failure; null when it does nothing by itself (off, or a countdown shown). */
export function nextText(view: StatusView, settings: Settings): string | null {
  const keys: Partial<Record<StatusView['state'], MessageKey>> = {
    'gave-up': 'nextRearm',
    'ui-problem': 'nextRearm',
  };
  const fixed = keys[view.state];
  if (fixed) return t(fixed);
  if (view.state !== 'watching') return null;
  const left = Math.max(0, view.max - view.used);
  if (left === 0) return t('nextNoneLeft');
  return t('nextLeft', left, view.max, backoffSeconds(view.used, settings));
}

/** Both answers for a record, as the popup and the notifications say them. */
export function statusLines(record: NotebookRecord, view: StatusView, settings: Settings, now: number) {
  return { happened: happenedText(record.history, now), next: nextText(view, settings) };
}
