import { restartsTonight } from '../state/night';
import type { NotebookRecord, Settings } from '../state/schema';
import { describeStatus } from './status-view';

/**
 * What the toolbar icon shows for a tab on a notebook: whether the guard is on and how many restarts happened in the
 * last 12 hours, with a look of its own for each state that needs the user: gave up ("!", a stop sign) and Colab UI
 * problem ("UI", a warning sign). The tooltip says what the popup's status box says (ui/badge-tooltip.ts).
 */
export interface BadgeView {
  text: string;
  color: string;
  icon: BadgeIcon;
}

export type BadgeIcon = 'on' | 'off' | 'gave-up' | 'ui-problem';

const GREEN = '#188038';
const AMBER = '#b06000';
const RED = '#c5221f';
const ORANGE = '#a04100';
const GREY = '#5f6368';
const PURPLE = '#8430ce';

/** `onWord`: the badge's "on" in the user's language (`_locales` badgeOn, at most 4 characters). */
export function badgeFor(record: NotebookRecord | null, settings: Settings, now: number, onWord: string): BadgeView {
  if (!record) return { text: '', color: GREY, icon: 'on' };
  const view = describeStatus(record, settings, now);
  const tonight = restartsTonight(record.history, now);
  const count = tonight > 0 ? String(tonight) : onWord;
  switch (view.state) {
    case 'off':
      return { text: '', color: GREY, icon: 'off' };
    case 'watching':
      // Colab busy for minutes and no cell seen running; failures may go unseen.
      if (record.blindSince !== undefined) return { text: '?', color: PURPLE, icon: 'on' };
      return { text: count, color: GREEN, icon: 'on' };
    case 'pending':
    case 'asking':
    case 'restarting':
      return { text: count, color: AMBER, icon: 'on' };
    case 'gave-up':
      return { text: '!', color: RED, icon: 'gave-up' };
    case 'ui-problem':
      return { text: 'UI', color: ORANGE, icon: 'ui-problem' };
  }
}
