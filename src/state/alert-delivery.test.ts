import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AlertLog,
  afterFailure,
  afterSuccess,
  dueAlerts,
  emptyAlertLog,
  MAX_FAILURES,
  MAX_PENDING,
  nextDue,
  parseAlertLog,
  queueAlert,
  responseError,
  withoutAlert,
} from './alert-delivery';

const request = { url: 'https://ntfy.sh/x', headers: {}, body: 'hi' };
const alert = (id: string, dueAt = 0) => ({ id, event: 'gave-up' as const, dueAt, request });
const network = { kind: 'network' as const, message: 'Failed to fetch' };

describe('alert delivery', () => {
  it('tries again 10 s, 1 min and 5 min after failures, then gives up and says so', () => {
    let log = queueAlert(emptyAlertLog(), alert('a', 1000));
    const dues: number[] = [];
    let now = 1000;
    for (let i = 0; i < 3; i++) {
      log = afterFailure(log, 'a', network, now);
      const due = nextDue(log);
      if (due === null) throw new Error('no retry');
      dues.push(due - now);
      now = due;
    }
    expect(dues).toEqual([10_000, 60_000, 300_000]);
    log = afterFailure(log, 'a', { kind: 'http', status: 500 }, now);
    expect(log.pending).toEqual([]);
    expect(log.failures.map((f) => f.final)).toEqual([false, false, false, true]);
    expect(log.failures.at(-1)).toEqual({
      at: now,
      event: 'gave-up',
      error: { kind: 'http', status: 500 },
      final: true,
    });
  });

  it('clears the failures listed once an alert is delivered', () => {
    let log = queueAlert(queueAlert(emptyAlertLog(), alert('a')), alert('b'));
    log = afterFailure(log, 'a', network, 5);
    expect(log.failures).toHaveLength(1);
    log = afterSuccess(log, 'b');
    expect(log.failures).toEqual([]);
    expect(log.pending.map((p) => p.id)).toEqual(['a']);
  });

  it('lists which alerts are due, and forgets one that cannot be sent', () => {
    const log = queueAlert(queueAlert(emptyAlertLog(), alert('now', 10)), alert('later', 50));
    expect(dueAlerts(log, 20).map((p) => p.id)).toEqual(['now']);
    expect(nextDue(log)).toBe(10);
    expect(withoutAlert(log, 'now').pending.map((p) => p.id)).toEqual(['later']);
    expect(nextDue(emptyAlertLog())).toBeNull();
  });

  it('keeps at most the newest waiting alerts and failures, whatever happens', () => {
    type Step = { op: 'queue' } | { op: 'fail' | 'ok'; pick: number };
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.constant({ op: 'queue' as const }),
      fc.record({ op: fc.constantFrom('fail' as const, 'ok' as const), pick: fc.nat() }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 80 }), (steps) => {
        let log: AlertLog = emptyAlertLog();
        let n = 0;
        for (const s of steps) {
          if (s.op === 'queue') log = queueAlert(log, alert(`id${n++}`, n));
          else {
            const target = log.pending[s.pick % Math.max(1, log.pending.length)];
            if (!target) continue;
            log = s.op === 'ok' ? afterSuccess(log, target.id) : afterFailure(log, target.id, network, n);
          }
          if (log.pending.length > MAX_PENDING || log.failures.length > MAX_FAILURES) return false;
          if (log.pending.some((p) => p.tries > 3)) return false;
        }
        return new Set(log.pending.map((p) => p.id)).size === log.pending.length;
      }),
    );
  });

  it('counts any 2xx as delivered', () => {
    expect(responseError(200)).toBeNull();
    expect(responseError(204)).toBeNull();
    expect(responseError(301)).toEqual({ kind: 'http', status: 301 });
    expect(responseError(500)).toEqual({ kind: 'http', status: 500 });
  });

  it('reads a corrupt stored log as empty', () => {
    expect(parseAlertLog({ v: 1, pending: 'x' })).toEqual(emptyAlertLog());
    expect(parseAlertLog(undefined)).toEqual(emptyAlertLog());
  });
});

describe('alert delivery with several alerts waiting', () => {
  it('a failed try moves only its own alert on; an unknown one changes nothing', () => {
    const log = queueAlert(queueAlert(emptyAlertLog(), alert('a', 1000)), alert('b', 1000));
    const retried = afterFailure(log, 'b', network, 1000);
    expect(retried.pending).toEqual([
      { ...alert('a', 1000), tries: 0 },
      { ...alert('b', 11_000), tries: 1 },
    ]);
    let last = retried;
    for (const now of [11_000, 71_000, 371_000]) last = afterFailure(last, 'b', network, now);
    expect(last.pending).toEqual([{ ...alert('a', 1000), tries: 0 }]);
    expect(afterFailure(log, 'c', network, 1000)).toBe(log);
  });

  it('keeps the newest 20 waiting and lists the last five failures (docs/alerts.md)', () => {
    let log = emptyAlertLog();
    for (let i = 0; i < 25; i++) log = queueAlert(log, alert(`a${i}`, i));
    expect(log.pending.map((p) => p.id)).toEqual(Array.from({ length: 20 }, (_, i) => `a${i + 5}`));
    for (let i = 5; i < 12; i++) log = afterFailure(log, `a${i}`, network, 100 + i);
    expect(log.failures.map((f) => f.at)).toEqual([107, 108, 109, 110, 111]);
  });

  it('an alert due now is due; any 2xx is delivered, and nothing else is', () => {
    expect(dueAlerts(queueAlert(emptyAlertLog(), alert('a', 5000)), 5000).map((p) => p.id)).toEqual(['a']);
    for (const status of [200, 204, 299]) expect(responseError(status)).toBeNull();
    for (const status of [101, 199, 300, 404]) expect(responseError(status)).toEqual({ kind: 'http', status });
  });

  it('a stored log with nothing waiting and no failures reads as empty', () => {
    expect(parseAlertLog({ v: 1 })).toEqual(emptyAlertLog());
  });
});
