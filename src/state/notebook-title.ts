import { cut, TEXT_LIMITS } from '../limits';
import { withoutUnsafeText } from './storage-keys';

// The service worker and the popup read a notebook's name from its page's title; the page sends the title as it is
// (cut to TEXT_LIMITS.title), so that the always-loaded page script carries none of this.

const TITLE_SUFFIX = /\s+[-–—|]\s+(?:google\s+)?colab(?:oratory)?\s*$/i;
const BARE_PRODUCT_NAME = /^(?:google\s+)?colab(?:oratory)?$/i;

/**
 * The notebook's name from `document.title`: "<name> - Colab" (older "<name> - Colaboratory"). Titles without the
 * suffix (seen with some locales) are taken whole. A page still loading shows only the product name: that gives ''.
 * Control and bidirectional characters are removed: the name is shown in the popup and in notifications.
 */
export function notebookTitleFromDocumentTitle(title: string): string {
  const name = withoutUnsafeText(title).trim().replace(TITLE_SUFFIX, '').trim();
  if (BARE_PRODUCT_NAME.test(name)) return '';
  return cut(name, TEXT_LIMITS.title);
}
