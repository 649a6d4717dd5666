import english from '../../public/_locales/en/messages.json';
import { setFallbackMessages } from './i18n';

/** Extension pages and the worker: English rather than message keys if the browser's i18n fails. */
export function fallBackToEnglish(): void {
  setFallbackMessages(english);
}
