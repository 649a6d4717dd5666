import browser from 'webextension-polyfill';
import { urlShowsNotebook } from './scratch';

/**
 * Which notebook each Colab tab shows, and its name, as its content script last said. Kept in storage.session: the
 * service worker is stopped when idle, and tab ids mean nothing after a browser restart. The name waits here, in
 * memory only, until the user switches the guard on for the notebook and its record is created.
 */

const PREFIX = 'tab:';
const TITLE_PREFIX = 'title:';

export async function setTabNotebook(tabId: number, key: string | null, title = ''): Promise<void> {
  if (key === null) await browser.storage.session.remove([PREFIX + tabId, TITLE_PREFIX + tabId]);
  else await browser.storage.session.set({ [PREFIX + tabId]: key, [TITLE_PREFIX + tabId]: title });
}

export async function notebookOfTab(tabId: number): Promise<string | null> {
  const value = (await browser.storage.session.get(PREFIX + tabId))[PREFIX + tabId];
  return typeof value === 'string' ? value : null;
}

/** Calls back with the notebook the tab's page says it shows, now and on each change; returns the unsubscribe. */
export function watchNotebookOfTab(tabId: number, callback: (key: string | null) => void): () => void {
  const name = PREFIX + tabId;
  const listener = (changes: Record<string, browser.Storage.StorageChange>) => {
    const change = changes[name];
    if (change) callback(typeof change.newValue === 'string' ? change.newValue : null);
  };
  browser.storage.session.onChanged.addListener(listener);
  void notebookOfTab(tabId).then(callback);
  return () => browser.storage.session.onChanged.removeListener(listener);
}

export async function tabsOfNotebook(key: string): Promise<number[]> {
  const items = await browser.storage.session.get(null);
  return Object.entries(items)
    .filter(([name, value]) => name.startsWith(PREFIX) && value === key)
    .map(([name]) => Number(name.slice(PREFIX.length)));
}

/** The notebooks the tabs' pages said they show, read from all of storage.session's `items`. */
export function notebooksIn(items: Record<string, unknown>): Set<string> {
  return new Set(
    Object.entries(items).flatMap(([name, value]) =>
      name.startsWith(PREFIX) && typeof value === 'string' ? [value] : [],
    ),
  );
}

/** Every tab whose page said it shows a notebook. */
export async function notebookTabs(): Promise<number[]> {
  const items = await browser.storage.session.get(null);
  return Object.entries(items)
    .filter(([name, value]) => name.startsWith(PREFIX) && typeof value === 'string')
    .map(([name]) => Number(name.slice(PREFIX.length)));
}

/** The name a tab last showed for the notebook ('' if none did). */
export async function titleOfNotebook(key: string): Promise<string> {
  const items = await browser.storage.session.get(null);
  for (const tabId of await tabsOfNotebook(key)) {
    const title = items[TITLE_PREFIX + tabId];
    if (typeof title === 'string' && title !== '') return title;
  }
  return '';
}

/**
 * A tab that still exists and still shows this notebook, loaded (ids are reused after a browser restart; a discarded
 * tab runs no content script, so it cannot count down).
 */
export async function tabShowsNotebook(tabId: number, key: string): Promise<boolean> {
  try {
    const tab = await browser.tabs.get(tabId);
    return !tab.discarded && tab.url !== undefined && urlShowsNotebook(tab.url, key);
  } catch {
    return false;
  }
}

/** The tabs each notebook is shown in, read from all of storage.session's `items`. */
export function tabsByNotebookIn(items: Record<string, unknown>): Map<string, number[]> {
  const shown = new Map<string, number[]>();
  for (const [name, value] of Object.entries(items)) {
    if (!name.startsWith(PREFIX) || typeof value !== 'string') continue;
    shown.set(value, [...(shown.get(value) ?? []), Number(name.slice(PREFIX.length))]);
  }
  return shown;
}

/** Whether a change to storage.session touched which tab shows which notebook. */
export function registryChanged(names: readonly string[]): boolean {
  return names.some((name) => name.startsWith(PREFIX));
}
