import browser from 'webextension-polyfill';
import { t } from '../lib/i18n';
import { loadNotebook, loadSettings } from '../state/store';
import { notebookOfTab, tabsOfNotebook } from '../state/tab-registry';
import { type BadgeView, badgeFor } from '../ui/badge';
import { badgeTooltip } from '../ui/badge-tooltip';

/** The toolbar icon per tab: on/off, restarts in the last 12 hours, and a look of its own when the guard stopped. */

const ICONS: Record<BadgeView['icon'], Record<string, string>> = {
  on: { 16: 'icons/icon-16.png', 32: 'icons/icon-32.png' },
  off: { 16: 'icons/icon-off-16.png', 32: 'icons/icon-off-32.png' },
  'gave-up': { 16: 'icons/icon-gave-up-16.png', 32: 'icons/icon-gave-up-32.png' },
  'ui-problem': { 16: 'icons/icon-ui-problem-16.png', 32: 'icons/icon-ui-problem-32.png' },
};

export async function refreshTabBadge(tabId: number): Promise<void> {
  const key = await notebookOfTab(tabId);
  const [record, settings] = await Promise.all([key ? loadNotebook(key) : null, loadSettings()]);
  const now = Date.now();
  await applyBadge(tabId, badgeFor(record, settings, now, t('badgeOn')), badgeTooltip(record, settings, now));
}

export async function refreshNotebookBadges(key: string): Promise<void> {
  await Promise.all((await tabsOfNotebook(key)).map(refreshTabBadge));
}

async function applyBadge(tabId: number, view: BadgeView, title: string): Promise<void> {
  try {
    await Promise.all([
      browser.action.setBadgeText({ tabId, text: view.text }),
      browser.action.setBadgeBackgroundColor({ tabId, color: view.color }),
      browser.action.setTitle({ tabId, title }),
      browser.action.setIcon({ tabId, path: ICONS[view.icon] }),
    ]);
  } catch {
    // The tab closed meanwhile: nothing to show.
  }
}
