import { describeStatus } from './policy';
import type { HistoryEntry, NotebookRecord, Settings } from './schema';

/**
 * What the toolbar icon shows for a tab on a notebook: whether the guard is on and how many restarts happened
 * tonight, with a look of its own when the guard stopped and needs the user.
 */
export interface BadgeView {
  text: string;
  color: string;
  icon: 'on' | 'off' | 'alert';
  /** Tooltip; the extension name is prepended by the caller. */
  title: string;
}

/** "Tonight" is the last 12 hours: long enough for an overnight run, short enough to start fresh the next evening. */
export const TONIGHT_MS = 12 * 60 * 60_000;

const GREEN = '#188038';
const AMBER = '#b06000';
const RED = '#c5221f';
const GREY = '#5f6368';
const PURPLE = '#8430ce';

/** Issue 13.6: the page saw Colab busy for minutes without seeing any cell run; failures may go unseen. */
const BLIND: BadgeView = {
  text: '?',
  color: PURPLE,
  icon: 'on',
  title: 'Detection may be blind: Colab was busy for minutes with no cell seen running (try Check Colab UI)',
};

/** An interrupted restart counts too: it counts toward the loop limit and the lifetime total as well. */
export function restartsSince(record: NotebookRecord, since: number): number {
  return record.history.filter((entry) => COUNTED.has(entry.type) && entry.at >= since).length;
}

const COUNTED = new Set<HistoryEntry['type']>(['restarted', 'interrupted']);

export function badgeFor(record: NotebookRecord | null, settings: Settings, now: number): BadgeView {
  if (!record) return { text: '', color: GREY, icon: 'on', title: 'Not a Colab notebook' };
  const view = describeStatus(record, settings, now);
  const tonight = restartsSince(record, now - TONIGHT_MS);
  const count = tonight > 0 ? String(tonight) : '';
  switch (view.state) {
    case 'off':
      return { text: '', color: GREY, icon: 'off', title: 'Off for this notebook' };
    case 'watching':
      if (record.blindSince !== undefined) return BLIND;
      return { text: count || 'ON', color: GREEN, icon: 'on', title: `Watching · ${tonight} restart(s) tonight` };
    case 'pending':
      return { text: count || 'ON', color: AMBER, icon: 'on', title: 'OOM detected · restart pending' };
    case 'restarting':
      return { text: count || 'ON', color: AMBER, icon: 'on', title: 'Restarting' };
    case 'gave-up':
      return {
        text: '!',
        color: RED,
        icon: 'alert',
        title: `Gave up after ${view.used} restart(s): re-arm in the popup`,
      };
    case 'ui-problem':
      return { text: '!', color: RED, icon: 'alert', title: `Colab UI problem at ${view.step}: ${view.detail}` };
  }
}
