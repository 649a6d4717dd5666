import { beforeEach, describe, expect, it } from 'vitest';
import {
  COUNTDOWN_GRACE_MS,
  ctx,
  cudaOom,
  enabled,
  failAndRestart,
  failure,
  KEY,
  MIN,
  OTHER_TAB,
  pendingOf,
  resetAttempts,
  SEC,
  SESSION,
  scheduled,
  T0,
  TAB,
} from '../../test/support/policy';
import { type PolicyEvent, reduce } from './policy';
import { defaultSettings, type NotebookRecord } from './schema';

// Pages arriving on a notebook and tabs leaving it (state/policy-restarts.ts onAdopt, onTabClosed).

beforeEach(resetAttempts);

describe('adopt (a page arrived on the notebook)', () => {
  it('the owner reloading starts its countdown again from the base delay, with a new attempt', () => {
    // Restart 2 of a loop: a 10 s back-off, reloaded 2 s in. The stored deadline would fire unseen after a late load.
    const { record, status } = (() => {
      const first = failAndRestart(enabled(), T0).record;
      const again = reduce(first, failure(T0 + MIN), ctx(T0 + MIN)).record;
      return { record: again, status: pendingOf(again) };
    })();
    expect(status.restartAt).toBe(T0 + MIN + 10 * SEC);
    const now = T0 + MIN + 2 * SEC;
    const result = reduce(record, { type: 'adopt', tabId: TAB, ownerAlive: true }, ctx(now));
    expect(result.reply).toEqual({ owner: true });
    const carried = pendingOf(result.record);
    expect(carried).toMatchObject({ ownerTab: TAB, restartAt: now + 5 * SEC, session: SESSION });
    expect(carried.attempt).not.toBe(status.attempt);
    expect(result.record.history.at(-1)).toMatchObject({ type: 'resumed', at: now });
    expect(result.record.loopCount).toBe(1);
    // The old page's attempt is void; the new one is claimed at the new deadline.
    const old = reduce(result.record, { type: 'claim', tabId: TAB, attempt: status.attempt }, ctx(status.restartAt));
    expect(old.reply).toMatchObject({ granted: false });
    const claim = { type: 'claim' as const, tabId: TAB, attempt: carried.attempt };
    expect(reduce(result.record, claim, ctx(now + 3 * SEC)).reply).toMatchObject({ granted: false });
    expect(reduce(result.record, claim, ctx(now + 5 * SEC)).reply).toMatchObject({ granted: true });
  });

  it('a second tab watches while the owner lives', () => {
    const { record } = scheduled();
    expect(reduce(record, { type: 'adopt', tabId: OTHER_TAB, ownerAlive: true }, ctx(T0))).toMatchObject({
      record,
      reply: { owner: false },
    });
  });

  it('a tab takes the countdown over when the owner is gone, from the base delay: one restart', () => {
    const { record, status } = scheduled();
    const adopted = reduce(record, { type: 'adopt', tabId: OTHER_TAB, ownerAlive: false }, ctx(T0 + 2 * SEC));
    expect(adopted.reply).toEqual({ owner: true });
    const carried = pendingOf(adopted.record);
    expect(carried).toMatchObject({ ownerTab: OTHER_TAB, restartAt: T0 + 7 * SEC, verdict: cudaOom });
    expect(adopted.record.history.at(-1)).toMatchObject({ type: 'resumed' });
    expect(adopted.record.loopCount).toBe(0);

    const oldOwner = reduce(adopted.record, { type: 'claim', tabId: TAB, attempt: status.attempt }, ctx(T0 + 7 * SEC));
    expect(oldOwner.reply).toMatchObject({ granted: false });
    const heir = { type: 'claim' as const, tabId: OTHER_TAB, attempt: carried.attempt };
    expect(reduce(adopted.record, heir, ctx(T0 + 7 * SEC)).reply).toMatchObject({ granted: true });
  });

  it('a tab returning within 2 min of the deadline gets a whole new countdown, so nothing fires at load', () => {
    const { record, status } = scheduled();
    const back = status.restartAt + COUNTDOWN_GRACE_MS;
    const adopted = reduce(record, { type: 'adopt', tabId: TAB, ownerAlive: true }, ctx(back));
    expect(adopted.reply).toEqual({ owner: true });
    expect(pendingOf(adopted.record).restartAt).toBe(back + 5 * SEC);
  });

  it('a countdown whose deadline passed more than 2 min ago with no page is skipped, not carried', () => {
    const { record, status } = scheduled();
    const later = status.restartAt + COUNTDOWN_GRACE_MS + 1;
    for (const event of [
      { type: 'adopt', tabId: OTHER_TAB, ownerAlive: false },
      { type: 'adopt', tabId: TAB, ownerAlive: true },
      { type: 'adopt', tabId: OTHER_TAB, ownerAlive: true },
    ] as const) {
      const result = reduce(record, event, ctx(later));
      expect(result.reply).toEqual({ owner: false });
      expect(result.record.status).toEqual({ kind: 'watching' });
      expect(result.record.history.at(-1)).toMatchObject({
        type: 'skipped',
        at: later,
        verdict: cudaOom,
        action: 'restart-and-run-all',
        params: { minutes: 2 },
      });
      expect(result.record).toMatchObject({ loopCount: 0, totalRestarts: 0 });
    }
    const claim = { type: 'claim' as const, tabId: OTHER_TAB, attempt: status.attempt };
    expect(reduce(record, claim, ctx(later)).reply).toMatchObject({ granted: false });
  });

  it('a week-old countdown never runs on the next visit; a new failure there starts a new one', () => {
    const { record } = scheduled();
    const visit = T0 + 7 * 24 * 60 * MIN;
    const opened = reduce(record, { type: 'adopt', tabId: OTHER_TAB, ownerAlive: false }, ctx(visit)).record;
    expect(opened.status.kind).toBe('watching');
    const again = reduce(opened, failure(visit + MIN, { tabId: OTHER_TAB }), ctx(visit + MIN));
    expect(again.reply).toMatchObject({ outcome: 'scheduled', restartAt: visit + MIN + 5 * SEC });
  });

  it('a countdown of another browser session has no live owner, whatever its tab id', () => {
    const { record, status } = scheduled();
    const restarted = ctx(T0 + 2 * SEC, defaultSettings(), 'session-2');
    const same = reduce(record, { type: 'adopt', tabId: TAB, ownerAlive: true }, restarted);
    expect(same.reply).toEqual({ owner: true });
    expect(pendingOf(same.record)).toMatchObject({ ownerTab: TAB, restartAt: T0 + 7 * SEC, session: 'session-2' });
    const other = reduce(record, { type: 'adopt', tabId: OTHER_TAB, ownerAlive: true }, restarted);
    expect(pendingOf(other.record)).toMatchObject({ ownerTab: OTHER_TAB, session: 'session-2' });
    // After the 2-minute bound it is gone for good.
    const late = ctx(status.restartAt + COUNTDOWN_GRACE_MS + SEC, defaultSettings(), 'session-2');
    expect(reduce(record, { type: 'adopt', tabId: TAB, ownerAlive: true }, late).record.status.kind).toBe('watching');
  });

  it('a countdown stored before sessions were kept belongs to no live page', () => {
    const { record } = scheduled();
    const { session: _, ...legacy } = pendingOf(record);
    const old: NotebookRecord = { ...record, status: legacy };
    const result = reduce(old, { type: 'adopt', tabId: OTHER_TAB, ownerAlive: true }, ctx(T0 + SEC));
    expect(pendingOf(result.record)).toMatchObject({ ownerTab: OTHER_TAB, restartAt: T0 + 6 * SEC });
  });

  it('the owner reloading mid-restart: the outcome is unknown, counted, never retried', () => {
    const { record, status } = scheduled();
    const running = reduce(
      record,
      { type: 'claim', tabId: TAB, attempt: status.attempt },
      ctx(status.restartAt),
    ).record;
    const result = reduce(running, { type: 'adopt', tabId: TAB, ownerAlive: true }, ctx(status.restartAt + 3 * SEC));
    expect(result.reply).toEqual({ owner: false });
    expect(result.record).toMatchObject({
      status: { kind: 'watching' },
      loopCount: 1,
      totalRestarts: 1,
      lastRestartAt: status.restartAt,
    });
    expect(result.record.history.at(-1)).toMatchObject({ type: 'interrupted' });
    expect(
      reduce(result.record, { type: 'claim', tabId: TAB, attempt: status.attempt }, ctx(status.restartAt + 4 * SEC))
        .reply,
    ).toMatchObject({ granted: false });
  });

  it('a restart owned by a closed tab is interrupted; one owned by a live tab is left alone', () => {
    const { record, status } = scheduled();
    const running = reduce(
      record,
      { type: 'claim', tabId: TAB, attempt: status.attempt },
      ctx(status.restartAt),
    ).record;
    expect(
      reduce(running, { type: 'adopt', tabId: OTHER_TAB, ownerAlive: true }, ctx(status.restartAt + SEC)).record,
    ).toBe(running);
    expect(
      reduce(running, { type: 'adopt', tabId: OTHER_TAB, ownerAlive: false }, ctx(status.restartAt + SEC)).record.status
        .kind,
    ).toBe('watching');
  });

  it('changes nothing when no restart is under way', () => {
    const record = enabled();
    expect(reduce(record, { type: 'adopt', tabId: TAB, ownerAlive: false }, ctx(T0))).toMatchObject({
      record,
      reply: { owner: false },
    });
  });
});

describe('the owner tab closing', () => {
  it('ends its restart in progress as interrupted (counted, not retried); leaves a countdown for another tab', () => {
    const scheduled = reduce(enabled(), failure(T0), ctx(T0)).record;
    const { attempt, restartAt } = pendingOf(scheduled);
    expect(
      reduce(scheduled, { type: 'tab-closed', tabId: TAB, gone: 'closed', othersShow: true }, ctx(T0 + SEC)).record,
    ).toBe(scheduled);
    const running = reduce(scheduled, { type: 'claim', tabId: TAB, attempt }, ctx(restartAt)).record;
    expect(
      reduce(running, { type: 'tab-closed', tabId: OTHER_TAB, gone: 'closed', othersShow: true }, ctx(restartAt + SEC))
        .record,
    ).toBe(running);
    const closed = reduce(
      running,
      { type: 'tab-closed', tabId: TAB, gone: 'closed', othersShow: true },
      ctx(restartAt + SEC),
    ).record;
    expect(closed.status.kind).toBe('watching');
    expect(closed).toMatchObject({ loopCount: 1, totalRestarts: 1 });
    expect(closed.history.at(-1)?.type).toBe('interrupted');
  });
});

describe('a tab gone while its run went on', () => {
  const busy = (tabId = TAB): PolicyEvent => ({ type: 'activity', tabId, busy: true });
  const gone = (gone: 'closed' | 'discarded' | 'navigated', othersShow = false, tabId = TAB): PolicyEvent => ({
    type: 'tab-closed',
    tabId,
    gone,
    othersShow,
  });

  it('closed, discarded or navigated away with cells under way: a history entry and an alert, saying how', () => {
    const running = reduce(enabled(), busy(), ctx(T0)).record;
    for (const way of ['closed', 'discarded', 'navigated'] as const) {
      const { record, effects } = reduce(running, gone(way), ctx(T0 + MIN));
      const entry = { at: T0 + MIN, type: 'tab-gone', params: { why: way, tab: TAB } };
      expect(record.history.at(-1)).toEqual(entry);
      expect(effects).toEqual([{ type: 'notify', kind: 'tab-gone', key: KEY, title: running.title, entry }]);
    }
  });

  it('the tab counting down to a restart, or restarting, is the run too', () => {
    const scheduled = reduce(enabled(), failure(T0), ctx(T0)).record;
    expect(reduce(scheduled, gone('closed'), ctx(T0 + SEC)).effects.map((e) => e.kind)).toEqual(['tab-gone']);
    const { attempt, restartAt } = pendingOf(scheduled);
    const running = reduce(scheduled, { type: 'claim', tabId: TAB, attempt }, ctx(restartAt)).record;
    const closed = reduce(running, gone('closed'), ctx(restartAt + SEC));
    expect(closed.record.history.slice(-2).map((e) => e.type)).toEqual(['interrupted', 'tab-gone']);
    expect(closed.effects.map((e) => e.kind)).toEqual(['tab-gone']);
  });

  it('nothing is told when another tab still shows the notebook, or the tab carried no run', () => {
    const running = reduce(enabled(), busy(), ctx(T0)).record;
    expect(reduce(running, gone('closed', true), ctx(T0 + MIN)).effects).toEqual([]);
    expect(reduce(running, gone('closed', false, OTHER_TAB), ctx(T0 + MIN)).effects).toEqual([]);
    expect(reduce(enabled(), gone('closed'), ctx(T0 + MIN)).record.history).toEqual([]);
    const off = reduce(running, { type: 'set-enabled', enabled: false }, ctx(T0 + SEC)).record;
    expect(reduce(off, gone('closed'), ctx(T0 + MIN)).effects).toEqual([]);
  });

  it('is told once, though the browser reports the navigation again', () => {
    const scheduled = reduce(enabled(), failure(T0), ctx(T0)).record;
    const first = reduce(scheduled, gone('navigated'), ctx(T0 + SEC)).record;
    const again = reduce(first, gone('navigated'), ctx(T0 + 2 * SEC));
    expect(again.effects).toEqual([]);
    expect(again.record.history.filter((e) => e.type === 'tab-gone')).toHaveLength(1);
  });
});
