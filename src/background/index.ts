import browser from 'webextension-polyfill';
import { refusedPattern } from '../detector/patterns';
import { fallBackToEnglish } from '../lib/english-fallback';
import { COLAB_MATCHES } from '../site/origins';
import { NOTEBOOK_PREFIX, SETTINGS_KEY } from '../state/schema';
import { createNotebookWriter } from '../state/store';
import { notebookOfTab, setTabNotebook, tabShowsNotebook } from '../state/tab-registry';
import { checkingPatterns } from '../state/transfer';
import { deliverDue, isRetryAlarm } from './alerts';
import { refreshNotebookBadges, refreshTabBadge } from './badge';
import { forgetTab } from './frame-tokens';
import { tellFramesAfter } from './frames';
import { heartbeatAlarm, isHeartbeatAlarm, nightChanged, reviewNight } from './night-watch';
import { focusNotebookOf } from './notification-click';
import { injectIntoOpenTabs } from './reinject';
import { createRouter } from './router';
import { welcomeOnInstall } from './welcome';

fallBackToEnglish();

/**
 * The service worker: the only writer of notebook state. It holds nothing in memory that must survive: it may be
 * stopped whenever it is idle, and everything it needs is in storage.
 */
const writer = createNotebookWriter(checkingPatterns(refusedPattern));
const { route, handOver } = createRouter(writer);

browser.runtime.onMessage.addListener((message: unknown, sender: browser.Runtime.MessageSender) =>
  route(message, sender),
);

browser.runtime.onInstalled.addListener(async ({ reason }) => {
  void welcomeOnInstall(reason);
  // A record that cannot be migrated must not also leave the open notebooks without the guard.
  try {
    await writer.migrateStoredData();
  } finally {
    if (reason === 'install' || reason === 'update') await injectIntoOpenTabs();
  }
});

browser.tabs.onRemoved.addListener(async (tabId) => {
  const key = await notebookOfTab(tabId);
  await Promise.all([forgetTab(tabId), setTabNotebook(tabId, null)]);
  if (key) await handOver(key, tabId, 'closed');
});

/**
 * A tab that left its notebook for another site, or that the browser discarded, says nothing: without this its
 * countdown would wait with nobody counting. Loading starts before the new URL is committed, so the URL change and
 * the end of the load are checked too. The tab no longer shows the notebook: its page, when it loads, says what it
 * shows then.
 */
browser.tabs.onUpdated.addListener(async (tabId, change) => {
  if (change.status === undefined && change.url === undefined && !change.discarded) return;
  const key = await notebookOfTab(tabId);
  if (!key || (await tabShowsNotebook(tabId, key))) return;
  await setTabNotebook(tabId, null);
  await handOver(key, tabId, change.discarded ? 'discarded' : 'navigated');
});

browser.storage.onChanged.addListener(async (changes, area) => {
  if (area !== 'local') return;
  const names = Object.keys(changes);
  if (names.includes(SETTINGS_KEY)) {
    const tabs = await browser.tabs.query({ url: COLAB_MATCHES });
    await Promise.all(tabs.flatMap((tab) => (tab.id === undefined ? [] : [refreshTabBadge(tab.id)])));
    return;
  }
  const keys = names
    .filter((name) => name.startsWith(NOTEBOOK_PREFIX))
    .map((name) => name.slice(NOTEBOOK_PREFIX.length));
  await Promise.all(keys.map(refreshNotebookBadges));
});

// Output frames post only while the guard is on, and send all their text only with marker patterns: they ask again.
browser.storage.onChanged.addListener((changes, area) => {
  if (area === 'local') void tellFramesAfter(changes).catch(() => undefined);
});

// Alerts that failed wait in storage for their next try: a worker started again (or woken by the alarm) sends them.
browser.alarms.onAlarm.addListener((alarm) => {
  if (isRetryAlarm(alarm)) void deliverDue().catch(() => undefined);
  if (isHeartbeatAlarm(alarm)) void heartbeatAlarm().catch(() => undefined);
});
void deliverDue().catch(() => undefined);

// Kept awake, tabs kept, the heartbeat: derived from the records, the settings and the tabs, again at each change.
browser.storage.onChanged.addListener((changes, area) => {
  if (nightChanged(Object.keys(changes), area)) void reviewNight().catch(() => undefined);
});
void reviewNight().catch(() => undefined);

/**
 * Listened to at the top level: a click may be what starts the worker. Without the optional permission there is no
 * notifications API; once it is granted, the listener is added then.
 */
function listenToNotificationClicks(): void {
  if (!browser.notifications || browser.notifications.onClicked.hasListener(onNotificationClick)) return;
  browser.notifications.onClicked.addListener(onNotificationClick);
}
function onNotificationClick(id: string): void {
  void focusNotebookOf(id).catch(() => undefined);
}
listenToNotificationClicks();
// Granted from the popup's offer, whose page may close while the browser asks: the worker turns them on.
browser.permissions.onAdded.addListener(async (added) => {
  listenToNotificationClicks();
  if (added.permissions?.includes('notifications')) await writer.updateSettings({ notifications: true });
});
