import { fakeBrowser } from '@webext-core/fake-browser';

/**
 * What Chrome changes in a tab by itself (load state, discarding): the fake's update() stores it and fires onUpdated.
 */
export async function chromeChanges(
  tabId: number,
  change: { url?: string; status?: string; discarded?: boolean },
): Promise<void> {
  await fakeBrowser.tabs.update(tabId, change);
}
