import browser from 'webextension-polyfill';
import { FRAMES_CHANGED } from '../messaging/frame-channel';
import type { FrameHelloReply } from '../messaging/protocol';
import type { NotebookStatus } from '../messaging/status-api';
import { notebookStatus } from '../state/notebook-status';
import { NOTEBOOK_PREFIX, parseSettings, SETTINGS_KEY } from '../state/schema';
import { urlShowsNotebook } from '../state/scratch';
import { loadNotebook, loadSettings } from '../state/store';
import { notebookOfTab, notebookTabs, tabsOfNotebook } from '../state/tab-registry';
import { tokenOfTab } from './frame-tokens';

/**
 * The service worker's side of Colab's output frames: what a frame may post, the notebook status it may read, and
 * telling a tab's frames when either changed. A frame is answered only for the notebook its tab shows.
 */

/** An output frame's content script, as the router saw it (its sender checked: senderKind 'output-frame'). */
export interface FrameSender {
  tabId: number;
  /** The address of the frame's tab (present for tabs on hosts the extension may access: Colab's). */
  tabUrl: string | undefined;
}

/** Its tab's page said hello for this notebook, and the tab still shows it (not another site that embeds frames). */
async function notebookOfFrame({ tabId, tabUrl }: FrameSender): Promise<string | null> {
  const key = await notebookOfTab(tabId);
  return key !== null && tabUrl !== undefined && urlShowsNotebook(tabUrl, key) ? key : null;
}

/** A frame posts only where the guard is on, and only with the token of its tab's current top document. */
export async function frameHello(frame: FrameSender): Promise<FrameHelloReply> {
  const key = await notebookOfFrame(frame);
  if (key === null) return null;
  const [token, record, settings] = await Promise.all([tokenOfTab(frame.tabId), loadNotebook(key), loadSettings()]);
  if (token === null || !record.enabled || frame.tabUrl === undefined) return null;
  return { token, markers: settings.markerPatterns.length > 0, origin: new URL(frame.tabUrl).origin };
}

/** The status API's answer, or null (no answer) when the user switched the API off. */
export async function frameStatus(frame: FrameSender): Promise<NotebookStatus | null> {
  const key = await notebookOfFrame(frame);
  if (key === null) return null;
  const settings = await loadSettings();
  if (!settings.statusApi) return null;
  return notebookStatus(await loadNotebook(key), settings, Date.now());
}

/** The tab's output frames ask again what they may post. */
export async function tellFrames(tabId: number): Promise<void> {
  try {
    await browser.tabs.sendMessage(tabId, { type: FRAMES_CHANGED });
  } catch {
    // No frame listening (none loaded yet, or the tab is gone): each asks when it starts.
  }
}

/** The guard switched for a notebook, or marker patterns came or went: the frames of the tabs concerned ask again. */
export async function tellFramesAfter(changes: Record<string, browser.Storage.StorageChange>): Promise<void> {
  const tabs = new Set<number>();
  const settings = changes[SETTINGS_KEY];
  if (settings && hasMarkers(settings.oldValue) !== hasMarkers(settings.newValue)) {
    for (const tab of await notebookTabs()) tabs.add(tab);
  }
  for (const [name, change] of Object.entries(changes)) {
    if (!name.startsWith(NOTEBOOK_PREFIX) || isOn(change.oldValue) === isOn(change.newValue)) continue;
    for (const tab of await tabsOfNotebook(name.slice(NOTEBOOK_PREFIX.length))) tabs.add(tab);
  }
  await Promise.all([...tabs].map(tellFrames));
}

function hasMarkers(raw: unknown): boolean {
  return parseSettings(raw).value.markerPatterns.length > 0;
}

/** Only decides whom to tell: the frames read the validated record when they ask. */
function isOn(raw: unknown): boolean {
  return typeof raw === 'object' && raw !== null && (raw as { enabled?: unknown }).enabled === true;
}
