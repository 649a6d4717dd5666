import { describe, expect, it } from 'vitest';
import {
  checkHeartbeatUrl,
  configuredHeartbeat,
  defaultHeartbeatConfig,
  failsRun,
  heartbeatStep,
  parseHeartbeatConfig,
  parsePings,
  pingUrl,
  withPing,
} from './heartbeat';

/**
 * docs/alerts.md: a heartbeat URL, pinged every 5 minutes by default while a guarded run goes on; the
 * healthchecks.io conventions (/start, /fail; /log for a test) where the URL is one of theirs, hosted or self-hosted.
 */
const UUID = '5f2c1a3e-9b7d-4e21-8c3a-0d6f1e2b3c4d';
const checked = (url: string) => {
  const result = checkHeartbeatUrl(url);
  if (!result.ok) throw new Error(`refused: ${result.problem}`);
  return result;
};

describe('the heartbeat setting', () => {
  it('is off by default, every 5 minutes once set', () => {
    expect(defaultHeartbeatConfig()).toEqual({ v: 1, url: null, everyMinutes: 5 });
    expect(configuredHeartbeat(defaultHeartbeatConfig())).toBeNull();
  });

  it('pings every 1 to 60 minutes, whole numbers; anything else stored reads as no heartbeat', () => {
    for (const everyMinutes of [1, 60]) {
      expect(parseHeartbeatConfig({ v: 1, url: 'https://hc-ping.com/x', everyMinutes }).everyMinutes).toBe(
        everyMinutes,
      );
    }
    for (const everyMinutes of [0, 61, 2.5]) {
      expect(parseHeartbeatConfig({ v: 1, url: 'https://hc-ping.com/x', everyMinutes })).toEqual(
        defaultHeartbeatConfig(),
      );
    }
    expect(parseHeartbeatConfig({ v: 2, url: 'https://hc-ping.com/x' }).url).toBeNull();
  });
});

describe('heartbeat URLs', () => {
  it('takes https, and plain http to this computer only, with its one site as the permission', () => {
    expect(checked(`https://hc-ping.com/${UUID}`)).toMatchObject({ permission: 'https://hc-ping.com/*' });
    expect(checked(`http://127.0.0.1:8000/ping/${UUID}`)).toMatchObject({ permission: 'http://127.0.0.1/*' });
    expect(checkHeartbeatUrl('http://example.com/beat')).toEqual({ ok: false, problem: 'not-https' });
    expect(checkHeartbeatUrl('  ')).toEqual({ ok: false, problem: 'empty' });
    expect(checkHeartbeatUrl('hc-ping.com/x')).toEqual({ ok: false, problem: 'not-a-url' });
    expect(checkHeartbeatUrl('https://me:secret@hc-ping.com/x')).toEqual({ ok: false, problem: 'credentials' });
  });

  it("knows healthchecks.io's ping URLs, hosted and self-hosted, by UUID or by ping key and slug", () => {
    for (const url of [
      `https://hc-ping.com/${UUID}`,
      `https://hc-ping.com/${UUID.toUpperCase()}/`,
      'https://hc-ping.com/fqOOd6-F4MMNuCEnzTU01w/nightly-training',
      `https://checks.example.org/ping/${UUID}`,
      'https://example.org/hc/ping/fqOOd6-F4MMNuCEnzTU01w/nightly-training',
    ]) {
      expect(checked(url).service, url).toBe('healthchecks');
    }
  });

  it('treats any other URL as a plain GET: Uptime Kuma, Better Stack, a healthchecks-like path elsewhere', () => {
    for (const url of [
      'https://uptime.example.org/api/push/Xy12Ab?status=up&msg=OK&ping=',
      'https://uptime.betterstack.com/api/v1/heartbeat/abcdEFGH1234',
      `https://hc-ping.com/${UUID}/start`,
      `https://example.org/${UUID}`,
    ]) {
      expect(checked(url).service, url).toBe('plain');
    }
  });
});

describe('what each ping asks', () => {
  const hosted = checked(`https://hc-ping.com/${UUID}?rid=night`);
  const plain = checked('https://uptime.example.org/api/push/Xy12Ab?status=up&msg=OK&ping=');

  it('healthchecks.io: /start when a run begins, the URL itself while it goes on, /fail, and /log for a test', () => {
    expect(pingUrl(hosted, 'start')).toBe(`https://hc-ping.com/${UUID}/start?rid=night`);
    expect(pingUrl(hosted, 'ping')).toBe(`https://hc-ping.com/${UUID}?rid=night`);
    expect(pingUrl(hosted, 'fail')).toBe(`https://hc-ping.com/${UUID}/fail?rid=night`);
    expect(pingUrl(hosted, 'test')).toBe(`https://hc-ping.com/${UUID}/log?rid=night`);
    const slash = checked(`https://hc.example.org/ping/${UUID}/`);
    expect(pingUrl(slash, 'fail')).toBe(`https://hc.example.org/ping/${UUID}/fail`);
  });

  it('any other service: its URL as it is, and no failure ping (a ping would say the run is fine)', () => {
    for (const kind of ['start', 'ping', 'test'] as const) expect(pingUrl(plain, kind)).toBe(plain.url);
    expect(pingUrl(plain, 'fail')).toBeNull();
  });

  it('fails on a give-up, a stopped run, a UI problem, a run left to the person, a tab gone; not otherwise', () => {
    for (const kind of ['gave-up', 'run-stopped', 'ui-problem', 'left-to-person', 'tab-gone'] as const) {
      expect(failsRun(['restarted', kind]), kind).toBe(true);
    }
    expect(failsRun(['restarted', 'run-finished', 'guard-ended'])).toBe(false);
  });
});

describe('the heartbeat as runs come and go', () => {
  const beat = { url: 'https://hc-ping.com/x', everyMinutes: 5 };

  it('starts when a run begins, keeps its timer while one goes on, stops when none does', () => {
    expect(heartbeatStep(null, null)).toBe('idle');
    expect(heartbeatStep(null, beat)).toBe('start');
    expect(heartbeatStep(beat, { ...beat })).toBe('keep');
    expect(heartbeatStep(beat, null)).toBe('stop');
  });

  it('starts again for a new URL or period while a run goes on', () => {
    expect(heartbeatStep(beat, { ...beat, url: 'https://hc-ping.com/y' })).toBe('start');
    expect(heartbeatStep(beat, { ...beat, everyMinutes: 1 })).toBe('start');
  });

  it('keeps the last 5 pings it noted, newest last, and drops what does not read', () => {
    const ping = (at: number) => ({ at, kind: 'ping' as const, outcome: { kind: 'sent' as const, status: 200 } });
    const pings = [1, 2, 3, 4, 5, 6].reduce((log, at) => withPing(log, ping(at)), parsePings(undefined));
    expect(pings.map((p) => p.at)).toEqual([2, 3, 4, 5, 6]);
    expect(parsePings([ping(1), { at: 'x' }, { ...ping(2), outcome: { kind: 'timeout' } }])).toHaveLength(2);
  });
});
