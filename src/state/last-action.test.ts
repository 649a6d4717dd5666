import { describe, expect, it } from 'vitest';
import { disconnectVerdict } from './disconnect';
import { gaveUpUnableToConnect, lastAction } from './last-action';
import type { HistoryEntry, Verdict } from './schema';

const T0 = Date.UTC(2026, 10, 27, 23, 0);
const MIN = 60_000;

const cudaOom: Verdict = {
  category: 'gpu-oom',
  rule: 'torch-cuda-oom',
  description: 'CUDA out of memory',
  line: 'torch.OutOfMemoryError: CUDA out of memory.',
};
const outage = disconnectVerdict('unable-to-connect', 'Unable to connect to the runtime.');
const idle = disconnectVerdict('idle', 'Your runtime has been disconnected due to inactivity.');

describe('what the guard was doing when a step failed (a UI problem says it in words)', () => {
  it('is the action of the newest history entry that names one, whatever came after it', () => {
    const night: HistoryEntry[] = [
      { at: T0, type: 'enabled' },
      { at: T0 + MIN, type: 'restart-scheduled', verdict: cudaOom, action: 'restart-and-run-all' },
      { at: T0 + 2 * MIN, type: 'restarted', action: 'restart-and-run-all' },
      { at: T0 + 30 * MIN, type: 'restart-scheduled', verdict: cudaOom, action: 'run-all' },
      {
        at: T0 + 31 * MIN,
        type: 'restart-failed',
        failed: { step: 'find-item', reason: 'not found', saw: 'no Run all item' },
      },
      { at: T0 + 32 * MIN, type: 'disabled' },
    ];
    expect(lastAction(night)).toBe('run-all');
  });

  it('a newer action wins over an older one', () => {
    const history: HistoryEntry[] = [
      { at: T0, type: 'restart-scheduled', verdict: cudaOom, action: 'run-all' },
      { at: T0 + MIN, type: 'restart-scheduled', verdict: idle, action: 'reconnect-and-run-all' },
    ];
    expect(lastAction(history)).toBe('reconnect-and-run-all');
  });

  it('is unknown with no history, or none naming an action', () => {
    expect(lastAction([])).toBeUndefined();
    expect(
      lastAction([
        { at: T0, type: 'enabled' },
        { at: T0 + MIN, type: 'cancelled' },
      ]),
    ).toBeUndefined();
  });
});

describe('whether the guard last gave up because Colab could not connect (an outage, not a crash loop)', () => {
  it('yes when the newest give-up answered an outage', () => {
    const history: HistoryEntry[] = [
      { at: T0, type: 'restart-failed', verdict: outage, action: 'reconnect-and-run-all' },
      { at: T0 + MIN, type: 'gave-up', params: { why: 'unable-to-connect', n: 3, max: 3 }, verdict: outage },
      { at: T0 + 2 * MIN, type: 're-armed' },
    ];
    expect(gaveUpUnableToConnect(history)).toBe(true);
  });

  it('no when the newest give-up was a crash loop, even after an older outage give-up', () => {
    const history: HistoryEntry[] = [
      { at: T0, type: 'gave-up', params: { why: 'unable-to-connect', n: 3, max: 3 }, verdict: outage },
      { at: T0 + MIN, type: 're-armed' },
      { at: T0 + 2 * MIN, type: 'gave-up', params: { why: 'failed-again', n: 3, max: 3 }, verdict: cudaOom },
    ];
    expect(gaveUpUnableToConnect(history)).toBe(false);
  });

  it('no for a give-up on another disconnect, and when the outage was only a failed step, not a give-up', () => {
    expect(gaveUpUnableToConnect([{ at: T0, type: 'gave-up', verdict: idle }])).toBe(false);
    expect(gaveUpUnableToConnect([{ at: T0, type: 'restart-failed', verdict: outage }])).toBe(false);
    expect(gaveUpUnableToConnect([{ at: T0, type: 'gave-up' }])).toBe(false);
    expect(gaveUpUnableToConnect([])).toBe(false);
  });
});
