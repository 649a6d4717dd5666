import { expect, type Page, type Worker } from '@playwright/test';
import type { FailedStep } from '../../src/state/failed-step';

/**
 * Test set-up through the extension's own storage, from its service worker. Tests of the popup switch the guard on
 * through the UI; tests of the guard's behaviour only need it on.
 */

/**
 * Playwright's clicks and keys are a person at the keyboard of a focused, shown page, and a test's failure comes
 * seconds after its Run all click: the guard would ask first (settings `askAtKeyboard`). Tests of the guard acting
 * by itself run as a person away from the keyboard sees it, with the question off; e2e/ask.spec.ts switches it on.
 */
const AWAY: Record<string, unknown> = { askAtKeyboard: false };

/**
 * Clears the extension's storage for the next test. The worker may still be handling a tab an earlier test closed:
 * it reads the notebook's record, then writes it without that tab. This clear goes around the worker's own queue (the
 * product's Clear goes through it), so a write landing after it would bring the record back. It waits first, on the
 * records themselves, until none still names a closed tab as busy, restarting or asked (bounded: 5 s).
 */
export async function resetStorage(serviceWorker: Worker): Promise<void> {
  await serviceWorker.evaluate(async (away) => {
    type Named = {
      activity?: { busyTabs?: number[] };
      status?: { kind?: string; ownerTab?: number; askedAt?: number };
    };
    const namesClosedTab = async () => {
      const open = new Set((await chrome.tabs.query({})).map((tab) => tab.id));
      const closed = (tab: number | undefined) => tab !== undefined && !open.has(tab);
      const records = Object.entries(await chrome.storage.local.get(null))
        .filter(([name]) => name.startsWith('nb:'))
        .map(([, value]) => value as Named);
      return records.some(({ activity, status }) => {
        const owner = status?.kind === 'restarting' || status?.askedAt !== undefined ? status?.ownerTab : undefined;
        return (activity?.busyTabs ?? []).some(closed) || closed(owner);
      });
    };
    for (let tries = 0; tries < 100 && (await namesClosedTab()); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await chrome.storage.local.clear();
    await chrome.storage.local.set({ settings: { v: 1, ...away } });
  }, AWAY);
}

export async function setSettings(serviceWorker: Worker, settings: Record<string, unknown>): Promise<void> {
  await serviceWorker.evaluate((value) => chrome.storage.local.set({ settings: { v: 1, ...value } }), {
    ...AWAY,
    ...settings,
  });
}

export async function enableGuard(
  serviceWorker: Worker,
  key: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  await serviceWorker.evaluate(
    ({ key, extra }) => chrome.storage.local.set({ [`nb:${key}`]: { v: 1, key, enabled: true, ...extra } }),
    { key, extra },
  );
}

export interface StoredRecord {
  enabled: boolean;
  status: { kind: string; ownerTab?: number; failed?: FailedStep };
  loopCount: number;
  totalRestarts: number;
  blindSince?: number;
  history: Array<{ type: string; at: number; detail?: string; action?: string }>;
}

export async function readRecord(serviceWorker: Worker, key: string): Promise<StoredRecord | undefined> {
  const raw = await serviceWorker.evaluate(
    async (key) => (await chrome.storage.local.get(`nb:${key}`))[`nb:${key}`],
    key,
  );
  return raw as StoredRecord | undefined;
}

export async function tabIdOf(serviceWorker: Worker, page: Page): Promise<number> {
  // tabs.query reads `url` as a match pattern, which names no fragment.
  const url = page.url().replace(/#.*$/, '');
  const id = await serviceWorker.evaluate(async (url) => (await chrome.tabs.query({ url }))[0]?.id, url);
  if (id === undefined) throw new Error(`no tab for ${url}`);
  return id;
}

/** The guard's content script has said hello for this page (its notebook is registered with the service worker). */
export async function waitForGuard(serviceWorker: Worker, page: Page): Promise<number> {
  const tabId = await tabIdOf(serviceWorker, page);
  await waitForSessionKey(serviceWorker, `tab:${tabId}`, 'the content script never said hello');
  return tabId;
}

/**
 * Waits until the Colab page in `tabId` watches `key`: its guard has read the record and attached its observers (the
 * popup's page-state question). A notebook opened with the guard on is watched shortly after its hello is answered;
 * what a test does to the page before then would go unseen.
 */
export async function waitForWatching(serviceWorker: Worker, tabId: number, key: string): Promise<void> {
  const ask = (tabId: number) => chrome.tabs.sendMessage(tabId, { type: 'page-state' }).catch(() => null);
  await expect
    .poll(() => serviceWorker.evaluate(ask, tabId), { message: `the page never watched ${key}`, timeout: 15_000 })
    .toEqual({ key, watching: true });
}

/**
 * Waits, in the service worker, until its session storage has `key` (as it is set: storage.session.onChanged, no
 * polling); fails with `failure` after 15 s.
 */
export async function waitForSessionKey(serviceWorker: Worker, key: string, failure: string): Promise<void> {
  const found = await serviceWorker.evaluate(
    (key) =>
      new Promise<boolean>((resolve) => {
        const done = (found: boolean) => {
          clearTimeout(timer);
          chrome.storage.session.onChanged.removeListener(listener);
          resolve(found);
        };
        const listener = (changes: Record<string, chrome.storage.StorageChange>) => {
          if (changes[key]?.newValue) done(true);
        };
        const timer = setTimeout(() => done(false), 15_000);
        chrome.storage.session.onChanged.addListener(listener);
        void chrome.storage.session.get(key).then((items) => items[key] && done(true));
      }),
    key,
  );
  if (!found) throw new Error(failure);
}
