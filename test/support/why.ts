import { fakeBrowser } from '@webext-core/fake-browser';
import { vi } from 'vitest';
import type { Why } from '../../src/state/why';
import { whyWords } from '../../src/ui/why-text';
import { getMessage } from './messages';

/** A why in English words, as a page says it, for a test whose file mocks 'webextension-polyfill' with the fake. */
export function englishWhy(why: Why): string {
  vi.spyOn(fakeBrowser.i18n, 'getMessage').mockImplementation(getMessage as typeof fakeBrowser.i18n.getMessage);
  return whyWords(why);
}
