import { fakeBrowser } from '@webext-core/fake-browser';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { getMessage } from '../../test/support/messages';
import { setTabNotebook } from '../state/tab-registry';
import { focusNotebookOf } from './notification-click';

vi.mock('webextension-polyfill', async () => ({ default: (await import('@webext-core/fake-browser')).fakeBrowser }));

beforeEach(() => {
  fakeBrowser.reset();
  vi.spyOn(fakeBrowser.i18n, 'getMessage').mockImplementation(getMessage as typeof fakeBrowser.i18n.getMessage);
});

describe('a click on a notification', () => {
  it('brings the tab that shows its notebook to the front, in a focused window', async () => {
    const win = (await fakeBrowser.windows.create({ focused: false }))!;
    const other = await fakeBrowser.tabs.create({ url: 'https://example.org/', windowId: win.id, active: true });
    const tab = await fakeBrowser.tabs.create({
      url: 'https://colab.research.google.com/drive/abc',
      windowId: win.id,
      active: false,
    });
    await setTabNotebook(tab.id ?? -1, 'drive:abc', 'train.ipynb');
    const focus = vi.spyOn(fakeBrowser.windows, 'update');
    await focusNotebookOf('gave-up:1700000000000:drive:abc');
    expect((await fakeBrowser.tabs.get(tab.id ?? -1)).active).toBe(true);
    expect((await fakeBrowser.tabs.get(other.id ?? -1)).active).toBe(false);
    expect(focus).toHaveBeenCalledWith(win.id, { focused: true });
  });

  it('opens the notebook again when its tab is gone', async () => {
    const create = vi.spyOn(fakeBrowser.tabs, 'create');
    await focusNotebookOf('run-stopped:1700000000000:drive:abc');
    expect(create).toHaveBeenCalledWith({ url: 'https://colab.research.google.com/drive/abc', active: true });
  });

  it('says so when a closed notebook cannot be opened from its key', async () => {
    const create = vi.spyOn(fakeBrowser.notifications, 'create');
    await focusNotebookOf('gave-up:1700000000000:scratch:5-1.2');
    expect(create).toHaveBeenCalledWith(
      expect.stringMatching(/^tab-gone:/),
      expect.objectContaining({
        title: 'The notebook’s tab is closed',
      }),
    );
  });
});
