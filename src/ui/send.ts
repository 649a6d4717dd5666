import browser from 'webextension-polyfill';
import { t } from '../lib/i18n';
import type { Command, ReplyTo, UiMessage } from '../messaging/protocol';

export interface Failure {
  ok: false;
  message: string;
}

/**
 * Sends one message to the service worker, the only writer of storage. Never throws: a missing or malformed answer
 * (the worker failed to start, or threw) becomes a failure with a message the page can show.
 */
export async function sendUi<M extends UiMessage>(message: M): Promise<ReplyTo<M> | Failure> {
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
  return reply as ReplyTo<M>;
}

export function sendCommand(key: string, command: Command): Promise<ReplyTo<{ type: 'ui-command' }> | Failure> {
  return sendUi({ type: 'ui-command', key, command });
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
