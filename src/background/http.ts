import { type DeliveryError, type ReceiverResponse, responseError } from '../state/alert-delivery';

/**
 * One request to a URL the person chose (an alert receiver, a heartbeat), from the service worker: without cookies or
 * cache, never following a redirect (the next host may be anyone's), given up after 15 s. The caller checked that it
 * may reach the site (`mayReach` in host-permissions.ts). Never throws: what happened is the answer, in the words the
 * pages show (ui/alert-text.ts); a 429 or 503 carries the wait the receiver asked for.
 */

/** A receiver that has not answered in this long has failed this try. */
const SEND_TIMEOUT_MS = 15_000;

export type SendOutcome = { kind: 'sent'; status: number } | DeliveryError;

export async function sendTo(
  url: string,
  init: Pick<RequestInit, 'method' | 'headers' | 'body'>,
): Promise<SendOutcome> {
  try {
    const response = await fetch(url, {
      ...init,
      credentials: 'omit',
      cache: 'no-store',
      redirect: 'manual',
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    return responseError(await readResponse(response), Date.now()) ?? { kind: 'sent', status: response.status };
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError') return { kind: 'timeout' };
    return { kind: 'network', message: (error instanceof Error ? error.message : String(error)).slice(0, 300) };
  }
}

/** What the worker reads of an answer: the body only of an error, and only its start (Telegram explains there). */
async function readResponse(response: Response): Promise<ReceiverResponse> {
  const ok = response.status >= 200 && response.status < 300;
  const body = ok || response.type === 'opaqueredirect' ? null : await response.text().catch(() => null);
  return {
    status: response.status,
    type: response.type,
    redirected: response.redirected,
    retryAfter: response.headers.get('Retry-After'),
    body: body?.slice(0, 2000) ?? null,
  };
}
