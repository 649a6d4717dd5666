import { type ComponentChild, render } from 'preact';
import { fallBackToEnglish } from '../lib/english-fallback';
import { type MessageKey, messagesLocale, t } from '../lib/i18n';

/**
 * Starts an extension page: English where the browser's translations answer nothing (set before anything is
 * translated), the page's language (so that Japanese and Chinese text get their own glyphs) and title, and `page`
 * rendered into the `<div id="app">` of its index.html.
 */
export function startPage(title: MessageKey, page: ComponentChild): void {
  fallBackToEnglish();
  document.documentElement.lang = messagesLocale();
  document.title = t(title);
  const root = document.getElementById('app');
  if (!root) throw new Error('The page has no #app element to render into');
  render(page, root);
}
