import { describe, expect, it, vi } from 'vitest';
import { defaultNotebook, defaultSettings, type HistoryEntry, type NotebookRecord } from '../state/schema';
import { badgeTooltip } from './badge-tooltip';

vi.mock('../lib/i18n', async () => {
  const { translate, translateCounted } = await import('../../test/support/messages');
  return { t: translate, tn: translateCounted };
});

const NOW = new Date(2026, 2, 14, 7, 30).getTime();
const at = (h: number, m: number) => new Date(2026, 2, 14, h, m).getTime();
const clock = (time: number) => new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' }).format(time);
const settings = defaultSettings();

function notebook(extra: Partial<NotebookRecord>): NotebookRecord {
  return { ...defaultNotebook('drive:abc'), enabled: true, ...extra };
}

describe("the toolbar icon's tooltip says what the status box says", () => {
  it('whether the notebook is guarded, what happened and what comes next, a line each', () => {
    const history: HistoryEntry[] = [
      { at: at(1, 0), type: 'run-started' },
      { at: at(3, 11), type: 'restarted', params: { n: 1, max: 3 } },
      { at: at(6, 12), type: 'run-finished' },
    ];
    expect(badgeTooltip(notebook({ history, loopCount: 1 }), settings, NOW).split('\n')).toEqual([
      'Colab OOM Guard: Watching',
      `Run finished at ${clock(at(6, 12))} after 1 restart`,
      '2 of 3 restarts left; the next one after a 10 s countdown',
    ]);
    expect(badgeTooltip(notebook({ enabled: false }), settings, NOW)).toBe('Colab OOM Guard: Not guarded');
    expect(badgeTooltip(null, settings, NOW)).toBe('Colab OOM Guard: not a Colab notebook');
  });

  it('a give-up, a countdown without its seconds, the question, and blind detection', () => {
    const gaveUp = notebook({
      status: { kind: 'gave-up', at: at(4, 0), restarts: 3 },
      history: [{ at: at(4, 0), type: 'gave-up', params: { why: 'failed-again', n: 3, max: 3 } }],
    });
    expect(badgeTooltip(gaveUp, settings, NOW).split('\n')).toEqual([
      'Colab OOM Guard: Gave up after 3 restarts',
      `Gave up at ${clock(at(4, 0))} after 3 restarts`,
      'Nothing restarts until you choose Watch again',
    ]);
    const verdict = { category: 'gpu-oom' as const, rule: 'torch-cuda-oom', description: 'd', line: 'OOM' };
    const pending = {
      kind: 'pending' as const,
      reason: 'failure' as const,
      action: 'restart-and-run-all' as const,
      restartAt: NOW + 5000,
      attempt: 'a',
      ownerTab: 1,
      detectedAt: NOW,
      verdict,
    };
    expect(badgeTooltip(notebook({ status: pending }), settings, NOW)).toBe(
      'Colab OOM Guard: PyTorch CUDA out of memory: countdown to the restart started',
    );
    expect(badgeTooltip(notebook({ status: { ...pending, askedAt: NOW } }), settings, NOW)).toBe(
      'Colab OOM Guard: Waiting for you in the Colab tab',
    );
    expect(
      badgeTooltip(notebook({ blindSince: NOW }), settings, NOW)
        .split('\n')
        .slice(0, 2),
    ).toEqual([
      'Colab OOM Guard: Watching',
      'Detection may be blind: Colab was busy for more than 2 minutes and no cell was seen running. Check Colab UI ' +
        'says what is missing.',
    ]);
  });
});
