import { describe, expect, it } from 'vitest';
import { localeWords, translate, translateCounted } from '../../test/support/messages';
import { clockTime, nightLine } from '../ui/night-text';
import { disconnectVerdict } from './disconnect';
import { countNight, lastRunEnd, nightMark, nightStart, restartsTonight } from './night';
import type { HistoryEntry, Verdict } from './schema';

/** README: the popup and the badge tell "the last 12 hours". */
const NIGHT_MS = 12 * 60 * 60_000;

const oom: Verdict = { category: 'gpu-oom', rule: 'torch-cuda-oom', description: 'CUDA OOM', line: 'OutOfMemoryError' };
const marker: Verdict = {
  category: 'custom',
  rule: 'restart-marker',
  description: 'Restart marker: NEXT',
  line: 'NEXT',
};
/** 07:30 local time: the night ran from 19:30 the evening before. */
const NOW = new Date(2026, 2, 14, 7, 30).getTime();
const HOUR = 3_600_000;
const at = (h: number, m: number, day = 14) => new Date(2026, 2, day, h, m).getTime();

const failure = (time: number): HistoryEntry => ({ at: time, type: 'restart-scheduled', verdict: oom });
const restart = (time: number): HistoryEntry => ({ at: time, type: 'restarted', action: 'restart-and-run-all' });
const line = (history: HistoryEntry[], locale = 'en-GB') =>
  nightLine(history, NOW, { t: translate, tn: translateCounted }, locale);

describe('the last 12 hours in words', () => {
  it('says "1 failure, 1 restart, last at 03:14", in the singular', () => {
    expect(line([failure(at(3, 13)), restart(at(3, 14))])).toBe('Last 12 hours: 1 failure, 1 restart, last at 03:14');
  });

  it("counts and joins the parts in the messages' own language", () => {
    const history = [failure(at(1, 0)), restart(at(1, 1)), failure(at(2, 0)), restart(at(2, 1)), failure(at(4, 0))];
    const said = (locale: string) => nightLine(history, NOW, localeWords(locale), 'en-GB');
    expect(said('fr')).toBe('Dernières 12 heures\u00a0: 3 échecs, 2 redémarrages, dernier à 04:00');
    expect(said('ja')).toBe('過去 12 時間: 失敗 3 件、再起動 2 回、最後は 04:00');
    expect(said('zh_CN')).toBe('过去 12 小时：3 次失败，2 次重启，最近一次在 04:00');
    expect(nightLine(history.slice(0, 2), NOW, localeWords('es'), 'en-GB')).toBe(
      'Últimas 12 horas: 1 fallo, 1 reinicio, el último a las 01:01',
    );
  });

  it('counts in the plural, and says "no" for none', () => {
    const history = [failure(at(1, 0)), restart(at(1, 1)), failure(at(2, 0)), restart(at(2, 1)), failure(at(4, 0))];
    expect(line(history)).toBe('Last 12 hours: 3 failures, 2 restarts, last at 04:00');
    expect(line([])).toBe('Last 12 hours: no failures, no restarts');
    expect(
      line([
        { at: at(6, 0), type: 'enabled' },
        { at: at(6, 5), type: 'cancelled' },
      ]),
    ).toBe('Since 06:00: no failures, no restarts');
  });

  it('ends with "gave up at" when the guard gave up, counting the failure it gave up on', () => {
    const history: HistoryEntry[] = [
      failure(at(2, 0)),
      restart(at(2, 1)),
      { at: at(4, 2), type: 'gave-up', verdict: oom, detail: 'Gave up' },
    ];
    expect(line(history)).toBe('Last 12 hours: 2 failures, 1 restart, gave up at 04:02');
  });

  it('names UI problems and restart markers only when there were some', () => {
    const history: HistoryEntry[] = [
      { at: at(1, 0), type: 'restart-scheduled', verdict: marker },
      restart(at(1, 1)),
      failure(at(5, 0)),
      { at: at(5, 1), type: 'restart-failed', detail: 'find-item: item-missing' },
    ];
    expect(line(history)).toBe('Last 12 hours: 1 failure, 1 restart, 1 restart marker, Colab UI problem at 05:01');
    const twice = [...history, failure(at(6, 0)), { at: at(6, 1), type: 'restart-failed' as const }];
    expect(line(twice)).toBe(
      'Last 12 hours: 2 failures, 1 restart, 1 restart marker, 2 Colab UI problems, Colab UI problem at 06:01',
    );
    expect(line([...history, failure(at(6, 0)), restart(at(6, 1))])).toBe(
      'Last 12 hours: 2 failures, 2 restarts, 1 restart marker, 1 Colab UI problem, last at 06:01',
    );
  });

  it('counts an interrupted restart as a restart, as the crash loop does', () => {
    const history: HistoryEntry[] = [failure(at(2, 0)), { at: at(2, 1), type: 'interrupted' }];
    expect(line(history)).toBe('Last 12 hours: 1 failure, 1 restart, last at 02:01');
    expect(restartsTonight(history, NOW)).toBe(1);
  });

  it('leaves out what is older than 12 hours, across midnight', () => {
    const history = [failure(NOW - NIGHT_MS - 1), restart(at(23, 40, 13)), failure(at(0, 10))];
    expect(countNight(history, NOW)).toMatchObject({ failures: 1, restarts: 1 });
    expect(line(history)).toBe('Last 12 hours: 1 failure, 1 restart, last at 00:10');
  });

  it("writes the time as the user's locale does", () => {
    expect(clockTime(at(3, 14), 'en-GB')).toBe('03:14');
    expect(clockTime(at(15, 14), 'en-GB')).toBe('15:14');
    expect(clockTime(at(15, 14), 'en-US')).toMatch(/^03:14\sPM$/);
    expect(line([restart(at(20, 4, 13))], 'en-US')).toMatch(
      /^Last 12 hours: no failures, 1 restart, last at 08:04\sPM$/,
    );
  });

  it('maps history entries to marks', () => {
    expect(nightMark(failure(0))).toBe('failure');
    expect(nightMark({ at: 0, type: 'restart-scheduled', verdict: marker })).toBe('marker');
    expect(nightMark({ at: 0, type: 'interrupted' })).toBe('restart');
    expect(nightMark({ at: 0, type: 'restart-failed' })).toBe('problem');
    // Colab unable to connect: an outage, not a UI problem.
    const outage = disconnectVerdict('unable-to-connect', 'Unable to connect to the runtime.');
    expect(nightMark({ at: 0, type: 'restart-failed', verdict: outage })).toBeNull();
    expect(nightMark({ at: 0, type: 'gave-up' })).toBe('gave-up');
    for (const type of ['cancelled', 'skipped', 'ignored', 'resumed', 'healthy-reset', 'left-to-person'] as const) {
      expect(nightMark({ at: 0, type })).toBeNull();
    }
  });
});

describe("the night starts at the evening's first Run all or the switch-on", () => {
  it('the first in 12 hours; a run under way 12 hours ago from its own start, up to 24 hours back', () => {
    const started = (time: number): HistoryEntry => ({ at: time, type: 'run-started' });
    const finished = (time: number): HistoryEntry => ({ at: time, type: 'run-finished' });
    expect(nightStart([], NOW)).toBe(NOW - 12 * HOUR);
    expect(nightStart([started(NOW - 9 * HOUR), started(NOW - 8 * HOUR)], NOW)).toBe(NOW - 9 * HOUR);
    expect(nightStart([{ at: NOW - 7 * HOUR, type: 'enabled' }], NOW)).toBe(NOW - 7 * HOUR);
    // A long run begun 14 hours ago is still this night's; one that ended before the window is another day's.
    expect(nightStart([started(NOW - 14 * HOUR), started(NOW - 2 * HOUR)], NOW)).toBe(NOW - 14 * HOUR);
    expect(nightStart([started(NOW - 14 * HOUR), finished(NOW - 13 * HOUR), started(NOW - 2 * HOUR)], NOW)).toBe(
      NOW - 2 * HOUR,
    );
    expect(nightStart([started(NOW - 25 * HOUR)], NOW)).toBe(NOW - 12 * HOUR);
    // Switched on a moment after the page's clock last ticked: the night begins now, not 12 hours ago.
    expect(nightStart([{ at: NOW + 400, type: 'enabled' }], NOW)).toBe(NOW);
  });

  it('says how the newest run ended: finished, stopped by an error (not out of memory), or by the person', () => {
    const begin: HistoryEntry = { at: at(22, 4, 13), type: 'run-started' };
    expect(line([begin, { at: at(6, 12), type: 'run-finished' }])).toBe(
      'Since 22:04: no failures, no restarts, run finished at 06:12',
    );
    // A stopped run is said first, and never beside "no failures".
    expect(line([begin, { at: at(3, 10), type: 'run-stopped', params: { cell: 4, saw: 'ValueError: x' } }])).toBe(
      'Since 22:04: run stopped by an error at 03:10 (not out of memory), no restarts',
    );
    expect(line([begin, { at: at(3, 10), type: 'run-interrupted' }])).toBe(
      'Since 22:04: no failures, no restarts, run stopped by you at 03:10',
    );
  });

  it('a run stopped by an error after failures the guard answered: the stop first, then the counts', () => {
    const begin: HistoryEntry = { at: at(22, 4, 13), type: 'run-started' };
    const oom: HistoryEntry = { at: at(1, 0), type: 'restart-scheduled', params: { n: 1, max: 3, delaySec: 5 } };
    const restarted: HistoryEntry = { at: at(1, 1), type: 'restarted', params: { n: 1, max: 3 } };
    const stop: HistoryEntry = { at: at(3, 10), type: 'run-stopped', params: { saw: 'ValueError: x' } };
    expect(line([begin, oom, restarted, stop])).toBe(
      'Since 22:04: run stopped by an error at 03:10 (not out of memory), 1 failure, 1 restart, last at 01:01',
    );
  });
});

describe('the night at its edges', () => {
  const since = NOW - NIGHT_MS;
  const entry = (time: number, type: HistoryEntry['type']): HistoryEntry => ({ at: time, type });

  it('counts what happened from the first moment of the night to now, both included, and nothing after', () => {
    const counts = countNight([failure(since - 1), failure(since), restart(NOW), restart(NOW + 1)], NOW, since);
    expect(counts).toMatchObject({ failures: 1, restarts: 1, last: { at: NOW, mark: 'restart' } });
  });

  it('ends its line with the newest entry by time, the later one written when two share a moment', () => {
    const gaveUp: HistoryEntry = { at: at(3, 0), type: 'gave-up' };
    expect(countNight([failure(at(3, 0)), gaveUp], NOW).last).toEqual({ at: at(3, 0), mark: 'gave-up' });
    expect(countNight([failure(at(3, 0)), restart(at(2, 0))], NOW).last).toEqual({ at: at(3, 0), mark: 'failure' });
  });

  it('a countdown written without its verdict counts as a failure', () => {
    expect(nightMark({ at: 0, type: 'restart-scheduled' })).toBe('failure');
  });

  it('begins at a run under way exactly 24 hours back, kept under way through what is no end of a run', () => {
    const started = (time: number) => entry(time, 'run-started');
    expect(nightStart([started(NOW - 2 * NIGHT_MS)], NOW)).toBe(NOW - 2 * NIGHT_MS);
    expect(nightStart([started(NOW - 14 * HOUR), failure(NOW - 13 * HOUR)], NOW)).toBe(NOW - 14 * HOUR);
    // Its end inside the night, even at the night's very edge, leaves the night begun at its start.
    expect(nightStart([started(NOW - 14 * HOUR), entry(NOW - 2 * HOUR, 'run-finished')], NOW)).toBe(NOW - 14 * HOUR);
    expect(nightStart([started(NOW - 14 * HOUR), entry(since, 'run-finished')], NOW)).toBe(NOW - 14 * HOUR);
  });

  it('an entry dated after now begins the night now only if it begins something', () => {
    expect(nightStart([entry(NOW + 400, 'run-finished')], NOW)).toBe(since);
  });

  it("finds the night's last run end from its first moment to now, both included, and nothing else", () => {
    const finished = entry(since + HOUR, 'run-finished');
    expect(lastRunEnd([finished, entry(since + 2 * HOUR, 'enabled')], NOW, since)).toBe(finished);
    const atStart = entry(since, 'run-stopped');
    expect(lastRunEnd([atStart], NOW, since)).toBe(atStart);
    const atNow = entry(NOW, 'run-interrupted');
    expect(lastRunEnd([atNow], NOW, since)).toBe(atNow);
    expect(lastRunEnd([entry(since - 1, 'run-finished'), entry(NOW + 1, 'run-finished')], NOW, since)).toBeNull();
  });
});
