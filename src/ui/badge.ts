import { UNKNOWN_STEP } from '../state/failed-step';
import { lastAction } from '../state/last-action';
import { restartsTonight } from '../state/night';
import type { FailedStep, NotebookRecord, RestartAction, Settings } from '../state/schema';
import { describeStatus } from './status-view';

/**
 * What the toolbar icon shows for a tab on a notebook: whether the guard is on and how many restarts happened in the
 * last 12 hours, with a look of its own for each state that needs the user: gave up ("!", a stop sign) and Colab UI
 * problem ("UI", a warning sign). The tooltip's words come from `_locales` (ui/text.ts, badgeTooltip).
 */
export interface BadgeView {
  text: string;
  color: string;
  icon: BadgeIcon;
  tip: BadgeTip;
}

export type BadgeIcon = 'on' | 'off' | 'gave-up' | 'ui-problem';

export type BadgeTip =
  | { kind: 'no-notebook' | 'off' | 'blind' | 'countdown' | 'asking' | 'restarting' }
  | { kind: 'watching' | 'gave-up'; restarts: number }
  | { kind: 'ui-problem'; failed: FailedStep; action?: RestartAction };

const GREEN = '#188038';
const AMBER = '#b06000';
const RED = '#c5221f';
const ORANGE = '#a04100';
const GREY = '#5f6368';
const PURPLE = '#8430ce';

/** `onWord`: the badge's "on" in the user's language (`_locales` badgeOn, at most 4 characters). */
export function badgeFor(record: NotebookRecord | null, settings: Settings, now: number, onWord: string): BadgeView {
  if (!record) return { text: '', color: GREY, icon: 'on', tip: { kind: 'no-notebook' } };
  const view = describeStatus(record, settings, now);
  const tonight = restartsTonight(record.history, now);
  const count = tonight > 0 ? String(tonight) : onWord;
  switch (view.state) {
    case 'off':
      return { text: '', color: GREY, icon: 'off', tip: { kind: 'off' } };
    case 'watching':
      // Colab busy for minutes and no cell seen running; failures may go unseen.
      if (record.blindSince !== undefined) return { text: '?', color: PURPLE, icon: 'on', tip: { kind: 'blind' } };
      return { text: count, color: GREEN, icon: 'on', tip: { kind: 'watching', restarts: tonight } };
    case 'pending':
      return { text: count, color: AMBER, icon: 'on', tip: { kind: 'countdown' } };
    case 'asking':
      return { text: count, color: AMBER, icon: 'on', tip: { kind: 'asking' } };
    case 'restarting':
      return { text: count, color: AMBER, icon: 'on', tip: { kind: 'restarting' } };
    case 'gave-up': {
      const restarts = record.status.kind === 'gave-up' ? record.status.restarts : view.used;
      return { text: '!', color: RED, icon: 'gave-up', tip: { kind: 'gave-up', restarts } };
    }
    case 'ui-problem': {
      const tip: BadgeTip = {
        kind: 'ui-problem',
        failed: view.failed ?? UNKNOWN_STEP,
        action: lastAction(record.history),
      };
      return { text: 'UI', color: ORANGE, icon: 'ui-problem', tip };
    }
  }
}
