import { describe, expect, it, vi } from 'vitest';
import { defaultNotebook, type HistoryEntry, type NotebookRecord } from '../state/schema';
import { nightLogText } from './night-log';

vi.mock('../lib/i18n', async () => {
  const { translate, translateCounted } = await import('../../test/support/messages');
  return { t: translate, tn: translateCounted };
});

const NOW = new Date(2026, 2, 14, 7, 30).getTime();
const at = (h: number, m: number, day = 14) => new Date(2026, 2, day, h, m).getTime();
const clock = (time: number) => new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' }).format(time);
const weekday = (time: number) => new Date(time).toLocaleDateString(undefined, { weekday: 'short' });

const oom = {
  category: 'gpu-oom' as const,
  rule: 'torch-cuda-oom',
  description: 'CUDA out of memory',
  line: 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB',
};

function notebook(history: HistoryEntry[]): NotebookRecord {
  return { ...defaultNotebook('drive:abc'), enabled: true, title: 'train.ipynb', history };
}

describe('the night log', () => {
  const night: HistoryEntry[] = [
    { at: at(18, 0, 13), type: 'enabled' },
    { at: at(18, 5, 13), type: 'run-finished' },
    { at: at(22, 4, 13), type: 'run-started' },
    {
      at: at(3, 10),
      type: 'restart-scheduled',
      params: { n: 1, max: 3, delaySec: 5 },
      verdict: oom,
      action: 'restart-and-run-all',
    },
    { at: at(3, 11), type: 'restarted', params: { n: 1, max: 3 }, action: 'restart-and-run-all' },
    { at: at(6, 12), type: 'run-finished' },
  ];

  it('tells the night from its first Run all, in the history words, with the failure line and no ids', () => {
    const text = nightLogText(notebook(night), 'train.ipynb', NOW, 'Watching');
    const lines = text.split('\n');
    expect(lines[0]).toBe(`train.ipynb: the night since ${weekday(at(22, 4, 13))} ${clock(at(22, 4, 13))}`);
    expect(lines[2]).toBe('Watching');
    expect(lines.slice(4)).toEqual([
      `${weekday(at(22, 4, 13))} ${clock(at(22, 4, 13))}  Run started`,
      `${clock(at(3, 10))}  Failure detected: countdown started`,
      '    Restart 1 of 3 in 5 s',
      '    PyTorch CUDA out of memory: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB',
      `${clock(at(3, 11))}  Restarted and ran all cells`,
      '    Restart 1 of 3 done',
      `${clock(at(6, 12))}  Run finished`,
    ]);
    expect(text).not.toContain('torch-cuda-oom');
    // Yesterday evening's run, before this night began, is not in it.
    expect(text).not.toContain(clock(at(18, 5, 13)));
  });

  it('says so when nothing happened', () => {
    const text = nightLogText(notebook([]), 'train.ipynb', NOW, 'Watching');
    expect(text.split('\n').at(-1)).toBe('Nothing happened tonight.');
  });
});
