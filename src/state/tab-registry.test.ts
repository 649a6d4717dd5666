import { fakeBrowser } from '@webext-core/fake-browser';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  notebookOfTab,
  notebooksIn,
  notebookTabs,
  setTabNotebook,
  tabShowsNotebook,
  tabsOfNotebook,
  titleOfNotebook,
  watchNotebookOfTab,
} from './tab-registry';

vi.mock('webextension-polyfill', async () => ({ default: (await import('@webext-core/fake-browser')).fakeBrowser }));

const A = 'drive:notebookA';
const B = 'drive:notebookB';

describe('the tab registry: which notebook each tab shows', () => {
  beforeEach(() => fakeBrowser.reset());

  it('keeps what each tab shows and its name; a tab that shows none is forgotten, name and all', async () => {
    await setTabNotebook(3, A, 'train.ipynb');
    await setTabNotebook(4, A);
    await setTabNotebook(5, B, 'other.ipynb');
    expect(await notebookOfTab(3)).toBe(A);
    expect(await notebookOfTab(9)).toBeNull();
    expect((await tabsOfNotebook(A)).sort()).toEqual([3, 4]);
    expect((await notebookTabs()).sort()).toEqual([3, 4, 5]);
    expect(await titleOfNotebook(A)).toBe('train.ipynb');
    await setTabNotebook(3, null);
    expect(await notebookOfTab(3)).toBeNull();
    expect(await fakeBrowser.storage.session.get(null)).toEqual({
      'tab:4': A,
      'title:4': '',
      'tab:5': B,
      'title:5': 'other.ipynb',
    });
    // Tab 4 said no name: none is known now.
    expect(await titleOfNotebook(A)).toBe('');
  });

  it('reads only its own entries, and only notebook keys, from storage.session', async () => {
    await fakeBrowser.storage.session.set({ 'tab:1': A, 'tab:2': 7, 'token:3': A, 'title:1': 5 });
    expect(await notebookOfTab(2)).toBeNull();
    expect(await notebookTabs()).toEqual([1]);
    expect(notebooksIn({ 'tab:1': A, 'tab:2': 7, 'other:3': B, 'tab:4': B })).toEqual(new Set([A, B]));
    // A name that is not a string is no name.
    expect(await titleOfNotebook(A)).toBe('');
  });

  it('tells a watcher what the tab shows now and on each change, until it stops watching', async () => {
    await setTabNotebook(3, A);
    const seen: Array<string | null> = [];
    const stop = watchNotebookOfTab(3, (key) => seen.push(key));
    await vi.waitFor(() => expect(seen).toEqual([A]));
    await setTabNotebook(5, B);
    await setTabNotebook(3, B);
    await setTabNotebook(3, null);
    await vi.waitFor(() => expect(seen).toEqual([A, B, null]));
    stop();
    await setTabNotebook(3, A);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen).toEqual([A, B, null]);
  });

  it('a tab shows a notebook only while it exists, is loaded, and its address shows that notebook', async () => {
    const tab = await fakeBrowser.tabs.create({ url: 'https://colab.research.google.com/drive/notebookA' });
    expect(await tabShowsNotebook(tab.id!, A)).toBe(true);
    expect(await tabShowsNotebook(tab.id!, B)).toBe(false);
    await fakeBrowser.tabs.update(tab.id!, { discarded: true } as object);
    expect(await tabShowsNotebook(tab.id!, A)).toBe(false);
    expect(await tabShowsNotebook(999, A)).toBe(false);
    const blank = await fakeBrowser.tabs.create({});
    expect(await tabShowsNotebook(blank.id!, A)).toBe(false);
  });
});
