import browser from 'webextension-polyfill';

/**
 * One secret per top-frame document of a Colab tab, shared by its content script and the output-frame scripts under
 * it. Output frames tag their postMessage reports with it. The reports reach Colab's own scripts in the top frame
 * too, but scripts in the output frames (the notebook's outputs) never see it, so they cannot forge reports. A new
 * document (a reload, another notebook) gets a new one, so nothing learnt in an earlier page is any use in the next.
 * Kept in storage.session because the service worker may be stopped between the hellos.
 */

/** The token of the tab's current top document, or null when its page has not said hello. */
export async function tokenOfTab(tabId: number): Promise<string | null> {
  const key = storageKey(tabId);
  const stored = (await browser.storage.session.get(key))[key];
  return typeof stored === 'string' ? stored : null;
}

/** A new token for the tab's new top document (the old one is void from now on). */
export async function newTokenForTab(tabId: number): Promise<string> {
  const token = `${crypto.randomUUID()}${crypto.randomUUID()}`.replaceAll('-', '');
  await browser.storage.session.set({ [storageKey(tabId)]: token });
  return token;
}

export async function forgetTab(tabId: number): Promise<void> {
  await browser.storage.session.remove(storageKey(tabId));
}

function storageKey(tabId: number): string {
  return `token:${tabId}`;
}
