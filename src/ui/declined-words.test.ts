import { describe, expect, it, vi } from 'vitest';
import { speakIn } from '../../test/support/messages';
import { DECLINE_REASONS, DECLINED, type HistoryEntry } from '../state/schema';
import { historyDetail } from './history-text';

vi.mock('../lib/i18n', async () => (await import('../../test/support/messages')).inChosenLocale);

const LOCALES = ['de', 'es', 'fr', 'hi', 'id', 'ja', 'ko', 'pt_BR', 'zh_CN'];
const leftAlone = (why: string): HistoryEntry => ({ at: 0, type: 'ignored', params: { why } }) as HistoryEntry;

describe('why a failure seen was left alone, in the history', () => {
  it('says in English the phrase the history always showed (docs/troubleshooting.md quotes them)', () => {
    speakIn('en');
    for (const reason of DECLINE_REASONS) expect(historyDetail(leftAlone(reason))).toBe(DECLINED[reason]);
  });

  it.each(LOCALES)('%s says every reason in its own words', (locale) => {
    speakIn(locale);
    for (const reason of DECLINE_REASONS) {
      const said = historyDetail(leftAlone(reason));
      expect(said, reason).not.toMatch(/^history[A-Z]/);
      expect(said, reason).not.toBe(DECLINED[reason]);
    }
  });
});
