// @vitest-environment happy-dom
import { fakeBrowser } from '@webext-core/fake-browser';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { HelloReply, PageMessage } from '../messaging/protocol';
import { notebookKeyFromUrl } from '../state/notebook-key';
import type { PageNotebook } from './guard';

vi.mock('webextension-polyfill', async () => ({ default: (await import('@webext-core/fake-browser')).fakeBrowser }));

const page = vi.hoisted(() => ({ sendToWorker: vi.fn(), createPageGuard: vi.fn(), setNotebook: vi.fn() }));
vi.mock('./send-to-worker', () => ({ sendToWorker: page.sendToWorker }));
vi.mock('./guard', () => ({ createPageGuard: page.createPageGuard }));

const COLAB = 'https://colab.research.google.com';

/** Shows a notebook the way Colab does: a new URL without a reload, then a new title. */
function showNotebook(path: string, title: string): void {
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(COLAB + path);
  document.title = `${title} - Colab`;
}

/** Runs the content script afresh, as a page load does. */
async function loadScript(): Promise<void> {
  vi.resetModules();
  await import('./page-script');
}

interface PendingHello {
  message: PageHello;
  /** The worker's answer; its key is the address's unless given. */
  answer(reply: Omit<HelloReply, 'key'> & { key?: string | null }): void;
}
type PageHello = Extract<PageMessage, { type: 'page-hello' }>;

describe('Colab page script', () => {
  let hellos: PendingHello[];

  beforeEach(async () => {
    // A new head: the previous test's script still observes the old one.
    document.head.replaceWith(document.createElement('head'));
    fakeBrowser.reset();
    hellos = [];
    page.sendToWorker
      .mockReset()
      .mockImplementation(
        (message: PageHello) =>
          new Promise((resolve) =>
            hellos.push({ message, answer: (reply) => resolve({ key: notebookKeyFromUrl(message.url), ...reply }) }),
          ),
      );
    page.setNotebook.mockReset();
    page.createPageGuard.mockReset().mockReturnValue({ setNotebook: page.setNotebook, checkUi: vi.fn() });
    await fakeBrowser.storage.local.set({
      'nb:drive:notebookA': { v: 1, key: 'drive:notebookA', enabled: true },
      'nb:drive:notebookB': { v: 1, key: 'drive:notebookB', enabled: true },
    });
  });

  it('says hello for one notebook at a time, and drops the answer to a hello a newer one replaced', async () => {
    showNotebook('/drive/notebookA', 'a.ipynb');
    await loadScript();
    await vi.waitFor(() => expect(hellos).toHaveLength(1));
    showNotebook('/drive/notebookB', 'b.ipynb');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(hellos).toHaveLength(1);
    hellos[0]?.answer({ tabId: 3, token: 'token' });
    await vi.waitFor(() => expect(hellos).toHaveLength(2));
    expect(hellos.map((h) => h.message.url)).toEqual([`${COLAB}/drive/notebookA`, `${COLAB}/drive/notebookB`]);
    expect(hellos.map((h) => h.message.first)).toEqual([true, false]);
    expect(hellos.map((h) => h.message.title)).toEqual(['a.ipynb - Colab', 'b.ipynb - Colab']);
    hellos[1]?.answer({ tabId: 3, token: 'token' });
    await vi.waitFor(() => expect(page.setNotebook).toHaveBeenCalled());
    const shown = page.setNotebook.mock.calls.map(([notebook]) => (notebook as PageNotebook).key);
    expect(shown).toEqual(['drive:notebookB']);
  });

  it("says what it shows with the page document's id, and uses the worker's key (a scratch notebook's)", async () => {
    showNotebook('/notebooks/empty.ipynb#mcpProxyToken=t&mcpProxyPort=9', 'empty.ipynb');
    await loadScript();
    await vi.waitFor(() => expect(hellos).toHaveLength(1));
    const pageId = performance.timeOrigin.toString(36);
    expect(hellos[0]?.message).toMatchObject({
      page: pageId,
      url: `${COLAB}/notebooks/empty.ipynb#mcpProxyToken=t&mcpProxyPort=9`,
    });
    await fakeBrowser.storage.local.set({
      [`nb:scratch:3-${pageId}`]: { v: 1, key: `scratch:3-${pageId}`, enabled: true },
    });
    hellos[0]?.answer({ tabId: 3, token: 'token', key: `scratch:3-${pageId}` });
    await vi.waitFor(() =>
      expect(page.setNotebook).toHaveBeenCalledWith({ key: `scratch:3-${pageId}`, tabId: 3, token: 'token' }),
    );
  });

  it('tries loading the guard again after a failed load, on the next change of the record', async () => {
    page.createPageGuard.mockImplementationOnce(() => {
      throw new Error('chunk failed to load');
    });
    showNotebook('/drive/notebookA', 'a.ipynb');
    await loadScript();
    await vi.waitFor(() => expect(hellos).toHaveLength(1));
    hellos[0]?.answer({ tabId: 3, token: 'token' });
    await vi.waitFor(() => expect(page.createPageGuard).toHaveBeenCalledTimes(1));
    await fakeBrowser.storage.local.set({
      'nb:drive:notebookA': { v: 1, key: 'drive:notebookA', enabled: true, title: 'a' },
    });
    await vi.waitFor(() =>
      expect(page.setNotebook).toHaveBeenCalledWith({ key: 'drive:notebookA', tabId: 3, token: 'token' }),
    );
    expect(page.createPageGuard).toHaveBeenCalledTimes(2);
  });

  it('runs "Check Colab UI" for the extension\'s pages, in a tab too (Firefox), and for nothing else', async () => {
    const checkUi = vi.fn().mockResolvedValue({ ready: true, detail: 'found' });
    page.createPageGuard.mockReturnValue({ setNotebook: page.setNotebook, checkUi });
    showNotebook('/drive/notebookA', 'a.ipynb');
    await loadScript();
    const ask = (sender: object) => fakeBrowser.runtime.onMessage.trigger({ type: 'check-ui' }, sender, () => {});
    const id = fakeBrowser.runtime.id;
    const popupUrl = fakeBrowser.runtime.getURL('src/popup/index.html?tab=3');
    // Firefox gives any page shown in a tab a sender.tab: here the popup opened as a page.
    expect(await ask({ id, url: popupUrl, tab: { id: 9 }, frameId: 0 })).toEqual([{ ready: true, detail: 'found' }]);
    expect(await ask({ id, url: popupUrl })).toEqual([{ ready: true, detail: 'found' }]);
    expect(await ask({ id, url: `${COLAB}/drive/notebookA`, tab: { id: 3 }, frameId: 0 })).toEqual([undefined]);
    expect(await ask({ id: 'another-extension', url: popupUrl })).toEqual([undefined]);
    expect(checkUi).toHaveBeenCalledTimes(2);
  });

  it("answers the popup whether the page is watched, from the guard, for the extension's pages only", async () => {
    const pageState = vi.fn().mockResolvedValue({ key: 'drive:notebookA', watching: true });
    const checkUi = vi.fn();
    page.createPageGuard.mockReturnValue({ setNotebook: page.setNotebook, checkUi, pageState });
    showNotebook('/drive/notebookA', 'a.ipynb');
    await loadScript();
    const ask = (sender: object) => fakeBrowser.runtime.onMessage.trigger({ type: 'page-state' }, sender, () => {});
    const id = fakeBrowser.runtime.id;
    const popupUrl = fakeBrowser.runtime.getURL('src/popup/index.html');
    expect(await ask({ id, url: popupUrl })).toEqual([{ key: 'drive:notebookA', watching: true }]);
    expect(await ask({ id, url: `${COLAB}/drive/notebookA`, tab: { id: 3 }, frameId: 0 })).toEqual([undefined]);
    expect(pageState).toHaveBeenCalledOnce();
    expect(checkUi).not.toHaveBeenCalled();
  });

  describe('when the extension is updated under the page', () => {
    const started = () => window.dispatchEvent(new Event('colab-oom-guard:page-script-started'));
    const disableGuard = () =>
      fakeBrowser.storage.local.set({ 'nb:drive:notebookA': { v: 1, key: 'drive:notebookA', enabled: false } });
    const enableGuard = () =>
      fakeBrowser.storage.local.set({ 'nb:drive:notebookA': { v: 1, key: 'drive:notebookA', enabled: true } });

    it('the orphaned copy ends itself when the new copy starts: it loads and starts nothing more', async () => {
      await disableGuard();
      showNotebook('/drive/notebookA', 'a.ipynb');
      await loadScript();
      await vi.waitFor(() => expect(hellos).toHaveLength(1));
      hellos[0]?.answer({ tabId: 3, token: 'token' });
      await new Promise((resolve) => setTimeout(resolve, 0));
      const id = vi.spyOn(fakeBrowser.runtime, 'id', 'get').mockReturnValue(undefined as never);
      started();
      await vi.waitFor(() => expect(id).toHaveBeenCalled());
      id.mockRestore();
      await enableGuard();
      showNotebook('/drive/notebookB', 'b.ipynb');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(page.createPageGuard).not.toHaveBeenCalled();
      expect(hellos).toHaveLength(1);
    });

    it('a live copy ignores the message (a page script posting it cannot stop the guard)', async () => {
      await disableGuard();
      showNotebook('/drive/notebookA', 'a.ipynb');
      await loadScript();
      await vi.waitFor(() => expect(hellos).toHaveLength(1));
      hellos[0]?.answer({ tabId: 3, token: 'token' });
      started();
      await new Promise((resolve) => setTimeout(resolve, 0));
      await enableGuard();
      await vi.waitFor(() =>
        expect(page.setNotebook).toHaveBeenCalledWith({ key: 'drive:notebookA', tabId: 3, token: 'token' }),
      );
    });
  });
});
