import { describe, expect, it } from 'vitest';
import { type PolicyContext, type PolicyEvent, reduce } from './policy';
import { guardedTabs, notebooksGoing, runGoing, tabCarriesRun, wantsKeepAwake } from './run-going';
import { defaultNotebook, defaultSettings, type NotebookRecord, type Verdict } from './schema';

/**
 * The computer is kept awake, and the heartbeat pings, while a guarded notebook has a run going, a countdown,
 * or a restart on its way, and not when nothing runs, the guard is off, or it gave up. Records are made by the reducer,
 * as the worker makes them.
 */
const KEY = 'drive:1AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const OTHER = 'drive:2AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const T0 = new Date(2026, 11, 7, 22, 0, 0).getTime();
const TAB = 7;
const OTHER_TAB = 8;
const SESSION = 'session-1';

const oom: Verdict = {
  category: 'gpu-oom',
  rule: 'torch-cuda-oom',
  description: 'CUDA out of memory',
  line: 'torch.OutOfMemoryError: CUDA out of memory.',
};

function ctx(now: number, session = SESSION): PolicyContext {
  return { now, settings: defaultSettings(), session, newAttemptId: () => 'attempt-1' };
}

/** The record after `events`, ten seconds apart (more than the first countdown), in `session`. */
function recordAfter(events: PolicyEvent[], session = SESSION, key = KEY): NotebookRecord {
  return events.reduce((record, event, i) => reduce(record, event, ctx(T0 + i * 10_000, session)).record, {
    ...defaultNotebook(key),
  });
}

const on: PolicyEvent = { type: 'set-enabled', enabled: true };
const off: PolicyEvent = { type: 'set-enabled', enabled: false };
const busy = (tabId = TAB, isBusy = true): PolicyEvent => ({ type: 'activity', tabId, busy: isBusy });
const failure: PolicyEvent = {
  type: 'failure',
  tabId: TAB,
  detectedAt: T0 + 5000,
  startedAt: T0 + 2000,
  verdict: oom,
  source: 'error-output',
};
const claim: PolicyEvent = { type: 'claim', tabId: TAB, attempt: 'attempt-1' };

describe('a guarded run going on', () => {
  it('goes on while cells are under way in a tab that shows the notebook, and stops when they all end', () => {
    expect(runGoing(recordAfter([on, busy()]), SESSION, [TAB])).toBe(true);
    expect(runGoing(recordAfter([on, busy(), busy(TAB, false)]), SESSION, [TAB])).toBe(false);
  });

  it('goes on through a countdown and a restart, though no cell runs then', () => {
    const counting = recordAfter([on, busy(), failure, busy(TAB, false)]);
    expect(counting.status.kind).toBe('pending');
    expect(runGoing(counting, SESSION, [TAB])).toBe(true);
    const restarting = recordAfter([on, busy(), failure, busy(TAB, false), claim]);
    expect(restarting.status.kind).toBe('restarting');
    expect(runGoing(restarting, SESSION, [TAB])).toBe(true);
  });

  it('does not go on with the guard off, before anything ran, or once the guard gave up', () => {
    expect(runGoing(recordAfter([busy()]), SESSION, [TAB])).toBe(false);
    expect(runGoing(recordAfter([on, busy(), off]), SESSION, [TAB])).toBe(false);
    expect(runGoing(recordAfter([on]), SESSION, [TAB])).toBe(false);
    const gaveUp = recordAfter([{ type: 'set-max-restarts', value: 0 }, on, busy(), failure]);
    expect(gaveUp.status.kind).toBe('gave-up');
    expect(runGoing(gaveUp, SESSION, [TAB])).toBe(false);
  });

  it('does not go on in a tab that no longer shows the notebook, nor in a tab of an earlier browser session', () => {
    const running = recordAfter([on, busy()]);
    expect(runGoing(running, SESSION, [OTHER_TAB])).toBe(false);
    expect(runGoing(running, 'session-2', [TAB])).toBe(false);
    const counting = recordAfter([on, busy(), failure]);
    expect(runGoing(counting, SESSION, [])).toBe(false);
    expect(runGoing(counting, 'session-2', [TAB])).toBe(false);
  });
});

describe('the tab that carried the run', () => {
  it('is the tab with cells under way, or the one counting down or restarting', () => {
    const running = recordAfter([on, busy()]);
    expect(tabCarriesRun(running, TAB, SESSION)).toBe(true);
    expect(tabCarriesRun(running, OTHER_TAB, SESSION)).toBe(false);
    expect(tabCarriesRun(recordAfter([on, busy(), failure, busy(TAB, false)]), TAB, SESSION)).toBe(true);
    expect(tabCarriesRun(recordAfter([on, busy(OTHER_TAB), failure]), OTHER_TAB, SESSION)).toBe(false);
  });

  it('carries nothing when nothing ran, the guard is off, or it gave up', () => {
    expect(tabCarriesRun(recordAfter([on]), TAB, SESSION)).toBe(false);
    expect(tabCarriesRun(recordAfter([busy()]), TAB, SESSION)).toBe(false);
    expect(tabCarriesRun(recordAfter([on, busy(), off]), TAB, SESSION)).toBe(false);
    const gaveUp = recordAfter([{ type: 'set-max-restarts', value: 0 }, on, busy(), failure]);
    expect(tabCarriesRun(gaveUp, TAB, SESSION)).toBe(false);
  });
});

describe('what follows from it', () => {
  const going = { record: recordAfter([on, busy()]), tabs: [TAB] };
  const idle = { record: recordAfter([on], SESSION, OTHER), tabs: [OTHER_TAB] };

  it('names the notebooks whose run goes on', () => {
    expect(notebooksGoing([idle, going], SESSION)).toEqual([KEY]);
    expect(notebooksGoing([idle], SESSION)).toEqual([]);
  });

  it('keeps the computer awake while a run goes on, by default, and never when switched off', () => {
    expect(wantsKeepAwake([KEY], defaultSettings())).toBe(true);
    expect(wantsKeepAwake([], defaultSettings())).toBe(false);
    expect(wantsKeepAwake([KEY], { ...defaultSettings(), keepAwake: false })).toBe(false);
  });

  it('keeps every tab of a guarded notebook from being discarded, whether or not a run goes on', () => {
    const offNotebook = {
      record: recordAfter([on, off], SESSION, 'drive:3AbCdEfGhIjKlMnOpQrStUvWxYz012345'),
      tabs: [9],
    };
    expect(guardedTabs([going, idle, offNotebook])).toEqual([TAB, OTHER_TAB]);
  });
});
