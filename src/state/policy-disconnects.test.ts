import { beforeEach, describe, expect, it } from 'vitest';
import {
  ctx,
  enabled,
  failure,
  KEY,
  MIN,
  OTHER_TAB,
  pendingOf,
  resetAttempts,
  SEC,
  T0,
  TAB,
} from '../../test/support/policy';
import type { DisconnectKind } from './disconnect';
import { type PolicyEvent, reduce } from './policy';
import { defaultNotebook, defaultSettings, type NotebookRecord } from './schema';

// Disconnect reports (state/policy-reports.ts) and the reconnects they lead to (state/policy-restarts.ts).

beforeEach(resetAttempts);

describe('disconnects', () => {
  const RECONNECT = { ...defaultSettings(), reconnectOnDisconnect: true, backoffBaseSec: 5 };
  const IDLE_TEXT = 'Runtime disconnected Your runtime has been disconnected due to inactivity.';
  const disconnect = (kind: DisconnectKind, at = T0, line = IDLE_TEXT, tabId = TAB): PolicyEvent => ({
    type: 'disconnect',
    tabId,
    detectedAt: at,
    kind,
    line,
  });

  /** The owner claims the pending reconnect at its deadline; the page reports `result`. */
  function claimAndReport(
    record: NotebookRecord,
    result: Partial<Extract<PolicyEvent, { type: 'restart-result' }>>,
    settings = RECONNECT,
  ) {
    const { restartAt, attempt } = pendingOf(record);
    const claimed = reduce(record, { type: 'claim', tabId: TAB, attempt }, ctx(restartAt, settings));
    expect(claimed.reply).toEqual({ granted: true, action: 'reconnect-and-run-all' });
    const event = { type: 'restart-result', tabId: TAB, attempt, ok: true, ...result } as PolicyEvent;
    return { at: restartAt + 3 * SEC, ...reduce(claimed.record, event, ctx(restartAt + 3 * SEC, settings)) };
  }

  const unableResult = {
    ok: false,
    failed: { step: 'reconnect', reason: 'unable-to-connect', saw: 'Unable to connect to the runtime.' },
    runtime: 'unable-to-connect',
  } as const;

  it('are ignored unless reconnecting is switched on', () => {
    const record = enabled();
    expect(reduce(record, disconnect('idle'), ctx(T0))).toMatchObject({ record, reply: { outcome: 'ignored' } });
  });

  it('an idle time-out: reconnect and run all when switched on, counting toward the loop limit', () => {
    const result = reduce(enabled(), disconnect('idle'), ctx(T0, RECONNECT));
    expect(pendingOf(result.record)).toMatchObject({
      reason: 'disconnect',
      action: 'reconnect-and-run-all',
      verdict: { rule: 'runtime-disconnected', description: 'Runtime disconnected', line: IDLE_TEXT },
    });
    expect(
      reduce(enabled({ loopCount: 3, lastRestartAt: T0 - MIN }), disconnect('idle'), ctx(T0, RECONNECT)).record.status
        .kind,
    ).toBe('gave-up');
  });

  describe('the ones Colab or the notebook meant, or the guard cannot read, are left to the person', () => {
    const LEFT: Array<[DisconnectKind, string, string]> = [
      ['disallowed-code', 'disconnected-disallowed-code', 'Runtime disconnected: disallowed code'],
      ['zero-units', 'disconnected-zero-units', 'Runtime disconnected: no compute units'],
      ['usage-limit', 'disconnected-usage-limit', 'Runtime disconnected: usage limits'],
      ['intended', 'runtime-ended-by-notebook', 'Runtime ended by the notebook'],
      ['unknown', 'disconnected-unknown', 'Runtime disconnected: unrecognised message'],
    ];
    for (const [kind, rule, description] of LEFT) {
      it(`${kind}: never scheduled, whatever the setting; the history says what Colab said`, () => {
        const said = `Runtime disconnected (${kind} words)`;
        for (const settings of [defaultSettings(), RECONNECT]) {
          const result = reduce(enabled(), disconnect(kind, T0, said), ctx(T0, settings));
          expect(result.reply).toMatchObject({ outcome: 'ignored' });
          expect(result.record.status).toEqual({ kind: 'watching' });
          expect(result.record.history).toEqual([
            {
              at: T0,
              type: 'left-to-person',
              params: { why: 'disconnect' },
              verdict: { category: 'colab-crash', rule, description, line: said },
            },
          ]);
          expect(result.record.loopCount).toBe(0);
          expect(result.record.lastFailureAt).toBeUndefined();
          expect(result.effects).toEqual([
            {
              type: 'notify',
              kind: 'left-to-person',
              key: KEY,
              title: 'train.ipynb',
              entry: result.record.history[0],
            },
          ]);
        }
      });
    }

    it('a countdown due is cancelled: it would run the notebook again on a new runtime', () => {
      const pending = reduce(enabled(), failure(T0), ctx(T0, RECONNECT)).record;
      const result = reduce(pending, disconnect('disallowed-code', T0 + SEC, 'disallowed'), ctx(T0 + SEC, RECONNECT));
      expect(result.record.status).toEqual({ kind: 'watching' });
      expect(result.record.history.at(-1)).toMatchObject({
        type: 'left-to-person',
        params: { why: 'disconnect', cancelled: true },
        verdict: { description: 'Runtime disconnected: disallowed code' },
      });
      // Its claim finds nothing to do.
      const { attempt } = pendingOf(pending);
      expect(reduce(result.record, { type: 'claim', tabId: TAB, attempt }, ctx(T0 + 6 * SEC, RECONNECT)).reply).toEqual(
        { granted: false, why: { kind: 'no-pending' } },
      );
    });

    it('is written once while every tab shows the same notice, and again when it comes back later', () => {
      let record = reduce(enabled(), disconnect('zero-units', T0, 'zero'), ctx(T0)).record;
      const once = reduce(record, disconnect('zero-units', T0 + SEC, 'zero', OTHER_TAB), ctx(T0 + SEC));
      expect(once.record).toBe(record);
      expect(once.effects).toEqual([]);
      record = reduce(record, disconnect('zero-units', T0 + 11 * MIN, 'zero'), ctx(T0 + 11 * MIN)).record;
      expect(record.history.filter((e) => e.type === 'left-to-person')).toHaveLength(2);
    });

    it('nothing is written while the guard is off', () => {
      const record = defaultNotebook(KEY);
      expect(reduce(record, disconnect('disallowed-code'), ctx(T0))).toMatchObject({
        record,
        reply: { outcome: 'off' },
      });
    });
  });

  describe('Colab unable to connect (an outage): one reconnect per crash-loop slot, then the guard gives up', () => {
    it('each attempt is counted, the next waits its back-off as a countdown, the last gives up in words', () => {
      const settings = { ...RECONNECT, maxRestarts: 2 };
      let { record } = reduce(enabled(), disconnect('unable-to-connect', T0, 'Unable to connect'), ctx(T0, settings));
      expect(pendingOf(record)).toMatchObject({
        reason: 'disconnect',
        action: 'reconnect-and-run-all',
        restartAt: T0 + 5 * SEC,
        verdict: { rule: 'unable-to-connect', description: 'Colab could not connect to the runtime' },
      });
      const first = claimAndReport(record, unableResult, settings);
      record = first.record;
      expect(record.loopCount).toBe(1);
      expect(record.lastRestartAt).toBe(T0 + 5 * SEC);
      expect(pendingOf(record)).toMatchObject({ action: 'reconnect-and-run-all', restartAt: first.at + 10 * SEC });
      expect(record.history.slice(-2)).toMatchObject([
        {
          type: 'restart-failed',
          failed: unableResult.failed,
          verdict: { rule: 'unable-to-connect', line: 'unable-to-connect; saw: Unable to connect to the runtime.' },
          action: 'reconnect-and-run-all',
        },
        {
          type: 'restart-scheduled',
          params: { why: 'reconnect', n: 2, max: 2, delaySec: 10 },
          action: 'reconnect-and-run-all',
        },
      ]);
      // The toast Colab showed during the attempt, reported after it: the next slot's attempt is already pending.
      expect(
        reduce(record, disconnect('unable-to-connect', first.at + SEC, 'Unable'), ctx(first.at + SEC, settings)).reply,
      ).toMatchObject({ outcome: 'absorbed' });
      const second = claimAndReport(record, unableResult, settings);
      expect(second.record.status).toEqual({ kind: 'gave-up', at: second.at, restarts: 2 });
      expect(second.record.history.at(-1)).toMatchObject({
        type: 'gave-up',
        params: { why: 'unable-to-connect', n: 2, max: 2 },
        verdict: { rule: 'unable-to-connect' },
      });
      expect(second.effects).toEqual([expect.objectContaining({ type: 'notify', kind: 'gave-up' })]);
      expect(
        reduce(second.record, disconnect('unable-to-connect', second.at + SEC), ctx(second.at + SEC, settings)).reply,
      ).toMatchObject({ outcome: 'ignored' });
    });

    it('a reconnect that finds the runtime connected again does nothing and counts nothing', () => {
      const pending = reduce(enabled(), disconnect('unable-to-connect'), ctx(T0, RECONNECT)).record;
      const done = claimAndReport(pending, {
        ok: false,
        failed: { step: 'reconnect', reason: 'not-needed', saw: 'runtime busy' },
        runtime: 'not-needed',
      });
      expect(done.record.status).toEqual({ kind: 'watching' });
      expect(done.record.loopCount).toBe(0);
      expect(done.record.totalRestarts).toBe(0);
      expect(done.record.history.at(-1)).toMatchObject({
        type: 'ignored',
        params: { why: 'reconnect-not-needed' },
      });
    });

    it('a reconnect that fails any other way is a UI problem: the guard stops', () => {
      const pending = reduce(enabled(), disconnect('idle'), ctx(T0, RECONNECT)).record;
      const failed = { step: 'reconnect', reason: 'drive-permission', saw: '' } as const;
      const done = claimAndReport(pending, { ok: false, failed });
      expect(done.record.status).toMatchObject({ kind: 'ui-problem', failed });
    });
  });

  describe('reconnects are bounded like restarts', () => {
    it('each one done counts toward the crash loop, with the back-off growing, and a healthy stretch resets it', () => {
      let record = enabled();
      const delays: number[] = [];
      let at = T0;
      for (let i = 0; i < 3; i++) {
        record = reduce(record, disconnect('idle', at), ctx(at, RECONNECT)).record;
        delays.push((pendingOf(record).restartAt - at) / SEC);
        const done = claimAndReport(record, {});
        record = done.record;
        at = done.at + SEC;
      }
      expect(delays).toEqual([5, 10, 20]);
      expect(record.loopCount).toBe(3);
      expect(reduce(record, disconnect('idle', at), ctx(at, RECONNECT)).record.status.kind).toBe('gave-up');
      const later = at + RECONNECT.healthyMinutes * MIN;
      expect(pendingOf(reduce(record, disconnect('idle', later), ctx(later, RECONNECT)).record)).toMatchObject({
        restartAt: later + 5 * SEC,
      });
    });
  });
});
