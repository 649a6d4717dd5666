import * as v from 'valibot';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  ctx,
  cudaOom,
  EVENT_EXAMPLES,
  enabled,
  failAndRestart,
  failure,
  HISTORY_LIMIT,
  MIN,
  marker,
  OTHER_TAB,
  pendingOf,
  resetAttempts,
  SEC,
  SESSION,
  T0,
  TAB,
} from '../../test/support/policy';
import { cleanTitle, createsRecord, type PolicyEvent, REPLY_KIND, reduce } from './policy';
import { defaultSettings, NotebookRecordSchema } from './schema';
import { WHY_KINDS, type Why } from './why';

// The restart policy as a whole: the invariants every record keeps, what it leaves for storage, what it says.

beforeEach(resetAttempts);

describe('every kind of event', () => {
  /** What tells each kind of reply from the others. */
  const MARK = { report: 'outcome', claim: 'granted', command: 'ok', adopt: 'owner' } as const;

  it.each(Object.values(EVENT_EXAMPLES))('$type is handled, with the kind of reply REPLY_KIND declares', (event) => {
    const { reply } = reduce(enabled(), event, ctx(T0));
    expect(Object.keys(reply)).toContain(MARK[REPLY_KIND[event.type]]);
  });
});

describe('invariants', () => {
  it('every record the reducer produces reads back valid, with a bounded history', () => {
    // A deterministic pseudo-random walk through all events, including hostile inputs.
    let seed = 42;
    const random = (n: number) => {
      // mulberry32
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    const settings = { ...defaultSettings(), reconnectOnDisconnect: true, markerDailyLimit: 5 };
    let record = enabled();
    let now = T0;
    const visited = new Set<string>();
    let skipped = 0;
    for (let i = 0; i < 3000; i++) {
      // Now and then a long gap (a computer asleep) or an event from another browser session.
      now += random(20) * SEC + (random(40) === 0 ? 10 * MIN : 0);
      const session = random(20) === 0 ? 'session-2' : SESSION;
      const tabId = random(2) === 0 ? TAB : OTHER_TAB;
      const status = record.status;
      const attempt = status.kind === 'pending' || status.kind === 'restarting' ? status.attempt : 'none';
      const events: PolicyEvent[] = [
        failure(now - random(5) * SEC, { tabId, verdict: { ...cudaOom, line: 'x'.repeat(5000) } }),
        failure(now, { tabId, source: 'crash-toast' }),
        marker(now, tabId),
        { type: 'disconnect', tabId, detectedAt: now, kind: 'idle', line: 'gone' },
        { type: 'disconnect', tabId, detectedAt: now, kind: 'disallowed-code', line: 'gone' },
        { type: 'dialog', tabId, detectedAt: now, kind: 'drive-permission', text: 'Drive?' },
        {
          type: 'restart-result',
          tabId,
          attempt,
          ok: false,
          failed: { step: 'reconnect', reason: 'unable-to-connect', saw: 'u' },
          runtime: 'unable-to-connect',
        },
        {
          type: 'restart-result',
          tabId,
          attempt,
          ok: false,
          failed: { step: 'reconnect', reason: 'not-needed', saw: 'n' },
          runtime: 'not-needed',
        },
        { type: 'claim', tabId, attempt },
        { type: 'restart-result', tabId, attempt, ok: true },
        {
          type: 'restart-result',
          tabId,
          attempt,
          ok: false,
          failed: { step: 'verify', reason: 'r'.repeat(300), saw: 'd'.repeat(3000) },
        },
        { type: 'cancel' },
        { type: 'rearm' },
        { type: 'reset-counter' },
        { type: 'set-enabled', enabled: random(4) !== 0 },
        { type: 'set-max-restarts', value: random(3) === 0 ? null : random(6) },
        { type: 'set-title', title: 't'.repeat(random(700)) },
        { type: 'adopt', tabId, ownerAlive: random(2) === 0 },
        { type: 'activity', tabId, busy: random(2) === 0 },
        { type: 'tab-closed', tabId, gone: 'discarded', othersShow: random(2) === 0 },
        {
          type: 'declined',
          detectedAt: now,
          startedAt: now,
          reason: 'earlier-error',
          verdict: { ...cudaOom, line: 'y'.repeat(5000) },
        },
      ];
      const event = events[random(events.length)]!;
      record = reduce(record, event, ctx(now, settings, session)).record;
      if (record.history.at(-1)?.type === 'skipped') skipped++;
      visited.add(record.status.kind);
      const check = v.safeParse(NotebookRecordSchema, record);
      if (!check.success)
        throw new Error(`invalid after ${event.type}: ${JSON.stringify(check.issues[0].path?.map((p) => p.key))}`);
    }
    expect(record.history.length).toBeLessThanOrEqual(HISTORY_LIMIT);
    expect(record.totalRestarts).toBeGreaterThan(0);
    expect([...visited].sort(), `skipped ${skipped}`).toEqual([
      'gave-up',
      'pending',
      'restarting',
      'ui-problem',
      'watching',
    ]);
    expect(skipped).toBeGreaterThan(0);
  });
});

describe('what the reducer leaves for storage', () => {
  it('only a switch or a limit of its own creates a record', () => {
    const creating: PolicyEvent[] = [
      { type: 'set-enabled', enabled: true },
      { type: 'set-max-restarts', value: 4 },
    ];
    const others: PolicyEvent[] = [
      { type: 'set-title', title: 'train.ipynb' },
      { type: 'adopt', tabId: TAB, ownerAlive: false },
      failure(T0),
      { type: 'cancel' },
    ];
    expect(creating.map(createsRecord)).toEqual([true, true]);
    expect(others.map(createsRecord)).toEqual([false, false, false, false]);
  });

  it('stamps touchedAt on every change but a new title, and leaves an unchanged record the same object', () => {
    const record = enabled({ touchedAt: T0 - MIN });
    expect(reduce(record, failure(T0), ctx(T0)).record.touchedAt).toBe(T0);
    expect(reduce(record, { type: 'set-title', title: 'other' }, ctx(T0)).record.touchedAt).toBe(T0 - MIN);
    expect(reduce(record, { type: 'cancel' }, ctx(T0)).record).toBe(record);
  });

  it('drops history entries older than 90 days whenever one is added', () => {
    const day = 24 * 60 * MIN;
    const record = enabled({
      history: [
        { at: T0 - 91 * day, type: 'enabled' },
        { at: T0 - 89 * day, type: 'cancelled' },
      ],
    });
    const next = reduce(record, failure(T0), ctx(T0)).record;
    expect(next.history.map((e) => e.type)).toEqual(['cancelled', 'restart-scheduled']);
  });

  it('removes control and bidirectional characters from titles', () => {
    expect(cleanTitle('  \u202Egnp.ipynb\u202C\u0007 ')).toBe('gnp.ipynb');
    expect(cleanTitle('a\u2066b\u2069\u200Fc\nd')).toBe('abcd');
    const record = enabled();
    expect(reduce(record, { type: 'set-title', title: '\u202Etrain' }, ctx(T0)).record.title).toBe('train');
  });
});

describe('what the reducer says, and the edges the walk above does not pin', () => {
  it('every refusal, absorbed or ignored report and history entry says why, as data the pages put in words', () => {
    const settings = { ...defaultSettings(), reconnectOnDisconnect: true, markerDailyLimit: 1 };
    const said: Why[] = [];
    let record = enabled();
    let now = T0;
    const step = (event: PolicyEvent, s = settings, session = SESSION) => {
      const result = reduce(record, event, ctx(now, s, session));
      const reply = result.reply as { outcome?: string; granted?: boolean; ok?: boolean; why?: Why };
      const refused = reply.granted === false || reply.ok === false || (reply.outcome ?? 'scheduled') !== 'scheduled';
      expect(reply.why !== undefined, JSON.stringify(reply)).toBe(refused);
      if (reply.why) said.push(reply.why);
      for (const entry of result.record.history.slice(record.history.length)) {
        expect(entry.detail).toBeUndefined();
        for (const value of Object.values(entry.params ?? {})) expect(String(value)).not.toMatch(/^$|undefined|NaN/);
      }
      record = result.record;
      return result;
    };
    step({ ...failure(now), verdict: { ...cudaOom, category: 'gpu-fault' } });
    for (let i = 0; i < 5; i++) {
      step(failure(now));
      step(failure(now));
      const pending = record.status.kind === 'pending' ? record.status : null;
      if (!pending) break;
      step({ type: 'restart-result', tabId: TAB, attempt: pending.attempt, ok: true });
      now = pending.restartAt;
      step({ type: 'claim', tabId: OTHER_TAB, attempt: pending.attempt });
      step({ type: 'claim', tabId: TAB, attempt: pending.attempt });
      step({ type: 'claim', tabId: TAB, attempt: pending.attempt });
      now += SEC;
      step(failure(now));
      step({ type: 'restart-result', tabId: TAB, attempt: pending.attempt, ok: true });
      now += MIN;
    }
    step(failure(now));
    step(marker(now));
    step({ type: 'rearm' });
    step(marker(now));
    step(marker(now));
    step({ type: 'disconnect', tabId: TAB, detectedAt: now, kind: 'idle', line: 'Runtime disconnected' });
    step({ type: 'set-max-restarts', value: -1 });
    step(
      { type: 'disconnect', tabId: TAB, detectedAt: now, kind: 'idle', line: 'Runtime disconnected' },
      defaultSettings(),
    );
    step({ type: 'set-enabled', enabled: false });
    step(failure(now));
    step({ type: 'disconnect', tabId: TAB, detectedAt: now, kind: 'idle', line: 'Runtime disconnected' });
    expect(said.length).toBeGreaterThan(15);
    for (const why of said) {
      expect(WHY_KINDS).toContain(why.kind);
      for (const value of Object.values(why))
        expect(String(value), JSON.stringify(why)).not.toMatch(/^$|undefined|NaN/);
    }
    expect(new Set(said.map((why) => why.kind)).size).toBeGreaterThan(8);
  });

  it('a disconnect: nothing while off, even with reconnecting on; absorbed while a restart is pending', () => {
    const settings = { ...defaultSettings(), reconnectOnDisconnect: true };
    const disconnect = {
      type: 'disconnect' as const,
      tabId: TAB,
      detectedAt: T0,
      kind: 'idle' as const,
      line: 'Runtime disconnected',
    };
    const off = { ...enabled(), enabled: false };
    expect(reduce(off, disconnect, ctx(T0, settings))).toMatchObject({ record: off, reply: { outcome: 'off' } });
    const pending = reduce(enabled(), failure(T0), ctx(T0, settings)).record;
    const again = reduce(pending, disconnect, ctx(T0 + SEC, settings));
    expect(again.reply).toEqual({ outcome: 'absorbed', why: { kind: 'restart-pending' } });
    expect(again.record.status).toEqual(pending.status);
  });

  it('gives up counting the restarts made and the limit', () => {
    const once = failAndRestart(enabled({ overrides: { maxRestarts: 1 } }), T0);
    const gaveUp = reduce(once.record, failure(once.doneAt + MIN), ctx(once.doneAt + MIN)).record;
    expect(gaveUp.history.at(-1)?.params).toEqual({ why: 'failed-again', n: 1, max: 1 });
    let record = enabled();
    let now = T0;
    for (let i = 0; i < 3; i++) {
      const cycle = failAndRestart(record, now);
      record = cycle.record;
      now = cycle.doneAt + MIN;
    }
    const last = reduce(record, failure(now), ctx(now)).record;
    expect(last.history.at(-1)?.params).toEqual({ why: 'failed-again', n: 3, max: 3 });
  });

  it('no healthy-reset note for a crash loop already at zero', () => {
    const record = enabled({ lastRestartAt: T0 - 60 * MIN, totalRestarts: 1, loopCount: 0 });
    const result = reduce(record, failure(T0), ctx(T0));
    expect(result.record.history.map((e) => e.type)).toEqual(['restart-scheduled']);
  });

  it('a result while the restart is only pending is refused and changes nothing', () => {
    const pending = reduce(enabled(), failure(T0), ctx(T0)).record;
    const { attempt } = pendingOf(pending);
    const result = reduce(pending, { type: 'restart-result', tabId: TAB, attempt, ok: true }, ctx(T0 + SEC));
    expect(result.reply).toEqual({
      ok: false,
      why: { kind: 'no-restart-in-progress' },
    });
    expect(result.record).toBe(pending);
  });

  it('a failed step is answered ok (recorded), and a marker restart is noted as such when done', () => {
    const pending = reduce(enabled(), failure(T0), ctx(T0)).record;
    const { attempt, restartAt } = pendingOf(pending);
    const claimed = reduce(pending, { type: 'claim', tabId: TAB, attempt }, ctx(restartAt)).record;
    const failed = {
      type: 'restart-result' as const,
      tabId: TAB,
      attempt,
      ok: false as const,
      failed: { step: 'verify' as const, reason: 'r', saw: 'd' },
    };
    expect(reduce(claimed, failed, ctx(restartAt + SEC)).reply).toEqual({ ok: true });

    const marked = reduce(enabled(), marker(T0), ctx(T0)).record;
    const m = pendingOf(marked);
    const run = reduce(marked, { type: 'claim', tabId: TAB, attempt: m.attempt }, ctx(m.restartAt)).record;
    const done = reduce(run, { type: 'restart-result', tabId: TAB, attempt: m.attempt, ok: true }, ctx(m.restartAt));
    expect(done.record.history.at(-1)).toMatchObject({ type: 'restarted', params: { why: 'marker' } });
  });

  it('says why a countdown starts again in a page: reloaded, taken over, or from an earlier browser session', () => {
    const pending = reduce(enabled(), failure(T0), ctx(T0)).record;
    const adopt = (tabId: number, session: string) =>
      reduce(
        pending,
        { type: 'adopt', tabId, ownerAlive: false },
        ctx(T0 + SEC, defaultSettings(), session),
      ).record.history.at(-1)?.params;
    expect(adopt(TAB, SESSION)).toEqual({ why: 'reloaded', tab: 7, delaySec: 5 });
    expect(adopt(OTHER_TAB, SESSION)).toEqual({ why: 'took-over', tab: 8, delaySec: 5 });
    expect(adopt(TAB, 'session-2')).toEqual({ why: 'browser-restarted', tab: 7, delaySec: 5 });
  });

  it('switching on after a Colab UI problem starts fresh, as after a give-up', () => {
    const problem = enabled({
      status: { kind: 'ui-problem', at: T0, failed: { step: 'verify', reason: 'no-run-started', saw: '' } },
      loopCount: 2,
    });
    const off = reduce(problem, { type: 'set-enabled', enabled: false }, ctx(T0)).record;
    const on = reduce(off, { type: 'set-enabled', enabled: true }, ctx(T0 + SEC)).record;
    expect(on).toMatchObject({ enabled: true, status: { kind: 'watching' }, loopCount: 0 });
  });

  it('drops a history entry exactly 90 days old when one is added; one a moment younger stays', () => {
    const DAY = 24 * 60 * MIN;
    const record = enabled({
      history: [
        { at: T0 - 90 * DAY, type: 'enabled' },
        { at: T0 - 90 * DAY + 1, type: 'cancelled' },
      ],
    });
    const result = reduce(record, { type: 'cancel' }, ctx(T0));
    const next = reduce(result.record, failure(T0), ctx(T0)).record;
    expect(next.history.map((e) => e.type)).toEqual(['cancelled', 'restart-scheduled']);
  });
});
