import { describe, expect, it, vi } from 'vitest';
import { defaultSettings, type HistoryEntry } from '../state/schema';
import { happenedText, nextText } from './status-lines';
import type { StatusView } from './status-view';

vi.mock('../lib/i18n', async () => {
  const { translate, translateCounted } = await import('../../test/support/messages');
  return { t: translate, tn: translateCounted };
});

const NOW = new Date(2026, 2, 14, 7, 30).getTime();
const at = (h: number, m: number, day = 14) => new Date(2026, 2, day, h, m).getTime();
const clock = (time: number) => new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' }).format(time);
const begin: HistoryEntry = { at: at(22, 4, 13), type: 'run-started' };
const restarted = (time: number): HistoryEntry => ({ at: time, type: 'restarted', params: { n: 1, max: 3 } });

describe('what happened, in one line', () => {
  it('a run finished, counting the restarts of the night before it', () => {
    expect(happenedText([begin, { at: at(6, 12), type: 'run-finished' }], NOW)).toBe(
      `Run finished at ${clock(at(6, 12))}`,
    );
    const night = [begin, restarted(at(1, 0)), { at: at(6, 12), type: 'run-finished' as const }];
    expect(happenedText(night, NOW)).toBe(`Run finished at ${clock(at(6, 12))} after 1 restart`);
  });

  it("a run an error stopped: its line, not out of memory, not restarted; the person's Stop as theirs", () => {
    const stopped: HistoryEntry = { at: at(3, 10), type: 'run-stopped', params: { cell: 4, saw: 'ValueError: x' } };
    expect(happenedText([begin, stopped], NOW)).toBe(
      `Run stopped at ${clock(at(3, 10))}: ValueError: x (not out of memory, not restarted)`,
    );
    expect(happenedText([begin, { at: at(3, 10), type: 'run-interrupted' }], NOW)).toBe(
      `Run stopped by you at ${clock(at(3, 10))}`,
    );
  });

  it('a give-up with its restarts; nothing while the run goes on', () => {
    const gaveUp: HistoryEntry = { at: at(4, 0), type: 'gave-up', params: { why: 'failed-again', n: 3, max: 3 } };
    expect(happenedText([begin, gaveUp], NOW)).toBe(`Gave up at ${clock(at(4, 0))} after 3 restarts`);
    expect(happenedText([begin, restarted(at(1, 0))], NOW)).toBeNull();
  });

  it('a guard that ended by itself says when, and why', () => {
    const ended: HistoryEntry = { at: at(7, 0), type: 'guard-ended', params: { minutes: 720 } };
    expect(happenedText([begin, ended], NOW)).toBe(`Guard ended at ${clock(at(7, 0))}: nothing ran for 12 hours`);
  });

  it('carries the day when it is not today', () => {
    const late = at(23, 40, 13);
    const text = happenedText([begin, { at: late, type: 'run-interrupted' }], NOW);
    const weekday = new Date(late).toLocaleDateString(undefined, { weekday: 'short' });
    expect(text).toBe(`Run stopped by you at ${weekday} ${clock(late)}`);
  });
});

describe('what happens next', () => {
  const view = (fields: Partial<StatusView>): StatusView => ({
    state: 'watching',
    used: 1,
    max: 3,
    totalRestarts: 1,
    markersToday: 0,
    markerLimit: 100,
    ...fields,
  });

  it('restarts left and the next countdown; none left; Watch again after a stop; nothing while off', () => {
    const settings = defaultSettings();
    expect(nextText(view({}), settings)).toBe('2 of 3 restarts left; the next one after a 10 s countdown');
    expect(nextText(view({ used: 2 }), settings)).toBe('1 of 3 restarts left; the next one after a 20 s countdown');
    expect(nextText(view({ used: 3 }), settings)).toBe('No restarts left: the next failure gives up');
    expect(nextText(view({ state: 'gave-up', used: 3 }), settings)).toBe(
      'Nothing restarts until you choose Watch again',
    );
    expect(nextText(view({ state: 'off' }), settings)).toBeNull();
  });
});
