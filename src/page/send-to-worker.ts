import browser from 'webextension-polyfill';
import { isOrphaned } from '../lib/orphaned';
import type { FrameMessage, PageMessage } from '../messaging/protocol';

/** The extension was updated or removed under this page: this script is orphaned and must stop acting. */
export class OrphanedError extends Error {}

/** Sends one validated-at-the-receiver message to the service worker; the reply type is the router's. */
export async function sendToWorker<R>(message: PageMessage | FrameMessage): Promise<R> {
  try {
    return (await browser.runtime.sendMessage(message)) as R;
  } catch (error) {
    if (isOrphaned(browser.runtime, error)) throw new OrphanedError(String(error));
    throw error;
  }
}
