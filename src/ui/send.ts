import browser from 'webextension-polyfill';
import { t } from '../lib/i18n';
import type { Command, UiMessage } from '../messaging/protocol';
import type { Settings } from '../state/schema';

/** What the service worker answers to each message from the pages (see background/index.ts). */
interface UiReplies {
  'ui-command': { ok: true };
  'ui-settings': { ok: true; settings: Settings };
  'ui-import': { ok: true; notebooks: number };
  'ui-clear': { ok: true };
  'ui-clear-storage-errors': { ok: true };
}

export interface Failure {
  ok: false;
  message: string;
}

export type ReplyTo<M extends UiMessage> = UiReplies[M['type']] | Failure;

/**
 * Sends one message to the service worker, the only writer of storage. Never throws: a missing or malformed answer
 * (the worker failed to start, or threw) becomes a failure with a message the page can show.
 */
export async function sendUi<M extends UiMessage>(message: M): Promise<ReplyTo<M>> {
  let reply: unknown;
  try {
    reply = await browser.runtime.sendMessage(message);
  } catch (error) {
    return { ok: false, message: t('errorNoAnswer', errorText(error)) };
  }
  if (typeof reply !== 'object' || reply === null || typeof (reply as { ok?: unknown }).ok !== 'boolean') {
    return { ok: false, message: t('errorNoAnswer', t('errorBadAnswer')) };
  }
  const answer = reply as { ok: boolean; message?: unknown };
  if (!answer.ok)
    return { ok: false, message: typeof answer.message === 'string' ? answer.message : t('errorUnknown') };
  return reply as UiReplies[M['type']];
}

export function sendCommand(
  key: string,
  command: Command,
): Promise<ReplyTo<{ type: 'ui-command'; key: string; command: Command }>> {
  return sendUi({ type: 'ui-command', key, command });
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
