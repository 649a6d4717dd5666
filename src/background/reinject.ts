import browser from 'webextension-polyfill';

/**
 * Chrome does not inject content scripts into tabs that were open before the extension was installed or updated, and
 * an update orphans the scripts already there: an overnight update would leave the guard dead in the open notebook.
 * So after install and update, inject the manifest's content scripts into the open Colab tabs. Firefox injects them
 * by itself, into frames too, and unloads the old ones on an update (e2e-firefox/install.spec.ts), so it is skipped
 * there (the scripts would run twice).
 */
export async function injectIntoOpenTabs(): Promise<number> {
  if (browser.runtime.getURL('').startsWith('moz-extension:')) return 0;
  const scripts = browser.runtime.getManifest().content_scripts ?? [];
  const tabs = await browser.tabs.query({ url: 'https://colab.research.google.com/*' });
  let injected = 0;
  for (const tab of tabs) {
    if (tab.id === undefined || tab.discarded) continue;
    for (const script of scripts) {
      const allFrames = script.all_frames ?? false;
      try {
        await browser.scripting.executeScript({ target: { tabId: tab.id, allFrames }, files: script.js ?? [] });
        injected++;
      } catch {
        // A tab still loading, or a frame we may not access: its own load injects the scripts.
      }
    }
  }
  return injected;
}
