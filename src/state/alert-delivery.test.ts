import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AlertLog,
  admitAlert,
  afterFailure,
  afterSuccess,
  dueAlerts,
  emptyAlertLog,
  isRedirect,
  MAX_FAILURES,
  MAX_PENDING,
  nextDue,
  parseAlertLog,
  queueAlert,
  type ReceiverResponse,
  responseError,
  retryAfterSeconds,
  telegramError,
  withoutAlert,
} from './alert-delivery';

const request = { url: 'https://ntfy.sh/x', headers: {}, body: 'hi' };
const alert = (id: string, dueAt = 0) => ({ id, event: 'gave-up' as const, dueAt, request });
const network = { kind: 'network' as const, message: 'Failed to fetch' };
/** A plain answer from the receiver itself. */
const answer = (status: number, extra: Partial<ReceiverResponse> = {}): ReceiverResponse => ({
  status,
  type: 'cors',
  redirected: false,
  retryAfter: null,
  body: null,
  ...extra,
});

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
    expect(responseError(answer(200), 0)).toBeNull();
    expect(responseError(answer(204), 0)).toBeNull();
    expect(responseError(answer(500), 0)).toEqual({ kind: 'http', status: 500 });
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
    for (const status of [200, 204, 299]) expect(responseError(answer(status), 0)).toBeNull();
    for (const status of [101, 199, 404]) expect(responseError(answer(status), 0)).toEqual({ kind: 'http', status });
    for (const status of [300, 307, 399]) expect(responseError(answer(status), 0)).toEqual({ kind: 'redirect' });
  });

  it('a stored log with nothing waiting and no failures reads as empty', () => {
    expect(parseAlertLog({ v: 1 })).toEqual(emptyAlertLog());
  });
});

describe('a receiver that asks to wait (HTTP 429, Retry-After, Telegram retry_after)', () => {
  const NOW = Date.UTC(2026, 10, 28, 3, 0, 0);

  it('reads Retry-After as seconds or as an HTTP date, and nothing else', () => {
    expect(retryAfterSeconds('120', NOW)).toBe(120);
    expect(retryAfterSeconds(' 0 ', NOW)).toBe(0);
    expect(retryAfterSeconds('Sat, 28 Nov 2026 03:01:30 GMT', NOW)).toBe(90);
    expect(retryAfterSeconds('Sat, 28 Nov 2026 02:59:00 GMT', NOW)).toBe(0);
    for (const unread of [null, '', 'soon', '-5', '1.5', '12345678901']) {
      expect(retryAfterSeconds(unread, NOW), String(unread)).toBeUndefined();
    }
  });

  it("reads Telegram's error body: its wait and its words", () => {
    const body =
      '{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 34","parameters":{"retry_after":34}}';
    expect(telegramError(body)).toEqual({ waitSec: 34, detail: 'Too Many Requests: retry after 34' });
    expect(telegramError('{"ok":false,"description":"Bad Request: chat not found"}')).toEqual({
      detail: 'Bad Request: chat not found',
    });
    for (const other of [null, '', 'no', '[]', '{"parameters":{"retry_after":"34"}}', '{"description":5}']) {
      expect(telegramError(other)).toEqual({});
    }
  });

  it('says the wait of a 429 or 503 from the header first, else from the body; other statuses wait as usual', () => {
    expect(responseError(answer(429, { retryAfter: '30' }), NOW)).toEqual({ kind: 'http', status: 429, waitSec: 30 });
    expect(responseError(answer(503, { retryAfter: '7' }), NOW)).toEqual({ kind: 'http', status: 503, waitSec: 7 });
    const telegram = answer(429, { body: '{"description":"Too Many Requests","parameters":{"retry_after":12}}' });
    expect(responseError(telegram, NOW)).toEqual({
      kind: 'http',
      status: 429,
      waitSec: 12,
      detail: 'Too Many Requests',
    });
    expect(responseError({ ...telegram, retryAfter: '40' }, NOW)).toMatchObject({ waitSec: 40 });
    expect(responseError(answer(500, { retryAfter: '30' }), NOW)).toEqual({ kind: 'http', status: 500 });
    expect(responseError(answer(429), NOW)).toEqual({ kind: 'http', status: 429 });
  });

  it('tries again no sooner than asked, holds every other alert back, and waits as usual when asked less', () => {
    let log = queueAlert(queueAlert(emptyAlertLog(), alert('a', 0)), alert('b', 0));
    log = afterFailure(log, 'a', { kind: 'http', status: 429, waitSec: 90 }, 1000);
    expect(log.pending.find((p) => p.id === 'a')?.dueAt).toBe(91_000);
    expect(log.pausedUntil).toBe(91_000);
    expect(dueAlerts(log, 90_999)).toEqual([]);
    expect(dueAlerts(log, 91_000).map((p) => p.id)).toEqual(['a', 'b']);
    expect(nextDue(log)).toBe(91_000);
    const short = afterFailure(
      queueAlert(emptyAlertLog(), alert('c', 0)),
      'c',
      { kind: 'http', status: 429, waitSec: 2 },
      0,
    );
    expect(short.pending[0]?.dueAt).toBe(10_000);
    expect(afterSuccess(log, 'b').pausedUntil).toBeUndefined();
  });

  it('gives an alert up at once when the receiver asks to wait more than an hour', () => {
    const log = afterFailure(
      queueAlert(emptyAlertLog(), alert('a', 0)),
      'a',
      { kind: 'http', status: 429, waitSec: 3601 },
      0,
    );
    expect(log.pending).toEqual([]);
    expect(log.failures.at(-1)?.final).toBe(true);
    expect(log.pausedUntil).toBeUndefined();
    const hour = afterFailure(
      queueAlert(emptyAlertLog(), alert('a', 0)),
      'a',
      { kind: 'http', status: 429, waitSec: 3600 },
      0,
    );
    expect(hour.pending[0]?.dueAt).toBe(3_600_000);
  });
});

describe('redirects', () => {
  it('are refused whatever host they name: an opaque redirect, a 3xx, an answer after one the browser followed', () => {
    expect(isRedirect({ status: 0, type: 'opaqueredirect', redirected: false })).toBe(true);
    expect(isRedirect({ status: 307, type: 'basic', redirected: false })).toBe(true);
    expect(isRedirect({ status: 200, type: 'cors', redirected: true })).toBe(true);
    expect(isRedirect({ status: 200, type: 'cors', redirected: false })).toBe(false);
    expect(isRedirect({ status: 404, type: 'cors', redirected: false })).toBe(false);
    expect(responseError(answer(0, { type: 'opaqueredirect' }), 0)).toEqual({ kind: 'redirect' });
    expect(responseError(answer(200, { redirected: true }), 0)).toEqual({ kind: 'redirect' });
  });
});

describe('one alert per event kind per notebook in 5 minutes', () => {
  const T0 = 1_000_000;
  /** docs/alerts.md's 5 minutes, as a literal. */
  const ALERT_RATE_MS = 5 * 60_000;

  it('sends the first, holds back and counts the next ones, then says the count with the first after 5 minutes', () => {
    let log = emptyAlertLog();
    const admit = (at: number, key = 'drive:a', event: 'restarted' | 'gave-up' = 'restarted') => {
      const admitted = admitAlert(log, key, event, at);
      log = admitted.log;
      return [admitted.send, admitted.heldBack];
    };
    expect(admit(T0)).toEqual([true, 0]);
    expect(admit(T0 + 60_000)).toEqual([false, 0]);
    expect(admit(T0 + ALERT_RATE_MS - 1)).toEqual([false, 0]);
    // Another kind, another notebook: their own windows.
    expect(admit(T0 + 1000, 'drive:a', 'gave-up')).toEqual([true, 0]);
    expect(admit(T0 + 1000, 'drive:b')).toEqual([true, 0]);
    expect(admit(T0 + ALERT_RATE_MS)).toEqual([true, 2]);
    expect(admit(T0 + ALERT_RATE_MS + 1)).toEqual([false, 0]);
    expect(admit(T0 + 3 * ALERT_RATE_MS)).toEqual([true, 1]);
    expect(admit(T0 + 5 * ALERT_RATE_MS)).toEqual([true, 0]);
  });

  it('lets a clock set back send, and forgets a held count after a day', () => {
    const sent = admitAlert(emptyAlertLog(), 'drive:a', 'gave-up', T0).log;
    expect(admitAlert(sent, 'drive:a', 'gave-up', T0 - 60_000).send).toBe(true);
    const held = admitAlert(sent, 'drive:a', 'gave-up', T0 + 1).log;
    expect(admitAlert(held, 'drive:a', 'gave-up', T0 + 24 * 3_600_000)).toMatchObject({ send: true, heldBack: 0 });
  });

  it('never sends two of a kind for a notebook within 5 minutes, and every alert is sent or counted', () => {
    const step = fc.record({
      gap: fc.integer({ min: 0, max: 2 * ALERT_RATE_MS }),
      key: fc.constantFrom('drive:a', 'drive:b'),
      event: fc.constantFrom('gave-up' as const, 'restarted' as const),
    });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        let log = emptyAlertLog();
        let now = T0;
        const lastSent = new Map<string, number>();
        let sent = 0;
        let told = 0;
        for (const { gap, key, event } of steps) {
          now += gap;
          const admitted = admitAlert(log, key, event, now);
          log = admitted.log;
          if (!admitted.send) continue;
          const last = lastSent.get(`${key} ${event}`);
          if (last !== undefined && now - last < ALERT_RATE_MS) return false;
          lastSent.set(`${key} ${event}`, now);
          sent++;
          told += admitted.heldBack;
        }
        const stillHeld = log.recent.reduce((sum, entry) => sum + entry.held, 0);
        return sent + told + stillHeld === steps.length;
      }),
    );
  });
});
