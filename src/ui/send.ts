import browser from 'webextension-polyfill';
import { t } from '../lib/i18n';
import type { Command, ReplyTo, UiMessage } from '../messaging/protocol';
import type { Why } from '../state/why';

export interface Failure {
  ok: false;
  why: Why;
}

/**
 * Sends one message to the service worker, the only writer of storage. Never throws: a missing or malformed answer
 * (the worker failed to start, or threw) becomes a failure with a why the page can say (ui/why-text.ts).
 */
export async function sendUi<M extends UiMessage>(message: M): Promise<ReplyTo<M> | Failure> {
  let reply: unknown;
  try {
    reply = await browser.runtime.sendMessage(message);
  } catch (error) {
    return { ok: false, why: { kind: 'worker-silent', detail: errorText(error) } };
  }
  if (typeof reply !== 'object' || reply === null || typeof (reply as { ok?: unknown }).ok !== 'boolean') {
    return { ok: false, why: { kind: 'worker-silent', detail: t('errorBadAnswer') } };
  }
  const answer = reply as { ok: boolean; why?: { kind?: unknown } };
  if (!answer.ok)
    return { ok: false, why: typeof answer.why?.kind === 'string' ? (answer.why as Why) : { kind: 'unknown' } };
  return reply as ReplyTo<M>;
}

export function sendCommand(key: string, command: Command): Promise<ReplyTo<{ type: 'ui-command' }> | Failure> {
  return sendUi({ type: 'ui-command', key, command });
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
