import browser from 'webextension-polyfill';
import { type DeliveryError, responseError } from '../state/alert-delivery';
import { checkAlertUrl } from '../state/alerts';

/**
 * One request to a URL the person chose (an alert receiver, a heartbeat), from the service worker: only with the
 * host permission they granted for it, without cookies, and given up after 15 s. Never throws: what happened is the
 * answer, in the words the pages show (ui/alert-text.ts).
 */

/** A receiver that has not answered in this long has failed this try. */
const SEND_TIMEOUT_MS = 15_000;

export type SendOutcome = { kind: 'sent'; status: number } | DeliveryError;

export async function sendTo(
  url: string,
  init: Pick<RequestInit, 'method' | 'headers' | 'body'>,
): Promise<SendOutcome> {
  const checked = checkAlertUrl(url, 'json');
  if (!checked.ok || !(await browser.permissions.contains({ origins: [checked.permission] }))) {
    return { kind: 'permission' };
  }
  try {
    const response = await fetch(url, {
      ...init,
      credentials: 'omit',
      cache: 'no-store',
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    return responseError(response.status) ?? { kind: 'sent', status: response.status };
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError') return { kind: 'timeout' };
    return { kind: 'network', message: (error instanceof Error ? error.message : String(error)).slice(0, 300) };
  }
}
