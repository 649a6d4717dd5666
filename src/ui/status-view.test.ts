import { describe, expect, it } from 'vitest';
import { defaultNotebook, defaultSettings, type NotebookRecord, type Verdict } from '../state/schema';
import { describeStatus } from './status-view';

const KEY = 'drive:1AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const T0 = new Date(2025, 2, 10, 12, 0, 0).getTime();
const SEC = 1000;
const MIN = 60 * SEC;
const TAB = 7;
const cudaOom: Verdict = {
  category: 'gpu-oom',
  rule: 'torch-cuda-oom',
  description: 'PyTorch CUDA out of memory',
  line: 'torch.OutOfMemoryError: CUDA out of memory.',
};

function enabled(overrides: Partial<NotebookRecord> = {}): NotebookRecord {
  return { ...defaultNotebook(KEY), title: 'train.ipynb', enabled: true, ...overrides };
}

describe('describeStatus', () => {
  const settings = defaultSettings();

  it('reports off, watching, pending, restarting, gave-up and ui-problem', () => {
    expect(describeStatus(defaultNotebook(KEY), settings, T0)).toEqual({
      state: 'off',
      used: 0,
      max: 3,
      totalRestarts: 0,
      markersToday: 0,
      markerLimit: 100,
    });
    expect(describeStatus(enabled({ loopCount: 1, totalRestarts: 4, lastRestartAt: T0 }), settings, T0)).toMatchObject({
      state: 'watching',
      used: 1,
      totalRestarts: 4,
    });

    const pending = enabled({
      status: {
        kind: 'pending',
        reason: 'failure',
        action: 'restart-and-run-all',
        restartAt: T0 + 5 * SEC,
        attempt: 'a',
        ownerTab: TAB,
        detectedAt: T0,
        verdict: cudaOom,
      },
    });
    expect(describeStatus(pending, settings, T0 + 1200)).toMatchObject({
      state: 'pending',
      secondsLeft: 4,
      reason: 'failure',
      action: 'restart-and-run-all',
      verdict: cudaOom,
    });
    expect(describeStatus(pending, settings, T0 + 60 * SEC)).toMatchObject({ secondsLeft: 0 });

    const running = enabled({
      status: { kind: 'restarting', reason: 'crash', action: 'run-all', attempt: 'a', ownerTab: TAB, startedAt: T0 },
    });
    expect(describeStatus(running, settings, T0)).toMatchObject({
      state: 'restarting',
      reason: 'crash',
      action: 'run-all',
    });
    expect(
      describeStatus(enabled({ loopCount: 3, status: { kind: 'gave-up', at: T0, restarts: 3 } }), settings, T0),
    ).toMatchObject({ state: 'gave-up', used: 3, max: 3, since: T0 });
    expect(
      describeStatus(
        enabled({ status: { kind: 'ui-problem', at: T0, failed: { step: 'confirm', reason: 'no-dialog', saw: '' } } }),
        settings,
        T0,
      ),
    ).toMatchObject({
      state: 'ui-problem',
      failed: { step: 'confirm', reason: 'no-dialog', saw: '' },
    });
  });

  it('uses the override and the healthy window', () => {
    const record = enabled({ overrides: { maxRestarts: 6 }, loopCount: 2, lastRestartAt: T0 });
    expect(describeStatus(record, settings, T0 + 45 * MIN)).toMatchObject({ used: 0, max: 6 });
  });

  it('a restart under way shows as such even with the guard just switched off', () => {
    const off = enabled({
      enabled: false,
      status: { kind: 'restarting', reason: 'failure', action: 'run-all', attempt: 'a', ownerTab: TAB, startedAt: T0 },
    });
    expect(describeStatus(off, settings, T0).state).toBe('restarting');
  });

  it('shows markers of today only, up to the limit', () => {
    const limited = { ...settings, markerDailyLimit: 2 };
    const today = enabled({ markerDay: '2025-03-10', markerCount: 3 });
    expect(describeStatus(today, limited, T0)).toMatchObject({ markersToday: 2, markerLimit: 2 });
    const record = enabled({ markerDay: '2025-03-09', markerCount: 40 });
    expect(describeStatus(record, settings, T0).markersToday).toBe(0);
  });
});
