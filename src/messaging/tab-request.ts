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

/**
 * Whether `sender` is one of the extension's own pages (the popup, the options page). By its URL, not by having no
 * tab: Firefox gives any page shown in a tab a `sender.tab` (the popup opened as a page with `?tab=`; Firefox for
 * Android has shown popups as tabs).
 */
export function fromExtensionPage(sender: { id?: string; url?: string }, extensionId: string, origin: string): boolean {
  return sender.id === extensionId && sender.url?.startsWith(origin) === true;
}
