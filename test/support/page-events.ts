import type { PageMessage } from '../../src/messaging/protocol';
import type { PageEvent } from '../../src/state/policy';

/** A message a page sent, as the tests read it: its event's fields beside the notebook's key, or the hello. */
export type Sent = (PageEvent & { key: string }) | Extract<PageMessage, { type: 'page-hello' }>;

export function sentAs(message: PageMessage): Sent {
  return message.type === 'page-event' ? { key: message.key, ...message.event } : message;
}

/** The message a page sends for its event about notebook `key`; untyped, for tests that also send what is refused. */
export function pageEvent(key: string, event: Record<string, unknown>) {
  return { type: 'page-event', key, event };
}
