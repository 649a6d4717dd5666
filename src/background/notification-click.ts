import browser from 'webextension-polyfill';
import { t } from '../lib/i18n';
import { notebookAddress } from '../state/notebook-address';
import { tabShowsNotebook, tabsOfNotebook } from '../state/tab-registry';
import { notebookOfNotification } from './notifications';

/**
 * A click on a notification brings its notebook to the front: the tab that shows it, in its window. A closed tab's
 * notebook is opened again where its address can be told from its key; otherwise a notification says the tab is gone.
 */
export async function focusNotebookOf(notificationId: string): Promise<void> {
  const key = notebookOfNotification(notificationId);
  await browser.notifications.clear(notificationId);
  if (key === null) return;
  for (const tabId of await tabsOfNotebook(key)) {
    if (await tabShowsNotebook(tabId, key)) return bringToFront(tabId);
  }
  const address = notebookAddress(key);
  if (address) {
    await browser.tabs.create({ url: address, active: true });
    return;
  }
  await browser.notifications.create(`tab-gone:${Date.now()}`, {
    type: 'basic',
    iconUrl: browser.runtime.getURL('icons/icon-128.png'),
    title: t('notifyTabGoneTitle'),
    message: t('notifyTabGone'),
  });
}

async function bringToFront(tabId: number): Promise<void> {
  const tab = await browser.tabs.update(tabId, { active: true });
  if (tab?.windowId !== undefined) await browser.windows.update(tab.windowId, { focused: true });
}
