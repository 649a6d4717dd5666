import browser from 'webextension-polyfill';
import { notebookKeyFromUrl } from '../state/notebook-key';

/**
 * Which notebook each Colab tab shows, and its name, as its content script last said. Kept in storage.session: the
 * service worker is stopped when idle, and tab ids mean nothing after a browser restart. The name waits here, in
 * memory only, until the user switches the guard on for the notebook and its record is created.
 */

const PREFIX = 'tab:';

interface Entry {
  key: string;
  title: string;
}

export async function setTabNotebook(tabId: number, key: string | null, title = ''): Promise<void> {
  if (key === null) await browser.storage.session.remove(PREFIX + tabId);
  else await browser.storage.session.set({ [PREFIX + tabId]: { key, title } satisfies Entry });
}

export async function notebookOfTab(tabId: number): Promise<string | null> {
  return entryOf((await browser.storage.session.get(PREFIX + tabId))[PREFIX + tabId])?.key ?? null;
}

export async function tabsOfNotebook(key: string): Promise<number[]> {
  return (await entriesOf(key)).map(([tabId]) => tabId);
}

/** The name a tab last showed for the notebook ('' if none did). */
export async function titleOfNotebook(key: string): Promise<string> {
  return (await entriesOf(key)).find(([, entry]) => entry.title !== '')?.[1].title ?? '';
}

async function entriesOf(key: string): Promise<Array<[number, Entry]>> {
  const items = await browser.storage.session.get(null);
  return Object.entries(items).flatMap(([name, value]): Array<[number, Entry]> => {
    const entry = entryOf(value);
    return name.startsWith(PREFIX) && entry?.key === key ? [[Number(name.slice(PREFIX.length)), entry]] : [];
  });
}

function entryOf(value: unknown): Entry | null {
  if (typeof value !== 'object' || value === null) return null;
  const { key, title } = value as Partial<Entry>;
  return typeof key === 'string' && typeof title === 'string' ? { key, title } : null;
}

/**
 * A tab that still exists and still shows this notebook, loaded (ids are reused after a browser restart; a discarded
 * tab runs no content script, so it cannot count down).
 */
export async function tabShowsNotebook(tabId: number, key: string): Promise<boolean> {
  try {
    const tab = await browser.tabs.get(tabId);
    return !tab.discarded && tab.url !== undefined && notebookKeyFromUrl(tab.url) === key;
  } catch {
    return false;
  }
}
