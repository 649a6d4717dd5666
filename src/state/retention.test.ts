import { describe, expect, it } from 'vitest';
import { retain } from './retention';
import { defaultNotebook, type NotebookRecord } from './schema';

const DAY = 24 * 60 * 60_000;
const NOW = Date.UTC(2026, 10, 28);
const KEY = 'drive:retained';
/** No tab shows a scratch notebook: these records are Drive notebooks, which no tab needs to show to be kept. */
const NO_TAB: ReadonlySet<string> = new Set();

/** Switched off at `at`, and nothing since. */
const off = (at: number): NotebookRecord => ({
  ...defaultNotebook(KEY),
  enabled: false,
  touchedAt: at,
  history: [{ at, type: 'disabled' }],
});

describe('retention: README keeps each event 90 days at most, and a notebook off and idle as long', () => {
  it('keeps history of 89 days and drops what is older than 90', () => {
    const record: NotebookRecord = {
      ...defaultNotebook(KEY),
      enabled: true,
      history: [
        { at: NOW - 91 * DAY, type: 'cancelled' },
        { at: NOW - 89 * DAY, type: 're-armed' },
      ],
    };
    expect(retain(record, NOW, NO_TAB)).toEqual({
      kind: 'rewrite',
      record: { ...record, history: [{ at: NOW - 89 * DAY, type: 're-armed' }] },
    });
    expect(retain({ ...record, history: record.history.slice(1) }, NOW, NO_TAB)).toEqual({ kind: 'keep' });
  });

  it('removes a notebook switched off once it has been idle 90 days, not a day before; one switched on stays', () => {
    expect(retain(off(NOW - 89 * DAY), NOW, NO_TAB)).toEqual({ kind: 'keep' });
    expect(retain(off(NOW - 90 * DAY + 1), NOW, NO_TAB)).toEqual({ kind: 'keep' });
    expect(retain(off(NOW - 90 * DAY), NOW, NO_TAB)).toEqual({ kind: 'remove' });
    const on = { ...off(NOW - 80 * DAY), enabled: true, history: [] };
    expect(retain(on, NOW, NO_TAB)).toEqual({ kind: 'keep' });
  });

  it('removes at once a record that holds nothing the user chose', () => {
    expect(retain({ ...defaultNotebook(KEY), enabled: false }, NOW, NO_TAB)).toEqual({ kind: 'remove' });
  });
});

describe('retention at its edges', () => {
  it('drops an event exactly 90 days old', () => {
    const record: NotebookRecord = {
      ...defaultNotebook(KEY),
      enabled: true,
      history: [
        { at: NOW - 90 * DAY, type: 'cancelled' },
        { at: NOW - DAY, type: 're-armed' },
      ],
    };
    expect(retain(record, NOW, NO_TAB)).toEqual({
      kind: 'rewrite',
      record: { ...record, history: [record.history[1]] },
    });
  });

  it('counts idle time from the newest thing the record dates, not the oldest', () => {
    const record: NotebookRecord = { ...off(NOW - 100 * DAY), lastFailureAt: NOW - 10 * DAY };
    expect(retain(record, NOW, NO_TAB)).toEqual({ kind: 'rewrite', record: { ...record, history: [] } });
  });

  it('keeps an idle-free record that is off but holds a give-up, restarts counted or a crash loop', () => {
    const blankOff: NotebookRecord = { ...defaultNotebook(KEY), enabled: false, touchedAt: NOW - DAY };
    expect(retain(blankOff, NOW, NO_TAB)).toEqual({ kind: 'remove' });
    for (const kept of [
      { ...blankOff, status: { kind: 'gave-up' as const, at: NOW - DAY, restarts: 3 } },
      { ...blankOff, totalRestarts: 3 },
      { ...blankOff, loopCount: 2 },
    ]) {
      expect(retain(kept, NOW, NO_TAB)).toEqual({ kind: 'keep' });
    }
  });
});
