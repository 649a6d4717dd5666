import { fakeBrowser } from '@webext-core/fake-browser';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { pageHello } from '../../test/support/background';
import { FRAMES_CHANGED } from '../messaging/frame-channel';
import { createNotebookWriter } from '../state/store';
import { tellFramesAfter } from './frames';
import { createRouter } from './router';

vi.mock('webextension-polyfill', async () => ({ default: (await import('@webext-core/fake-browser')).fakeBrowser }));
vi.mock('../lib/i18n', () => ({ t: (key: string) => key }));

const KEY = 'drive:abc';
const COLAB = 'https://colab.research.google.com';
const NOTEBOOK_URL = `${COLAB}/drive/abc`;
const FRAME_URL = 'https://2kkcb3ngq8o-496ff2e9c6d22116-0-colab.googleusercontent.com/outputframe.html?vrz=colab_x';

const page = (tabId: number, url = NOTEBOOK_URL) => ({
  id: fakeBrowser.runtime.id,
  url,
  frameId: 0,
  tab: { id: tabId, url },
});
const frame = (tabId: number, tabUrl = NOTEBOOK_URL, url = FRAME_URL) => ({
  id: fakeBrowser.runtime.id,
  url,
  frameId: 5,
  tab: { id: tabId, url: tabUrl },
});
const hello = (key: string | null = KEY, first = true) => pageHello(key, 'train.ipynb', first);
const guardOn = (key = KEY, extra: object = {}) =>
  fakeBrowser.storage.local.set({ [`nb:${key}`]: { v: 1, key, enabled: true, ...extra } });

describe("the service worker's side of output frames", () => {
  let route: ReturnType<typeof createRouter>['route'];
  const sendMessage = vi.fn(async () => undefined);
  const told = () => sendMessage.mock.calls.map((call: unknown[]) => call[1]);

  beforeEach(() => {
    fakeBrowser.reset();
    sendMessage.mockClear();
    Object.assign(fakeBrowser.tabs, { sendMessage });
    route = createRouter(createNotebookWriter()).route;
  });

  async function tokenOfPage(tabId: number, arrived = true): Promise<string> {
    return ((await route(hello(KEY, arrived), page(tabId))) as { token: string }).token;
  }

  describe('what a frame may post (frame-hello)', () => {
    it('nothing (null) before its page said hello, nor while the guard is off for the notebook', async () => {
      await guardOn();
      expect(await route({ type: 'frame-hello' }, frame(7))).toBeNull();
      await fakeBrowser.storage.local.set({ [`nb:${KEY}`]: { v: 1, key: KEY, enabled: false } });
      await tokenOfPage(7);
      expect(await route({ type: 'frame-hello' }, frame(7))).toBeNull();
    });

    it("reports tagged with the token of its tab's page, and whether to send all text (marker patterns)", async () => {
      await guardOn();
      const token = await tokenOfPage(7);
      expect(await route({ type: 'frame-hello' }, frame(7))).toEqual({ token, markers: false, origin: COLAB });
      await fakeBrowser.storage.local.set({ settings: { v: 1, markerPatterns: ['^RESTART_ME$'] } });
      expect(await route({ type: 'frame-hello' }, frame(7))).toEqual({ token, markers: true, origin: COLAB });
    });

    it("names the origin of the frame's page, on whichever Colab domain it shows the notebook", async () => {
      await guardOn();
      const url = 'https://colab.google.com/drive/abc?authuser=1';
      const token = ((await route({ ...hello(KEY), url }, page(7, url))) as { token: string }).token;
      expect(await route({ type: 'frame-hello' }, frame(7, url))).toEqual({
        token,
        markers: false,
        origin: 'https://colab.google.com',
      });
    });

    it('nothing to frames in a tab that no longer shows the notebook, or whose address it may not read', async () => {
      await guardOn();
      await tokenOfPage(7);
      expect(
        await route({ type: 'frame-hello' }, frame(7, 'https://colab.research.google.com/drive/other')),
      ).toBeNull();
      expect(await route({ type: 'frame-hello' }, { ...frame(7), tab: { id: 7 } })).toBeNull();
      // Another tab, whose page never said hello (e.g. another site embedding an output frame).
      expect(await route({ type: 'frame-hello' }, frame(8))).toBeNull();
    });

    it('no answer at all to other pages of the frame hosts, nor to frame messages from the notebook page', async () => {
      await guardOn();
      await tokenOfPage(7);
      const sidebar = frame(7, NOTEBOOK_URL, 'https://n-abc-0lu-script.googleusercontent.com/userCodeAppPanel');
      expect(route({ type: 'frame-hello' }, sidebar)).toBeUndefined();
      expect(route({ type: 'frame-hello' }, page(7))).toBeUndefined();
      expect(route({ type: 'frame-hello', extra: 1 }, { ...frame(7), id: 'another-extension' })).toBeUndefined();
      expect(route({ type: 'frame-nonsense' }, frame(7))).toBeUndefined();
    });

    it('gives each new page document a new token and tells its frames to ask again; a rename keeps it', async () => {
      await guardOn();
      const first = await tokenOfPage(7);
      expect(told()).toEqual([{ type: FRAMES_CHANGED }]);
      expect(await tokenOfPage(7, false)).toBe(first);
      expect(told()).toHaveLength(1);
      const reloaded = await tokenOfPage(7);
      expect(reloaded).not.toBe(first);
      expect(await route({ type: 'frame-hello' }, frame(7))).toEqual({
        token: reloaded,
        markers: false,
        origin: COLAB,
      });
      expect(sendMessage).toHaveBeenLastCalledWith(7, { type: FRAMES_CHANGED });
    });
  });

  describe('telling frames what changed', () => {
    beforeEach(async () => {
      await fakeBrowser.windows.create({ focused: true });
    });

    async function colabTab(url = NOTEBOOK_URL, key = KEY): Promise<number> {
      const { id } = await fakeBrowser.tabs.create({ url });
      if (id === undefined) throw new Error('no tab id');
      await route(hello(key), page(id, url));
      return id;
    }

    it("the notebook's tabs when its guard is switched, and no one when something else changed", async () => {
      const [a, b] = [await colabTab(), await colabTab()];
      const other = await colabTab('https://colab.research.google.com/drive/other', 'drive:other');
      sendMessage.mockClear();
      const record = { v: 1, key: KEY, enabled: true };
      await tellFramesAfter({ [`nb:${KEY}`]: { oldValue: { ...record, enabled: false }, newValue: record } });
      expect(sendMessage.mock.calls.map((call: unknown[]) => call[0]).sort()).toEqual([a, b]);
      expect(sendMessage.mock.calls.map((call: unknown[]) => call[0])).not.toContain(other);
      sendMessage.mockClear();
      await tellFramesAfter({ [`nb:${KEY}`]: { oldValue: record, newValue: { ...record, loopCount: 1 } } });
      await tellFramesAfter({ settings: { oldValue: { v: 1 }, newValue: { v: 1, maxRestarts: 5 } } });
      expect(sendMessage).not.toHaveBeenCalled();
    });

    it('every Colab tab when marker patterns come or go; a removed record counts as switched off', async () => {
      const [a, b] = [await colabTab(), await colabTab('https://colab.research.google.com/drive/other', 'drive:x')];
      sendMessage.mockClear();
      await tellFramesAfter({ settings: { oldValue: undefined, newValue: { v: 1, markerPatterns: ['RESTART'] } } });
      expect(sendMessage.mock.calls.map((call: unknown[]) => call[0]).sort()).toEqual([a, b]);
      sendMessage.mockClear();
      await tellFramesAfter({ [`nb:${KEY}`]: { oldValue: { v: 1, key: KEY, enabled: true } } });
      expect(sendMessage).toHaveBeenCalledWith(a, { type: FRAMES_CHANGED });
    });

    it('a tab whose frames cannot be told (none listening yet) is no error', async () => {
      sendMessage.mockRejectedValueOnce(new Error('Could not establish connection. Receiving end does not exist.'));
      await expect(colabTab()).resolves.toBeTypeOf('number');
    });
  });

  describe("the notebook's status, for the page API (frame-status)", () => {
    it('is the status of the notebook the tab shows, read without creating a record', async () => {
      await tokenOfPage(7);
      expect(await route({ type: 'frame-status' }, frame(7))).toEqual({ v: 1, guarded: false });
      expect(await fakeBrowser.storage.local.get(null)).toEqual({});
      const lastRestartAt = Date.now() - 60_000;
      await guardOn(KEY, { loopCount: 2, totalRestarts: 5, lastRestartAt, overrides: { maxRestarts: 9 } });
      expect(await route({ type: 'frame-status' }, frame(7))).toMatchObject({
        guarded: true,
        restarts: 2,
        maxRestarts: 9,
        totalRestarts: 5,
        lastRestartAt: new Date(lastRestartAt).toISOString(),
      });
    });

    it('is not given when the user switched the API off, nor to frames outside a notebook tab', async () => {
      await guardOn();
      await tokenOfPage(7);
      expect(await route({ type: 'frame-status' }, frame(8))).toBeNull();
      expect(await route({ type: 'frame-status' }, frame(7, 'https://colab.research.google.com/'))).toBeNull();
      await fakeBrowser.storage.local.set({ settings: { v: 1, statusApi: false } });
      expect(await route({ type: 'frame-status' }, frame(7))).toBeNull();
    });
  });
});
