import browser from 'webextension-polyfill';
import { isOrphaned, OrphanedError } from '../lib/orphaned';
import type { PageMessage, ReplyTo } from '../messaging/protocol';

/**
 * Sends one message to the service worker, which validates it; its reply as the protocol map types it, or undefined
 * when the worker took no message (it answers none it refuses).
 */
export async function sendToWorker<M extends PageMessage>(message: M): Promise<ReplyTo<M> | undefined> {
  try {
    return (await browser.runtime.sendMessage(message)) as ReplyTo<M> | undefined;
  } catch (error) {
    if (isOrphaned(browser.runtime, error)) throw new OrphanedError(String(error));
    throw error;
  }
}
