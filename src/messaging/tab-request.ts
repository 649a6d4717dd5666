import type { TabProtocol } from './protocol';

/**
 * What the popup asks a Colab tab: a UI check ("Check Colab UI"), or whether the guard watches the page now. Checked
 * by hand rather than with a valibot schema: the page's always-loaded script must stay small, and each request has a
 * single literal field.
 */
export interface TabRequest {
  type: keyof TabProtocol;
}

export function isTabRequest(message: unknown): message is TabRequest {
  const type = typeof message === 'object' && message !== null && (message as { type?: unknown }).type;
  return type === 'check-ui' || type === 'page-state';
}

/**
 * Whether `sender` is one of the extension's own pages (the popup, the options page). By its URL, not by having no
 * tab: Firefox gives any page shown in a tab a `sender.tab` (the popup opened as a page with `?tab=`; Firefox for
 * Android has shown popups as tabs).
 */
export function fromExtensionPage(sender: { id?: string; url?: string }, extensionId: string, origin: string): boolean {
  return sender.id === extensionId && sender.url?.startsWith(origin) === true;
}
