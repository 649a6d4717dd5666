// @vitest-environment happy-dom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { installFakeBrowser, mount } from '../../test/support/ui';
import type { HistoryEntry } from '../state/schema';
import { Timeline } from './Timeline';
import { formatTime } from './text';

vi.mock('webextension-polyfill', async () => ({ default: (await import('@webext-core/fake-browser')).fakeBrowser }));

const HOUR = 3600_000;
const NOW = new Date(2026, 2, 14, 7, 30).getTime();
const marker = {
  category: 'custom' as const,
  rule: 'restart-marker',
  description: 'Restart marker: NEXT',
  line: 'NEXT',
};
const oom = { category: 'gpu-oom' as const, rule: 'torch-cuda-oom', description: 'CUDA OOM', line: 'OutOfMemoryError' };

beforeEach(async () => {
  await installFakeBrowser();
});

describe('Timeline', () => {
  it('places failures, markers, restarts, give-ups and UI problems of the last 12 hours on the axis', async () => {
    const history: HistoryEntry[] = [
      { at: NOW - 13 * HOUR, type: 'restart-scheduled', verdict: oom },
      { at: NOW - 6 * HOUR, type: 'restart-scheduled', verdict: oom },
      { at: NOW - 6 * HOUR + 5000, type: 'restarted' },
      { at: NOW - 5 * HOUR, type: 'restart-scheduled', verdict: marker },
      { at: NOW - 4 * HOUR, type: 'restart-failed', detail: 'menu' },
      { at: NOW - 2 * HOUR, type: 'cancelled' },
      { at: NOW - HOUR, type: 'gave-up' },
    ];
    const { container } = await mount(<Timeline id="t" history={history} now={NOW} />);
    const svg = container.querySelector('svg')!;
    expect(svg.getAttribute('role')).toBe('img');
    expect(svg.getAttribute('aria-labelledby')).toBe('t-title t-desc');
    expect(svg.querySelector('#t-desc')?.textContent).toMatch(
      /^Last 12 hours: 2 failures, 1 restart, 1 restart marker, 1 Colab UI problem, gave up at /,
    );
    const kinds = [...svg.querySelectorAll('[data-kind]')].map((g) => g.getAttribute('data-kind'));
    expect(kinds).toEqual(['failure', 'restart', 'marker', 'problem', 'gave-up']);
    // Left to right in time.
    const xs = [...svg.querySelectorAll('[data-kind] circle, [data-kind] rect')].map((el) =>
      Number(el.getAttribute('cx') ?? el.getAttribute('x')),
    );
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
    expect(container.querySelector('.legend')?.textContent).toContain('Restart marker');
    // Twelve hourly ticks, every fourth labelled.
    expect(svg.querySelectorAll('.tick')).toHaveLength(12);
    expect(svg.querySelectorAll('.tick text')).toHaveLength(3);
  });

  it('puts the ticks on whole hours of the local clock, in a half-hour time zone too', async () => {
    const zone = process.env.TZ;
    process.env.TZ = 'Asia/Kolkata';
    try {
      const now = new Date(2026, 2, 14, 7, 10).getTime();
      const { container } = await mount(<Timeline id="t" history={[]} now={now} />);
      const labels = [...container.querySelectorAll('.tick text')].map((text) => text.textContent);
      expect(labels).toHaveLength(3);
      for (const label of labels) expect(label).toMatch(/^\d\d:00\b/);
      expect(container.querySelectorAll('.tick')).toHaveLength(12);
    } finally {
      // Assigning undefined would set the string "undefined".
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('says so when nothing happened', async () => {
    const { container } = await mount(<Timeline id="t" history={[{ at: NOW - HOUR, type: 'enabled' }]} now={NOW} />);
    expect(container.querySelector('desc')?.textContent).toMatch(/^Since .+: no failures, no restarts$/);
    expect(container.querySelectorAll('[data-kind]')).toHaveLength(0);
  });

  it("spans the night the line above counts: from the evening's first Run all, or a long run's start", async () => {
    const evening: HistoryEntry[] = [
      { at: NOW - 11 * HOUR, type: 'restart-scheduled', verdict: oom },
      { at: NOW - 10 * HOUR, type: 'run-finished' },
      { at: NOW - 6 * HOUR, type: 'run-started' },
      { at: NOW - 3 * HOUR, type: 'restart-scheduled', verdict: oom },
    ];
    const { container } = await mount(<Timeline id="n" history={evening} now={NOW} />);
    expect(container.querySelector('title')?.textContent).toBe(
      `Failures and restarts since ${formatTime(NOW - 6 * HOUR, NOW)}`,
    );
    // The afternoon's failure belongs to no night the line counts; the night's failure sits half-way along.
    const marks = [...container.querySelectorAll('[data-kind] circle')];
    expect(marks).toHaveLength(1);
    expect(Number(marks[0]?.getAttribute('cx'))).toBeCloseTo(180, 0);
    // Six hours: six ticks, labelled every fourth hour as on a 12-hour axis.
    expect(container.querySelectorAll('.tick')).toHaveLength(6);

    // A run under way for 20 hours: the axis reaches back to its start, labelled every eighth hour.
    const long = await mount(<Timeline id="l" history={[{ at: NOW - 20 * HOUR, type: 'run-started' }]} now={NOW} />);
    expect(long.container.querySelectorAll('.tick')).toHaveLength(20);
    const labelled = [...long.container.querySelectorAll('.tick text')];
    expect(labelled.length).toBeLessThanOrEqual(3);

    // Switched on minutes ago: an hour at least, each hour labelled.
    const fresh = await mount(<Timeline id="f" history={[{ at: NOW - 5 * 60_000, type: 'enabled' }]} now={NOW} />);
    expect(fresh.container.querySelectorAll('.tick')).toHaveLength(1);
    expect(fresh.container.querySelectorAll('.tick text')).toHaveLength(1);
  });

  it('grows hour labels at the ends of the axis inwards so they are not cut off', async () => {
    const now = new Date(2026, 2, 14, 12, 5).getTime(); // a labelled hour (12:00) right at the right end
    const { container } = await mount(<Timeline id="e" history={[]} now={now} />);
    const labels = [...container.querySelectorAll('.tick text')];
    expect(labels.at(-1)?.getAttribute('text-anchor')).toBe('end');
    expect(labels.slice(1, -1).every((l) => l.getAttribute('text-anchor') === 'middle')).toBe(true);
  });
});

describe('formatTime', () => {
  it('shows the clock time today, and the day before that', () => {
    expect(formatTime(NOW - HOUR, NOW)).not.toMatch(/[A-Za-z]{3} /);
    expect(formatTime(NOW - 10 * HOUR, NOW)).toMatch(/^\p{L}{2,}\.? /u);
  });
});
