import browser from 'webextension-polyfill';
import { type MessageKey, t } from '../lib/i18n';
import { UNKNOWN_STEP } from '../state/failed-step';
import type { Effect, NotifyEffect } from '../state/policy';
import type { Settings, TabGoneWay } from '../state/schema';
import { withoutUnsafeText } from '../state/storage-keys';
import { notificationDetail, tabGoneWay } from '../ui/history-text';
import { clockTime } from '../ui/night-text';
import { stepSentence } from '../ui/steps';

/** Desktop notifications, only when the user turned them on and granted the optional permission. */
export async function notify(effects: Effect[], settings: Settings): Promise<void> {
  if (effects.length === 0 || !settings.notifications) return;
  if (!(await browser.permissions.contains({ permissions: ['notifications'] }))) return;
  for (const effect of effects) {
    const { title, message } = notificationText(effect);
    await browser.notifications.create(notificationId(effect, Date.now()), {
      type: 'basic',
      iconUrl: browser.runtime.getURL('icons/icon-128.png'),
      // The name and what a failed step saw come from the page: nothing in them may reorder what is shown.
      title: withoutUnsafeText(title),
      message: withoutUnsafeText(message),
    });
  }
}

/** Unique per notification, and naming its notebook last (a key may hold colons): a click finds its tab. */
export function notificationId(effect: NotifyEffect, now: number): string {
  return `${effect.kind}:${now}:${effect.key}`;
}

export function notebookOfNotification(id: string): string | null {
  return /^[a-z-]+:\d+:(.+)$/.exec(id)?.[1] ?? null;
}

const TAB_GONE_NOTICES: Record<TabGoneWay, MessageKey> = {
  closed: 'notifyTabClosed',
  discarded: 'notifyTabDiscarded',
  navigated: 'notifyTabNavigated',
};

/** "Restarted: train.ipynb"; a UI problem says the step in words first, its ids in the details. */
export function notificationText(effect: NotifyEffect): { title: string; message: string } {
  const detail = notificationDetail(effect);
  switch (effect.kind) {
    case 'restarted':
      return { title: t('notifyRestarted', effect.title), message: detail };
    case 'gave-up':
      return { title: t('notifyGaveUp', effect.title), message: t('notifyGaveUpBody', detail) };
    case 'left-to-person':
      return { title: t('notifyLeft', effect.title), message: detail };
    case 'run-finished':
      return { title: t('notifyRunFinished', effect.title), message: t('eventRunFinished') };
    case 'run-stopped':
      return { title: t('notifyRunStopped', effect.title), message: t('notifyRunStoppedBody', detail) };
    case 'guard-ended':
      return { title: t('notifyGuardEnded', effect.title), message: detail };
    case 'tab-gone': {
      const at = clockTime(effect.entry.at);
      const words = TAB_GONE_NOTICES[tabGoneWay(effect.entry.params ?? {})];
      return { title: t('notifyNothingWatches', effect.title), message: t(words, effect.title, at) };
    }
    case 'ui-problem': {
      const failed = effect.step?.failed ?? UNKNOWN_STEP;
      const words = stepSentence(failed, effect.step?.action);
      return { title: t('notifyUiProblem', effect.title), message: t('notifyUiProblemBody', words) };
    }
  }
}
