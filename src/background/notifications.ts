import browser from 'webextension-polyfill';
import { t } from '../lib/i18n';
import type { Effect, NotifyEffect } from '../state/policy';
import type { Settings } from '../state/schema';
import { withoutUnsafeText } from '../state/storage-keys';

const TITLES = {
  restarted: 'notify_restarted',
  'gave-up': 'notify_gave_up',
  'ui-problem': 'notify_ui_problem',
} as const satisfies Record<NotifyEffect['kind'], string>;

/** Desktop notifications, only when the user turned them on and granted the optional permission. */
export async function notify(effects: Effect[], settings: Settings): Promise<void> {
  if (effects.length === 0 || !settings.notifications) return;
  if (!(await browser.permissions.contains({ permissions: ['notifications'] }))) return;
  for (const effect of effects) {
    await browser.notifications.create(`${effect.kind}:${effect.key}:${Date.now()}`, {
      type: 'basic',
      iconUrl: browser.runtime.getURL('icons/icon-128.png'),
      // The name and what a failed step saw come from the page: nothing in them may reorder what is shown.
      title: withoutUnsafeText(t(TITLES[effect.kind], effect.title)),
      message: withoutUnsafeText(effect.detail),
    });
  }
}
