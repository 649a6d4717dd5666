import type { Worker } from '@playwright/test';
import { distWithAlertPermissions } from './alert-extension';
import { type AlertReceiver, startAlertReceiver } from './alert-receiver';
import { test as base, extensionServiceWorker, launchWithExtension } from './extension';
import { resetStorage, setSettings } from './guard';
import { welcomeTabClosed } from './welcome-tab';

/**
 * The alert tests' fixtures: the built extension with the local receiver's host and notifications granted at install
 * (alert-extension.ts says why), a local receiver per test, stopped after it, and each test starting from empty
 * storage with the shortest countdown (1 s).
 */
export const test = base.extend<{ receiver: AlertReceiver; freshStorage: undefined }>({
  sharedContext: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const dist = distWithAlertPermissions();
      const { context, close } = await launchWithExtension({ extension: dist.dir });
      const worker = await extensionServiceWorker(context);
      if (!(await worker.evaluate(welcomeTabClosed))) throw new Error('no welcome page opened on install');
      await use(context);
      await close();
      dist.remove();
    },
    { scope: 'worker' },
  ],
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  receiver: async ({}, use) => {
    const receiver = await startAlertReceiver();
    await use(receiver);
    await receiver.stop();
  },
  freshStorage: [
    async ({ serviceWorker }, use) => {
      await resetStorage(serviceWorker);
      await setSettings(serviceWorker, { backoffBaseSec: 1 });
      await use(undefined);
    },
    { auto: true },
  ],
});

/** The alert settings as stored (version 2, docs/alerts.md), written as the options page would. */
export async function setAlerts(serviceWorker: Worker, alerts: Record<string, unknown>): Promise<void> {
  await serviceWorker.evaluate((alerts) => chrome.storage.local.set({ alerts: { v: 2, ...alerts } }), alerts);
}

export async function alertLog(serviceWorker: Worker): Promise<unknown> {
  return serviceWorker.evaluate(async () => (await chrome.storage.local.get('alertLog')).alertLog);
}
