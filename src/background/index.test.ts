import { fakeBrowser } from '@webext-core/fake-browser';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { chromeChanges, pageHello } from '../../test/support/background';
import { getMessage } from '../../test/support/messages';
import { pageEvent } from '../../test/support/page-events';
import { loadNotebook } from '../state/store';

vi.mock('webextension-polyfill', async () => ({ default: (await import('@webext-core/fake-browser')).fakeBrowser }));

const installing = vi.hoisted(() => ({ migrate: vi.fn(async () => 0), inject: vi.fn(async () => 0) }));
vi.mock('./reinject', () => ({ injectIntoOpenTabs: installing.inject }));
vi.mock('../state/store', async (importOriginal) => {
  const store = await importOriginal<typeof import('../state/store')>();
  return {
    ...store,
    createNotebookWriter: () => ({ ...store.createNotebookWriter(), migrateStoredData: installing.migrate }),
  };
});

const KEY = 'drive:abc';
const URL = 'https://colab.research.google.com/drive/abc';
const verdict = {
  category: 'gpu-oom',
  rule: 'torch-cuda-oom',
  description: 'CUDA out of memory',
  line: 'OutOfMemoryError',
};

/** Sends a message from the top frame of `tabId` to the service worker's listener. */
async function fromPage(tabId: number, message: object): Promise<unknown> {
  const sender = { id: fakeBrowser.runtime.id, url: URL, frameId: 0, tab: await fakeBrowser.tabs.get(tabId) };
  const [reply] = await fakeBrowser.runtime.onMessage.trigger(message, sender, () => {});
  return reply;
}

/** A tab on the notebook, registered by its hello. */
async function openTab(): Promise<number> {
  const { id } = await fakeBrowser.tabs.create({ url: URL });
  if (id === undefined) throw new Error('no tab id');
  await fromPage(id, pageHello(KEY));
  return id;
}

/** A tab on the notebook that owns a countdown. */
async function ownerTab(): Promise<number> {
  const id = await openTab();
  await fromPage(
    id,
    pageEvent(KEY, { type: 'failure', detectedAt: Date.now(), startedAt: Date.now(), source: 'error-output', verdict }),
  );
  expect((await loadNotebook(KEY)).status).toMatchObject({ kind: 'pending', ownerTab: id });
  return id;
}

describe('service worker', () => {
  // The listeners are registered once, at import, as in the browser.
  beforeAll(async () => {
    await fakeBrowser.windows.create({ focused: true });
    // The fake has no permission events; nothing here grants a permission.
    vi.spyOn(fakeBrowser.permissions.onAdded, 'addListener').mockImplementation(() => undefined);
    await import('./index');
  });

  beforeEach(async () => {
    // The badge says "on" from _locales (t).
    vi.spyOn(fakeBrowser.i18n, 'getMessage').mockImplementation(getMessage as typeof fakeBrowser.i18n.getMessage);
    await fakeBrowser.storage.session.clear();
    await fakeBrowser.storage.local.set({ [`nb:${KEY}`]: { v: 1, key: KEY, enabled: true } });
  });

  it('hands a countdown over when its tab closes, to a tab that still shows the notebook', async () => {
    const [elsewhere, heir, owner] = [await openTab(), await openTab(), await ownerTab()];
    await chromeChanges(elsewhere, { url: 'https://example.com/' });
    await fakeBrowser.tabs.onRemoved.trigger(owner, { windowId: 1, isWindowClosing: false });
    expect((await loadNotebook(KEY)).status).toMatchObject({ kind: 'pending', ownerTab: heir });
  });

  it('hands a countdown over when its tab navigates to another site', async () => {
    const [heir, owner] = [await openTab(), await ownerTab()];
    await chromeChanges(owner, { url: 'https://example.com/', status: 'loading' });
    expect((await loadNotebook(KEY)).status).toMatchObject({ kind: 'pending', ownerTab: heir });
  });

  it('hands a countdown over when Chrome discards its tab', async () => {
    const [heir, owner] = [await openTab(), await ownerTab()];
    await chromeChanges(owner, { discarded: true });
    expect((await loadNotebook(KEY)).status).toMatchObject({ kind: 'pending', ownerTab: heir });
  });

  it('leaves the countdown with its tab when the tab reloads the notebook', async () => {
    const [, owner] = [await openTab(), await ownerTab()];
    await chromeChanges(owner, { status: 'loading' });
    expect((await loadNotebook(KEY)).status).toMatchObject({ kind: 'pending', ownerTab: owner });
  });

  it('a tab whose run goes on and that closes, is discarded or navigates away: nothing watches it, once', async () => {
    const runningTab = async () => {
      const id = await openTab();
      await fromPage(id, pageEvent(KEY, { type: 'activity', busy: true }));
      return id;
    };
    const gone = async () => (await loadNotebook(KEY)).history.filter((entry) => entry.type === 'tab-gone');
    await fakeBrowser.tabs.onRemoved.trigger(await runningTab(), { windowId: 1, isWindowClosing: false });
    const discarded = await runningTab();
    await chromeChanges(discarded, { discarded: true });
    const navigated = await runningTab();
    await chromeChanges(navigated, { url: 'https://example.com/', status: 'loading' });
    await chromeChanges(navigated, { status: 'complete' });
    expect((await gone()).map((entry) => entry.params?.why)).toEqual(['closed', 'discarded', 'navigated']);
  });

  it('nothing is lost while another tab still shows the notebook, or when the tab only reloads', async () => {
    const [, running] = [await openTab(), await openTab()];
    await fromPage(running, pageEvent(KEY, { type: 'activity', busy: true }));
    await chromeChanges(running, { status: 'loading' });
    await fakeBrowser.tabs.onRemoved.trigger(running, { windowId: 1, isWindowClosing: false });
    expect((await loadNotebook(KEY)).history.map((entry) => entry.type)).not.toContain('tab-gone');
  });

  it("removes a scratch notebook's record when its tab closes, or leaves it for another site", async () => {
    const scratchUrl = 'https://colab.google.com/notebooks/empty.ipynb';
    const scratch = async (pageId: string) => {
      const { id } = await fakeBrowser.tabs.create({ url: scratchUrl });
      if (id === undefined) throw new Error('no tab id');
      const sender = { id: fakeBrowser.runtime.id, url: scratchUrl, frameId: 0, tab: await fakeBrowser.tabs.get(id) };
      const hello = pageHello(`scratch:${pageId}`, '', true, 'https://colab.google.com');
      const [reply] = await fakeBrowser.runtime.onMessage.trigger(hello, sender, () => {});
      const { key } = reply as unknown as { key: string };
      await fakeBrowser.storage.local.set({ [`nb:${key}`]: { v: 1, key, enabled: true } });
      return { id, key };
    };
    const [closed, left] = [await scratch('a1'), await scratch('b2')];
    await fakeBrowser.tabs.onRemoved.trigger(closed.id, { windowId: 1, isWindowClosing: false });
    await chromeChanges(left.id, { url: 'https://example.com/', status: 'loading' });
    const names = Object.keys(await fakeBrowser.storage.local.get(null));
    expect(names).not.toContain(`nb:${closed.key}`);
    expect(names).not.toContain(`nb:${left.key}`);
    expect(names).toContain(`nb:${KEY}`);
  });

  it('injects into the open Colab tabs after an update even when migrating the stored data fails', async () => {
    installing.migrate.mockRejectedValueOnce(new Error('corrupt record'));
    await expect(
      fakeBrowser.runtime.onInstalled.trigger({ reason: 'update', previousVersion: '0.0.9' }),
    ).rejects.toThrow('corrupt record');
    expect(installing.inject).toHaveBeenCalledTimes(1);
  });

  it('opens the welcome page on install, and never on an update', async () => {
    const welcome = fakeBrowser.runtime.getURL('src/welcome/index.html');
    const welcomeTabs = async () => (await fakeBrowser.tabs.query({})).filter((tab) => tab.url === welcome);
    await fakeBrowser.runtime.onInstalled.trigger({ reason: 'update', previousVersion: '0.0.9' });
    await fakeBrowser.runtime.onInstalled.trigger({ reason: 'chrome_update' });
    await fakeBrowser.runtime.onInstalled.trigger({ reason: 'install' });
    await vi.waitFor(async () => expect((await welcomeTabs()).length).toBeGreaterThan(0));
    // Any tab an update had opened was created before the install's: one tab is the install's alone.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await welcomeTabs()).toHaveLength(1);
  });
});
