import { fakeBrowser } from '@webext-core/fake-browser';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getMessage } from '../../test/support/messages';
import { grantedSites } from '../../test/support/permissions';
import { ALERTS_KEY } from '../state/alerts';
import { HEARTBEAT_KEY, HEARTBEAT_LOG_KEY } from '../state/heartbeat';
import type { NotifyEffect } from '../state/policy';
import { NIGHT_WATCH_KEY } from '../state/run-going';
import {
  clearHeartbeat,
  heartbeatAfter,
  heartbeatAlarm,
  reviewNight,
  sendTestPing,
  updateHeartbeat,
} from './night-watch';

vi.mock('webextension-polyfill', async () => ({ default: (await import('@webext-core/fake-browser')).fakeBrowser }));

/**
 * Through the night, through the worker's adapter with a fake browser: the computer kept awake while a guarded run
 * goes on and let go after, the tabs of guarded notebooks kept from being discarded and given back, the heartbeat's
 * pings starting with a run and stopping with it.
 */
const KEY = 'drive:abc';
const SESSION = 'session-1';
const HC = 'https://hc-ping.com/5f2c1a3e-9b7d-4e21-8c3a-0d6f1e2b3c4d';

let power: { requestKeepAwake: ReturnType<typeof vi.fn>; releaseKeepAwake: ReturnType<typeof vi.fn> };
let granted: Set<string>;
/** Firefox's data consent: null in Chrome, which has none; else the categories granted. */
let consent: Set<string> | null;
let fetchMock: ReturnType<typeof vi.fn>;
let tab: number;

beforeEach(async () => {
  fakeBrowser.reset();
  vi.spyOn(fakeBrowser.i18n, 'getMessage').mockImplementation(getMessage as typeof fakeBrowser.i18n.getMessage);
  power = { requestKeepAwake: vi.fn(), releaseKeepAwake: vi.fn() };
  vi.stubGlobal('chrome', { power });
  consent = null;
  granted = grantedSites(() => consent);
  fetchMock = vi.fn(async () => new Response('OK', { status: 200 }));
  vi.stubGlobal('fetch', fetchMock);
  await fakeBrowser.windows.create({ focused: true });
  tab = (await fakeBrowser.tabs.create({ url: 'https://colab.research.google.com/drive/abc' })).id ?? -1;
  // A browser's tabs are discardable until someone says otherwise (the fake's are not).
  await fakeBrowser.tabs.update(tab, { autoDiscardable: true });
  await fakeBrowser.storage.session.set({ browserSession: SESSION, [`tab:${tab}`]: KEY });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The notebook's record: guarded or not, with cells under way in its tab or not. */
async function notebook({ enabled = true, busy = false } = {}): Promise<void> {
  const activity = { at: Date.now(), busyTabs: busy ? [tab] : [], session: SESSION };
  await fakeBrowser.storage.local.set({ [`nb:${KEY}`]: { v: 5, key: KEY, enabled, activity } });
  await reviewNight();
}

async function heartbeat(url = HC, everyMinutes = 5): Promise<void> {
  granted.add(`${new URL(url).protocol}//${new URL(url).hostname}/*`);
  await fakeBrowser.storage.local.set({ [HEARTBEAT_KEY]: { v: 1, url, everyMinutes } });
}

const pinged = () => fetchMock.mock.calls.map(([url, init]) => `${(init as RequestInit).method} ${url}`);
const autoDiscardable = async () => (await fakeBrowser.tabs.get(tab)).autoDiscardable;

describe('keeping the computer awake', () => {
  it('asks once while a guarded run goes on, and lets go when it ends', async () => {
    await notebook({ busy: true });
    await notebook({ busy: true });
    expect(power.requestKeepAwake.mock.calls).toEqual([['system']]);
    expect(power.releaseKeepAwake).not.toHaveBeenCalled();
    await notebook({ busy: false });
    expect(power.releaseKeepAwake).toHaveBeenCalledTimes(1);
    expect((await fakeBrowser.storage.session.get(NIGHT_WATCH_KEY))[NIGHT_WATCH_KEY]).toMatchObject({
      going: [],
      awake: false,
      canKeepAwake: true,
    });
  });

  it('lets go when the guard is switched off, and never asks with the setting off', async () => {
    await notebook({ busy: true });
    await notebook({ enabled: false, busy: true });
    expect(power.releaseKeepAwake).toHaveBeenCalledTimes(1);
    await fakeBrowser.storage.local.set({ settings: { v: 5, keepAwake: false } });
    await notebook({ busy: true });
    expect(power.requestKeepAwake).toHaveBeenCalledTimes(1);
    expect((await fakeBrowser.storage.session.get(NIGHT_WATCH_KEY))[NIGHT_WATCH_KEY]).toMatchObject({
      going: [KEY],
      awake: false,
    });
  });

  it('where the browser has no such API (Firefox), says so and still knows the run goes on', async () => {
    vi.stubGlobal('chrome', {});
    await notebook({ busy: true });
    expect((await fakeBrowser.storage.session.get(NIGHT_WATCH_KEY))[NIGHT_WATCH_KEY]).toMatchObject({
      going: [KEY],
      awake: false,
      canKeepAwake: false,
    });
  });
});

describe('tabs kept from being discarded', () => {
  it('makes the tab of a guarded notebook not auto-discardable, and gives it back when the guard is off', async () => {
    await notebook();
    expect(await autoDiscardable()).toBe(false);
    await notebook({ enabled: false });
    expect(await autoDiscardable()).toBe(true);
  });

  it('gives the tab back when it no longer shows the notebook', async () => {
    await notebook();
    await fakeBrowser.storage.session.remove(`tab:${tab}`);
    await reviewNight();
    expect(await autoDiscardable()).toBe(true);
  });

  it('leaves a tab the person made not discardable as theirs: it stays so after the guard', async () => {
    await fakeBrowser.tabs.update(tab, { autoDiscardable: false });
    await notebook();
    await notebook({ enabled: false });
    expect(await autoDiscardable()).toBe(false);
  });
});

describe('the heartbeat', () => {
  it('pings /start when a run begins, every period by an alarm, and stops when the run ends', async () => {
    await heartbeat();
    await notebook();
    expect(pinged()).toEqual([]);
    expect(await fakeBrowser.alarms.get('heartbeat')).toBeUndefined();
    await notebook({ busy: true });
    expect(pinged()).toEqual([`GET ${HC}/start`]);
    expect(await fakeBrowser.alarms.get('heartbeat')).toMatchObject({ periodInMinutes: 5 });
    await heartbeatAlarm();
    await heartbeatAlarm();
    expect(pinged()).toEqual([`GET ${HC}/start`, `GET ${HC}`, `GET ${HC}`]);
    await notebook({ busy: false });
    expect(await fakeBrowser.alarms.get('heartbeat')).toBeUndefined();
    await heartbeatAlarm();
    expect(pinged()).toHaveLength(3);
  });

  it('notes each ping and what the service answered, for the options page', async () => {
    await heartbeat();
    fetchMock.mockResolvedValueOnce(new Response('not found', { status: 404 }));
    await notebook({ busy: true });
    const log = (await fakeBrowser.storage.session.get(HEARTBEAT_LOG_KEY))[HEARTBEAT_LOG_KEY];
    expect(log).toMatchObject([{ kind: 'start', outcome: { kind: 'http', status: 404 } }]);
  });

  it('starts again, at the new period, when it is changed while a run goes on', async () => {
    await heartbeat();
    await notebook({ busy: true });
    await heartbeat(HC, 1);
    await reviewNight();
    expect(pinged()).toEqual([`GET ${HC}/start`, `GET ${HC}/start`]);
    expect(await fakeBrowser.alarms.get('heartbeat')).toMatchObject({ periodInMinutes: 1 });
  });

  it('says /fail at once when the guard gives up or a run stops; a plain URL gets nothing then', async () => {
    const gaveUp = { type: 'notify', kind: 'gave-up' } as NotifyEffect;
    await heartbeat();
    await heartbeatAfter([gaveUp]);
    await heartbeatAfter([{ ...gaveUp, kind: 'restarted' }]);
    expect(pinged()).toEqual([`GET ${HC}/fail`]);
    await heartbeat('https://uptime.example.org/api/push/Xy12Ab');
    await heartbeatAfter([gaveUp]);
    expect(pinged()).toHaveLength(1);
  });

  it('pings nothing without the permission for its site, and notes why', async () => {
    await fakeBrowser.storage.local.set({ [HEARTBEAT_KEY]: { v: 1, url: HC } });
    await notebook({ busy: true });
    expect(fetchMock).not.toHaveBeenCalled();
    const log = (await fakeBrowser.storage.session.get(HEARTBEAT_LOG_KEY))[HEARTBEAT_LOG_KEY];
    expect(log).toMatchObject([{ kind: 'start', outcome: { kind: 'permission' } }]);
  });

  it('in Firefox, pings only with the consent to send website activity', async () => {
    consent = new Set();
    await heartbeat();
    expect(await sendTestPing()).toEqual({ ok: true, result: { kind: 'permission' } });
    consent.add('websiteActivity');
    expect(await sendTestPing()).toEqual({ ok: true, result: { kind: 'sent', status: 200 } });
    expect(pinged()).toEqual([`GET ${HC}/log`]);
  });

  it('follows no redirect, and a 429 is noted, not tried again', async () => {
    await heartbeat();
    fetchMock.mockResolvedValueOnce(new Response('', { status: 429, headers: { 'Retry-After': '60' } }));
    await notebook({ busy: true });
    expect(fetchMock.mock.calls[0]?.[1]).toMatchObject({ redirect: 'manual', credentials: 'omit' });
    const log = (await fakeBrowser.storage.session.get(HEARTBEAT_LOG_KEY))[HEARTBEAT_LOG_KEY];
    expect(log).toMatchObject([{ kind: 'start', outcome: { kind: 'http', status: 429, waitSec: 60 } }]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});

describe('the heartbeat setting', () => {
  it('a test ping goes once, now, to healthchecks.io’s /log, and says what the service answered', async () => {
    expect(await sendTestPing()).toEqual({ ok: false, why: { kind: 'heartbeat-no-url' } });
    await heartbeat();
    fetchMock.mockResolvedValueOnce(new Response('OK', { status: 200 }));
    expect(await sendTestPing()).toEqual({ ok: true, result: { kind: 'sent', status: 200 } });
    expect(pinged()).toEqual([`GET ${HC}/log`]);
  });

  it('saves a new URL only with its site granted, a period of 1 to 60 minutes, and an https URL', async () => {
    expect(await updateHeartbeat({ url: HC })).toMatchObject({ ok: false });
    granted.add('https://hc-ping.com/*');
    expect(await updateHeartbeat({ url: HC, everyMinutes: 61 })).toMatchObject({ ok: false });
    expect(await updateHeartbeat({ url: 'http://example.org/beat' })).toMatchObject({ ok: false });
    expect(await fakeBrowser.storage.local.get(HEARTBEAT_KEY)).toEqual({});
    expect(await updateHeartbeat({ url: HC, everyMinutes: 10 })).toEqual({ ok: true });
    expect((await fakeBrowser.storage.local.get(HEARTBEAT_KEY))[HEARTBEAT_KEY]).toEqual({
      v: 1,
      url: HC,
      everyMinutes: 10,
    });
  });

  it('gives the site back when the URL goes, unless the alerts use the same site', async () => {
    await heartbeat();
    await fakeBrowser.storage.local.set({ [ALERTS_KEY]: { v: 1, url: 'https://hc-ping.com/alerts' } });
    await updateHeartbeat({ url: null });
    expect(granted.has('https://hc-ping.com/*')).toBe(true);
    await heartbeat();
    await fakeBrowser.storage.local.remove(ALERTS_KEY);
    await clearHeartbeat();
    expect(granted.has('https://hc-ping.com/*')).toBe(false);
    expect(await fakeBrowser.storage.local.get(HEARTBEAT_KEY)).toEqual({});
  });

  it('in Firefox, saves a new URL only with the consent too; gives it back unless the alerts send it', async () => {
    consent = new Set();
    granted.add('https://hc-ping.com/*');
    expect(await updateHeartbeat({ url: HC })).toMatchObject({ ok: false });
    consent.add('websiteActivity');
    expect(await updateHeartbeat({ url: HC })).toEqual({ ok: true });
    granted.add('https://ntfy.sh/*');
    await fakeBrowser.storage.local.set({ [ALERTS_KEY]: { v: 2, url: 'https://ntfy.sh/night' } });
    await updateHeartbeat({ url: null });
    expect([...consent]).toEqual(['websiteActivity']);
    expect(granted.has('https://hc-ping.com/*')).toBe(false);
    await heartbeat();
    await fakeBrowser.storage.local.remove(ALERTS_KEY);
    await clearHeartbeat();
    expect([...consent]).toEqual([]);
  });
});
