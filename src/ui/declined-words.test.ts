import { describe, expect, it, vi } from 'vitest';
import { localeWords } from '../../test/support/messages';
import type { MessageKey } from '../lib/i18n';
import { DECLINE_REASONS, DECLINED, type HistoryEntry } from '../state/schema';
import { historyDetail } from './history-text';
import type { NightWords } from './night-text';

/** The words of the language a test chose; a key missing from it is said as the bare key. */
const words = vi.hoisted(() => ({ current: null as NightWords | null }));
vi.mock('../lib/i18n', () => ({
  t: (key: MessageKey, ...subs: (string | number)[]) => words.current?.t(key, ...subs) ?? key,
  tn: (key: MessageKey, _count: number, ...subs: (string | number)[]) => words.current?.t(key, ...subs) ?? key,
}));

const LOCALES = ['de', 'es', 'fr', 'hi', 'id', 'ja', 'ko', 'pt_BR', 'zh_CN'];
const leftAlone = (why: string): HistoryEntry => ({ at: 0, type: 'ignored', params: { why } }) as HistoryEntry;

describe('why a failure seen was left alone, in the history', () => {
  it('says in English the phrase the history always showed (docs/troubleshooting.md quotes them)', () => {
    words.current = localeWords('en');
    for (const reason of DECLINE_REASONS) expect(historyDetail(leftAlone(reason))).toBe(DECLINED[reason]);
  });

  it.each(LOCALES)('%s says every reason in its own words', (locale) => {
    words.current = localeWords(locale);
    for (const reason of DECLINE_REASONS) {
      const said = historyDetail(leftAlone(reason));
      expect(said, reason).not.toMatch(/^history[A-Z]/);
      expect(said, reason).not.toBe(DECLINED[reason]);
    }
  });
});
