/**
 * The one request the popup sends to a Colab tab. Checked by hand rather than with a valibot schema: the page's
 * always-loaded script must stay small, and the message has a single literal field.
 */
export interface TabRequest {
  type: 'check-ui';
}

export function isTabRequest(message: unknown): message is TabRequest {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'check-ui';
}
