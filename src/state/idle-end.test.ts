import { describe, expect, it } from 'vitest';
import { idleEndAt } from './idle-end';
import { type PolicyContext, type PolicyEvent, reduce } from './policy';
import { defaultNotebook, defaultSettings, type NotebookRecord, type Settings, type Verdict } from './schema';

/** docs/settings.md: a guard that saw nothing run for 12 hours ends by itself. */
const HOUR = 60 * 60_000;
const STRETCH = 12 * HOUR;
const KEY = 'drive:1AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const T0 = new Date(2025, 2, 10, 20, 0, 0).getTime();
const TAB = 7;
const OTHER_TAB = 8;
const SESSION = 'session-1';

const cudaOom: Verdict = {
  category: 'gpu-oom',
  rule: 'torch-cuda-oom',
  description: 'CUDA out of memory',
  line: 'torch.OutOfMemoryError: CUDA out of memory.',
};

function ctx(now: number, settings: Settings = defaultSettings(), session = SESSION): PolicyContext {
  return { now, settings, session, newAttemptId: () => 'attempt-1' };
}

function switchedOnAt(at: number): NotebookRecord {
  return reduce(defaultNotebook(KEY), { type: 'set-enabled', enabled: true }, ctx(at)).record;
}

function apply(record: NotebookRecord, event: PolicyEvent, at: number, settings?: Settings) {
  return reduce(record, event, ctx(at, settings));
}

const failure = (at: number): PolicyEvent => ({
  type: 'failure',
  tabId: TAB,
  detectedAt: at,
  startedAt: at - HOUR,
  verdict: cudaOom,
  source: 'error-output',
});
const busy = (tabId = TAB): PolicyEvent => ({ type: 'activity', tabId, busy: true });
const idle = (tabId = TAB): PolicyEvent => ({ type: 'activity', tabId, busy: false });

describe('a guard armed for a stretch', () => {
  it('ends when nothing ran for 12 hours since it was switched on, and says so', () => {
    const on = switchedOnAt(T0);
    expect(apply(on, { type: 'settle' }, T0 + STRETCH - 1).record.enabled).toBe(true);
    const { record } = apply(on, { type: 'settle' }, T0 + STRETCH);
    expect(record.enabled).toBe(false);
    expect(record.history.at(-1)).toEqual({ at: T0 + STRETCH, type: 'guard-ended', params: { minutes: 720 } });
  });

  it('dates the end when the 12 hours were up, not when a later event found it', () => {
    const { record } = apply(switchedOnAt(T0), { type: 'settle' }, T0 + STRETCH + 5 * HOUR);
    expect(record.enabled).toBe(false);
    expect(record.history.at(-1)).toEqual({ at: T0 + STRETCH, type: 'guard-ended', params: { minutes: 720 } });
  });

  it('notifies once when it ends, with the entry that says why, whatever event found it idle', () => {
    const on = { ...switchedOnAt(T0), title: 'train.ipynb' };
    expect(apply(on, { type: 'settle' }, T0 + STRETCH - 1).effects).toEqual([]);
    const ended = apply(on, failure(T0 + STRETCH), T0 + STRETCH);
    expect(ended.effects).toEqual([
      {
        type: 'notify',
        kind: 'guard-ended',
        key: KEY,
        title: 'train.ipynb',
        entry: { at: T0 + STRETCH, type: 'guard-ended', params: { minutes: 720 } },
      },
    ]);
    expect(apply(ended.record, { type: 'settle' }, T0 + STRETCH + HOUR).effects).toEqual([]);
  });

  it('counts the 12 hours from the moment the last cell stopped being under way', () => {
    let record = switchedOnAt(T0);
    record = apply(record, busy(), T0 + HOUR).record;
    record = apply(record, idle(), T0 + 2 * HOUR).record;
    expect(apply(record, { type: 'settle' }, T0 + 2 * HOUR + STRETCH - 1).record.enabled).toBe(true);
    expect(apply(record, { type: 'settle' }, T0 + 2 * HOUR + STRETCH).record.enabled).toBe(false);
  });

  it('stays armed however long a cell runs, and a failure then restarts', () => {
    let record = switchedOnAt(T0);
    record = apply(record, busy(), T0 + HOUR).record;
    const late = T0 + 3 * STRETCH;
    expect(idleEndAt(record, defaultSettings(), SESSION)).toBeNull();
    const reply = apply(record, failure(late), late);
    expect(reply.record.enabled).toBe(true);
    expect(reply.reply).toMatchObject({ outcome: 'scheduled' });
  });

  it('stays armed while any tab has cells under way', () => {
    let record = switchedOnAt(T0);
    record = apply(record, busy(TAB), T0).record;
    record = apply(record, busy(OTHER_TAB), T0).record;
    record = apply(record, idle(TAB), T0 + HOUR).record;
    expect(apply(record, { type: 'settle' }, T0 + 2 * STRETCH).record.enabled).toBe(true);
  });

  it('a tab closed (or reloaded) with cells under way no longer keeps it armed', () => {
    let record = switchedOnAt(T0);
    record = apply(record, busy(), T0).record;
    record = apply(record, { type: 'tab-closed', tabId: TAB, gone: 'closed', othersShow: false }, T0 + HOUR).record;
    expect(apply(record, { type: 'settle' }, T0 + HOUR + STRETCH).record.enabled).toBe(false);

    let reloaded = apply(switchedOnAt(T0), busy(), T0).record;
    reloaded = apply(reloaded, { type: 'adopt', tabId: TAB, ownerAlive: false }, T0 + HOUR).record;
    expect(apply(reloaded, { type: 'settle' }, T0 + HOUR + STRETCH).record.enabled).toBe(false);
  });

  it('cells under way in a tab of an earlier browser session keep nothing armed', () => {
    const record = apply(switchedOnAt(T0), busy(), T0).record;
    const later = reduce(record, { type: 'settle' }, ctx(T0 + STRETCH, defaultSettings(), 'session-2'));
    expect(later.record.enabled).toBe(false);
  });

  it('a failure arriving on a guard idle too long is not restarted, and the history says why', () => {
    const on = switchedOnAt(T0);
    const at = T0 + STRETCH + HOUR;
    const { record, reply } = apply(on, failure(at), at);
    expect(reply).toMatchObject({ outcome: 'off' });
    expect(record.status.kind).toBe('watching');
    expect(record.history.slice(-2).map((e) => [e.type, e.params?.why])).toEqual([
      ['guard-ended', undefined],
      ['ignored', 'guard-ended'],
    ]);
    // The same failure told by another tab is noted once.
    expect(apply(record, failure(at + 1000), at + 1000).record).toBe(record);
  });

  it('a failure on a guard the person switched off is not noted as ended by itself', () => {
    const off = apply(switchedOnAt(T0), { type: 'set-enabled', enabled: false }, T0 + HOUR).record;
    expect(apply(off, failure(T0 + 2 * HOUR), T0 + 2 * HOUR).record).toBe(off);
  });

  it('a person at the keyboard running a cell the next day finds the guard ended first', () => {
    const on = switchedOnAt(T0);
    const { record } = apply(on, busy(), T0 + 20 * HOUR);
    expect(record.enabled).toBe(false);
    expect(record.activity).toEqual(on.activity);
  });

  it('switched on again, it is armed for a new stretch from then', () => {
    const ended = apply(switchedOnAt(T0), { type: 'settle' }, T0 + STRETCH).record;
    const again = apply(ended, { type: 'set-enabled', enabled: true }, T0 + 30 * HOUR).record;
    expect(again.enabled).toBe(true);
    expect(idleEndAt(again, defaultSettings(), SESSION)).toBe(T0 + 30 * HOUR + STRETCH);
  });

  it('"never end" keeps it armed', () => {
    const never = { ...defaultSettings(), guardNeverEnds: true };
    const { record } = apply(switchedOnAt(T0), { type: 'settle' }, T0 + 10 * STRETCH, never);
    expect(record.enabled).toBe(true);
    expect(idleEndAt(record, never, SESSION)).toBeNull();
  });

  it('a record from before the guard kept activity is never ended for want of it', () => {
    const legacy: NotebookRecord = { ...defaultNotebook(KEY), enabled: true };
    expect(apply(legacy, { type: 'settle' }, T0 + 10 * STRETCH).record).toBe(legacy);
  });

  it('a countdown under way is the guard at work: it does not end then', () => {
    const on = switchedOnAt(T0);
    const pending = apply(on, failure(T0 + HOUR), T0 + HOUR).record;
    expect(pending.status.kind).toBe('pending');
    const stale = { ...pending, activity: { at: T0 - 2 * STRETCH, busyTabs: [], session: SESSION } };
    expect(apply(stale, { type: 'settle' }, T0 + HOUR + 1000).record.enabled).toBe(true);
  });
});

describe('what a guard armed for a stretch counts as activity', () => {
  it('a restart under way is the guard at work: it does not end then', () => {
    const restarting: NotebookRecord = {
      ...switchedOnAt(T0),
      status: {
        kind: 'restarting',
        reason: 'failure',
        action: 'restart-and-run-all',
        attempt: 'a',
        ownerTab: TAB,
        startedAt: T0 + STRETCH,
      },
    };
    expect(apply(restarting, { type: 'settle' }, T0 + STRETCH + 1000).record.enabled).toBe(true);
  });

  it('cells under way are counted in this browser session only, and from a record that kept none yet', () => {
    const before = apply(switchedOnAt(T0), busy(), T0).record;
    const now = reduce(before, busy(OTHER_TAB), ctx(T0 + HOUR, defaultSettings(), 'session-2')).record;
    expect(now.activity).toEqual({ at: T0 + HOUR, busyTabs: [OTHER_TAB], session: 'session-2' });
    const legacy: NotebookRecord = { ...defaultNotebook(KEY), enabled: true };
    expect(apply(legacy, busy(), T0).record.activity).toEqual({ at: T0, busyTabs: [TAB], session: SESSION });
  });
});
