import browser from 'webextension-polyfill';
import { COLAB_MATCHES } from '../site/origins';
import { matchesPattern } from './match-pattern';

type ContentScript = NonNullable<browser.Manifest.WebExtensionManifest['content_scripts']>[number];

/**
 * Chrome does not inject content scripts into tabs that were open before the extension was installed or updated, and
 * an update orphans the scripts already there: an overnight update would leave the guard dead in the open notebook.
 * So after install and update, inject the manifest's content scripts into the open Colab tabs, each into the frames
 * its `matches` name (as Chrome would have): the output-frame script into Colab's output frames only. Firefox injects
 * them by itself, into frames too, and unloads the old ones on an update (e2e-firefox/install.spec.ts), so it is
 * skipped there (the scripts would run twice).
 */
export async function injectIntoOpenTabs(): Promise<number> {
  if (browser.runtime.getURL('').startsWith('moz-extension:')) return 0;
  const scripts = browser.runtime.getManifest().content_scripts ?? [];
  const tabs = await browser.tabs.query({ url: COLAB_MATCHES });
  let injected = 0;
  for (const tab of tabs) {
    if (tab.id === undefined || tab.discarded) continue;
    for (const script of scripts) {
      try {
        const target = await targetFor(script, tab.id, tab.url);
        if (!target) continue;
        await browser.scripting.executeScript({ target, files: script.js ?? [] });
        injected++;
      } catch {
        // A tab still loading, or a frame we may not access: its own load injects the scripts.
      }
    }
  }
  return injected;
}

/**
 * Where the script goes in the tab: the top frame if its matches name the tab's address; with `all_frames`, the
 * frames whose addresses they name, read by a one-line probe (listing a tab's frames otherwise needs the
 * webNavigation permission), or nowhere.
 */
async function targetFor(script: ContentScript, tabId: number, url: string | undefined) {
  if (!script.all_frames) return named(script, url) ? { tabId, allFrames: false } : null;
  const frames = await browser.scripting.executeScript({
    target: { tabId, allFrames: true },
    func: () => location.href,
  });
  const frameIds = frames.filter(({ result }) => named(script, result)).map(({ frameId }) => frameId);
  return frameIds.length > 0 ? { tabId, frameIds } : null;
}

function named(script: ContentScript, url: unknown): boolean {
  return typeof url === 'string' && script.matches.some((pattern) => matchesPattern(pattern, url));
}
