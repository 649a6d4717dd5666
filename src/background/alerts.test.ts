import { fakeBrowser } from '@webext-core/fake-browser';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getMessage } from '../../test/support/messages';
import { grantedSites } from '../../test/support/permissions';
import { ALERT_LOG_KEY, type AlertLog } from '../state/alert-delivery';
import { ALERTS_KEY } from '../state/alerts';
import type { NotifyEffect } from '../state/policy';
import { defaultNotebook, defaultSettings } from '../state/schema';
import { alertEffects, clearAlerts, deliverDue, sendTestAlert, updateAlerts } from './alerts';

vi.mock('webextension-polyfill', async () => ({ default: (await import('@webext-core/fake-browser')).fakeBrowser }));

const NTFY = 'https://ntfy.sh/night-runs';
const record = { ...defaultNotebook('drive:abc'), title: 'train.ipynb', loopCount: 3 };
const gaveUp: NotifyEffect = {
  type: 'notify',
  kind: 'gave-up',
  key: 'drive:abc',
  title: 'train.ipynb',
  entry: { at: 0, type: 'gave-up', params: { why: 'failed-again', n: 3, max: 3 } },
};
const finished: NotifyEffect = { ...gaveUp, kind: 'run-finished', entry: { at: 0, type: 'run-finished' } };

let granted: Set<string>;
/** Firefox's data consent: null in Chrome, which has none; else the categories granted. */
let consent: Set<string> | null;
let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(async () => {
  fakeBrowser.reset();
  vi.spyOn(fakeBrowser.i18n, 'getMessage').mockImplementation(getMessage as typeof fakeBrowser.i18n.getMessage);
  consent = null;
  granted = grantedSites(() => consent);
  fetchMock = vi.fn(async () => new Response('', { status: 200 }));
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

async function configure(url: string, extra: Record<string, unknown> = {}) {
  granted.add(`${new URL(url).protocol}//${new URL(url).hostname}/*`);
  await fakeBrowser.storage.local.set({ [ALERTS_KEY]: { v: 2, url, ...extra } });
}

function sent(call = 0): { url: string; init: RequestInit } {
  const [url, init] = fetchMock.mock.calls[call] as [string, RequestInit];
  return { url, init };
}

/** An answer as fetch gives it in manual redirect mode: opaque, status 0, nothing readable. */
function opaqueRedirect(): Response {
  return {
    status: 0,
    type: 'opaqueredirect',
    redirected: false,
    headers: new Headers(),
    text: async () => '',
  } as Response;
}

const TELEGRAM_TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw9';
const stopped: NotifyEffect = {
  ...gaveUp,
  kind: 'run-stopped',
  entry: {
    at: 0,
    type: 'run-stopped',
    params: { cell: 2, saw: 'HTTPError: 401 for https://huggingface.co/api?token=hf_AbCdEfGhIjKlMnOpQrStUvWx0123' },
  },
};

async function log(): Promise<AlertLog> {
  return (await fakeBrowser.storage.local.get(ALERT_LOG_KEY))[ALERT_LOG_KEY] as AlertLog;
}

describe('alerts from the worker', () => {
  it('post a chosen event once, in ntfy’s shape, saying "a notebook" unless the name is allowed', async () => {
    await configure(NTFY);
    await alertEffects([gaveUp, finished], record, defaultSettings());
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const { url, init } = sent();
    expect(url).toBe(NTFY);
    expect(init).toMatchObject({ method: 'POST', credentials: 'omit', redirect: 'manual' });
    expect(init.headers).toMatchObject({ Title: 'Gave up: a notebook', Priority: 'urgent', Tags: 'warning' });
    expect(init.headers).not.toHaveProperty('Click');
    expect(init.body).toBe(
      'Gave up: it failed again after 3 restarts in a row (limit 3). Choose Watch again in the popup.\n' +
        'Waits for you: nothing restarts until you choose Watch again in the popup.',
    );
    expect((await log()).pending).toEqual([]);
  });

  it('name the notebook when allowed, with the restarts used of the limit (generic JSON)', async () => {
    await configure('https://example.org/hook', { includeTitle: true });
    await alertEffects([gaveUp], record, defaultSettings());
    const body = JSON.parse(sent().init.body as string);
    expect(body).toMatchObject({
      event: 'gave-up',
      notebook: 'train.ipynb',
      title: 'Gave up: train.ipynb',
      next: 'Waits for you: nothing restarts until you choose Watch again in the popup.',
      heldBack: 0,
      link: 'https://colab.research.google.com/drive/abc',
      restarts: { used: 3, limit: 3 },
    });
  });

  it('send nothing without a URL', async () => {
    await alertEffects([gaveUp], record, defaultSettings());
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('list a failure, try again after 10 s, and clear the list once delivered', async () => {
    await configure(NTFY);
    fetchMock.mockResolvedValueOnce(new Response('', { status: 500 }));
    const start = Date.now();
    await alertEffects([gaveUp], record, defaultSettings());
    let stored = await log();
    expect(stored.failures).toMatchObject([{ event: 'gave-up', error: { kind: 'http', status: 500 }, final: false }]);
    const due = stored.pending[0]?.dueAt ?? 0;
    expect(due - start).toBeGreaterThanOrEqual(10_000);
    expect(due - Date.now()).toBeLessThanOrEqual(10_000);
    expect(await fakeBrowser.alarms.get('alert-retry')).toBeDefined();
    // Not due yet: nothing is sent.
    await deliverDue();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    vi.useFakeTimers({ now: due, toFake: ['Date'] });
    await deliverDue();
    expect(fetchMock).toHaveBeenCalledTimes(2);
    stored = await log();
    expect(stored).toMatchObject({ pending: [], failures: [] });
  });

  it('say a missing permission rather than post without it', async () => {
    await configure(NTFY);
    granted.clear();
    await alertEffects([gaveUp], record, defaultSettings());
    expect(fetchMock).not.toHaveBeenCalled();
    expect((await log()).failures[0]?.error).toEqual({ kind: 'permission' });
  });

  it('drop a waiting alert when the URL was changed since', async () => {
    await configure(NTFY);
    fetchMock.mockResolvedValueOnce(new Response('', { status: 503 }));
    await alertEffects([gaveUp], record, defaultSettings());
    await configure('https://ntfy.sh/other');
    vi.useFakeTimers({ now: Date.now() + 60_000, toFake: ['Date'] });
    await deliverDue();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect((await log()).pending).toEqual([]);
  });

  it('answer a test with the receiver’s status, or a network error', async () => {
    await configure(NTFY);
    expect(await sendTestAlert()).toEqual({ ok: true, result: { kind: 'sent', status: 200 } });
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    expect(await sendTestAlert()).toEqual({ ok: true, result: { kind: 'network', message: 'Failed to fetch' } });
    expect(sent().init.headers).toMatchObject({ Tags: 'test_tube' });
  });
});

describe('what an alert carries', () => {
  it("a stopped run: the cell and the exception's type, unless the whole line is allowed (then redacted)", async () => {
    await configure(NTFY);
    await alertEffects([stopped], record, defaultSettings());
    expect(sent().init.body).toBe(
      'Cell [2]: HTTPError (not out of memory, not restarted)\n' +
        'Waits for you: the guard restarts a run only after out of memory.',
    );
    await configure(NTFY, { includeErrorLine: true });
    await alertEffects([{ ...stopped, key: 'drive:other' }], record, defaultSettings());
    expect(sent(1).init.body).toMatch(
      /^Cell \[2\]: HTTPError: 401 for https:\/\/huggingface\.co\/api\?\[redacted\] \(not/,
    );
  });

  it('a line that names no exception says "an error"', async () => {
    await configure(NTFY);
    const killed = { ...stopped, entry: { ...stopped.entry, params: { cell: 4, saw: '/bin/bash: line 1: Killed' } } };
    await alertEffects([killed], record, defaultSettings());
    expect(sent().init.body).toMatch(/^Cell \[4\]: an error \(not out of memory/);
  });

  it('a restart says how many of the crash loop are left, and the last one what comes then', async () => {
    await configure(NTFY, { events: { restarted: true } });
    const restarted = (n: number, key: string): NotifyEffect => ({
      ...gaveUp,
      key,
      kind: 'restarted',
      entry: { at: 0, type: 'restarted', params: { n, max: 3 } },
    });
    await alertEffects([restarted(1, 'drive:one'), restarted(3, 'drive:three')], record, defaultSettings());
    expect(sent(0).init.body).toBe('Restart 1 of 3 done\n2 of 3 restarts left; the guard keeps watching.');
    expect(sent(1).init.body).toBe('Restart 3 of 3 done\nNo restart left: one more failure and the guard gives up.');
  });

  it('the link and the Click header only with the name allowed; the name redacted like the rest', async () => {
    await configure(NTFY, { includeTitle: true });
    const named = { ...gaveUp, title: 'run?key=abcdef123456.ipynb' };
    await alertEffects([named], record, defaultSettings());
    expect(sent().init.headers).toMatchObject({
      Title: 'Gave up: run?[redacted]',
      Click: 'https://colab.research.google.com/drive/abc',
    });
    expect(sent().init.body).toMatch(/\nOpen in Colab: https:\/\/colab\.research\.google\.com\/drive\/abc$/);
  });
});

describe('one alert per event kind per notebook in 5 minutes', () => {
  it('holds the next ones back, counted, and the first after 5 minutes says how many', async () => {
    await configure(NTFY);
    await alertEffects([gaveUp], record, defaultSettings());
    await alertEffects([gaveUp], record, defaultSettings());
    await alertEffects([gaveUp, { ...gaveUp, key: 'drive:other' }], record, defaultSettings());
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect((await log()).recent).toMatchObject([
      { key: 'drive:abc', event: 'gave-up', held: 2 },
      { key: 'drive:other', event: 'gave-up', held: 0 },
    ]);
    vi.useFakeTimers({ now: Date.now() + 5 * 60_000, toFake: ['Date'] });
    await alertEffects([gaveUp], record, defaultSettings());
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(sent(2).init.body).toMatch(
      /\n2 more like this were held back since the last alert \(one alert a kind per notebook in 5 minutes\)\.$/,
    );
  });
});

describe('receivers that push back', () => {
  it('a 429 with Retry-After: the next try no sooner, the wait listed', async () => {
    await configure(NTFY);
    const headers = new Headers({ 'Retry-After': '120' });
    fetchMock.mockResolvedValueOnce(new Response('slow down', { status: 429, headers }));
    const start = Date.now();
    await alertEffects([gaveUp], record, defaultSettings());
    const stored = await log();
    expect(stored.failures[0]?.error).toEqual({ kind: 'http', status: 429, waitSec: 120 });
    expect(stored.pending[0]?.dueAt).toBeGreaterThanOrEqual(start + 120_000);
    vi.useFakeTimers({ now: start + 60_000, toFake: ['Date'] });
    await deliverDue();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('a redirect is not followed: no second request, the failure says so', async () => {
    await configure(NTFY);
    fetchMock.mockResolvedValueOnce(opaqueRedirect());
    expect(await sendTestAlert()).toEqual({ ok: true, result: { kind: 'redirect' } });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(sent().init.redirect).toBe('manual');
  });
});

describe('secrets', () => {
  it("Telegram: the bot token in the request's path only, never in what is stored to try again", async () => {
    await configure('https://api.telegram.org', { token: TELEGRAM_TOKEN, chatId: '42' });
    fetchMock.mockResolvedValueOnce(
      new Response('{"ok":false,"error_code":400,"description":"Bad Request: chat not found"}', { status: 400 }),
    );
    await alertEffects([gaveUp], record, defaultSettings());
    expect(sent().url).toBe(`https://api.telegram.org/bot${TELEGRAM_TOKEN}/sendMessage`);
    expect(JSON.parse(sent().init.body as string)).toMatchObject({ chat_id: '42' });
    const stored = await log();
    expect(stored.failures[0]?.error).toEqual({ kind: 'http', status: 400, detail: 'Bad Request: chat not found' });
    expect(JSON.stringify(stored)).not.toContain(TELEGRAM_TOKEN);
  });

  it("ntfy's access token as a bearer, never stored in the log", async () => {
    await configure(NTFY, { token: 'tk_0123456789abcdefghijklmnopqr' });
    fetchMock.mockResolvedValueOnce(new Response('', { status: 503 }));
    await alertEffects([gaveUp], record, defaultSettings());
    expect(sent().init.headers).toMatchObject({ Authorization: 'Bearer tk_0123456789abcdefghijklmnopqr' });
    expect(JSON.stringify(await log())).not.toContain('tk_0123');
  });
});

describe("Firefox's consent to the data alerts send", () => {
  it('nothing is posted without it; the name and the link need their own', async () => {
    consent = new Set();
    await configure(NTFY);
    await alertEffects([gaveUp], record, defaultSettings());
    expect(fetchMock).not.toHaveBeenCalled();
    expect((await log()).failures[0]?.error).toEqual({ kind: 'permission' });
    consent = new Set(['websiteActivity', 'websiteContent']);
    expect(await sendTestAlert()).toEqual({ ok: true, result: { kind: 'sent', status: 200 } });
    await configure(NTFY, { includeTitle: true });
    expect(await sendTestAlert()).toEqual({ ok: true, result: { kind: 'permission' } });
  });
});

describe('alert settings, as the worker saves them', () => {
  it('refuse a URL whose permission was not granted: nothing saved', async () => {
    expect(await updateAlerts({ url: NTFY })).toMatchObject({ ok: false });
    expect((await fakeBrowser.storage.local.get(ALERTS_KEY))[ALERTS_KEY]).toBeUndefined();
  });

  it('save a granted URL, and give its permission back when it is removed', async () => {
    granted.add('https://ntfy.sh/*');
    expect(await updateAlerts({ url: NTFY, kind: 'auto' })).toEqual({ ok: true });
    expect((await fakeBrowser.storage.local.get(ALERTS_KEY))[ALERTS_KEY]).toMatchObject({ url: NTFY });
    expect(await updateAlerts({ url: null })).toEqual({ ok: true });
    expect(fakeBrowser.permissions.remove).toHaveBeenCalledWith({ origins: ['https://ntfy.sh/*'] });
  });

  it('keep the permission when the new URL is on the same host', async () => {
    granted.add('https://ntfy.sh/*');
    await updateAlerts({ url: NTFY });
    await updateAlerts({ url: 'https://ntfy.sh/another-topic' });
    expect(fakeBrowser.permissions.remove).not.toHaveBeenCalled();
  });

  it('go with Clear all data, the permission given back', async () => {
    granted.add('https://ntfy.sh/*');
    await updateAlerts({ url: NTFY });
    await clearAlerts();
    expect(await fakeBrowser.storage.local.get(null)).toEqual({});
    expect(fakeBrowser.permissions.remove).toHaveBeenCalledWith({ origins: ['https://ntfy.sh/*'] });
  });

  it('save other changes even when the saved URL’s permission went missing', async () => {
    granted.add('https://ntfy.sh/*');
    await updateAlerts({ url: NTFY });
    granted.clear();
    expect(await updateAlerts({ notificationsOffered: true, events: { restarted: true } })).toEqual({ ok: true });
    expect(await updateAlerts({ url: 'https://ntfy.sh/new-topic' })).toMatchObject({ ok: false });
  });

  it('keep a token for the same host, drop it for another, and never keep one a kind does not use', async () => {
    granted.add('https://ntfy.sh/*').add('https://ntfy.example.org/*').add('https://hooks.slack.com/*');
    const stored = async () => (await fakeBrowser.storage.local.get(ALERTS_KEY))[ALERTS_KEY];
    await updateAlerts({ url: NTFY, token: 'tk_secret' });
    await updateAlerts({ url: 'https://ntfy.sh/another' });
    expect(await stored()).toMatchObject({ token: 'tk_secret' });
    await updateAlerts({ url: 'https://ntfy.example.org/topic' });
    expect(await stored()).toMatchObject({ token: null });
    await updateAlerts({ url: 'https://hooks.slack.com/services/a/b/c', token: 'ignored', chatId: '5' });
    expect(await stored()).toMatchObject({ kind: 'auto', token: null, chatId: null });
  });

  it('refuse Telegram without a bot token or a chat, each said in words', async () => {
    granted.add('https://api.telegram.org/*');
    expect(await updateAlerts({ url: 'https://api.telegram.org', chatId: '42' })).toEqual({
      ok: false,
      why: { kind: 'alerts-secret', secret: 'telegram-token' },
    });
    expect(await updateAlerts({ url: 'https://api.telegram.org', token: TELEGRAM_TOKEN })).toMatchObject({
      ok: false,
    });
    expect(await updateAlerts({ url: 'https://api.telegram.org', token: TELEGRAM_TOKEN, chatId: '42' })).toEqual({
      ok: true,
    });
  });

  it('keeps the site and the consent to website activity that the heartbeat still uses', async () => {
    consent = new Set(['websiteActivity', 'websiteContent']);
    await configure('https://hc-ping.com/alerts');
    await fakeBrowser.storage.local.set({
      heartbeat: { v: 1, url: 'https://hc-ping.com/5f2c1a3e-9b7d-4e21-8c3a-0d6f1e2b3c4d' },
    });
    expect(await updateAlerts({ url: null })).toEqual({ ok: true });
    expect(granted.has('https://hc-ping.com/*')).toBe(true);
    expect([...consent]).toEqual(['websiteActivity']);
    await fakeBrowser.storage.local.remove('heartbeat');
    await configure('https://hc-ping.com/alerts');
    await clearAlerts();
    expect(granted.has('https://hc-ping.com/*')).toBe(false);
  });

  it('in Firefox, give the consent to send back with the URL, and the name’s with the name', async () => {
    consent = new Set(['websiteActivity', 'websiteContent', 'browsingActivity']);
    granted.add('https://ntfy.sh/*');
    await updateAlerts({ url: NTFY, includeTitle: true });
    await updateAlerts({ includeTitle: false });
    expect([...consent]).toEqual(['websiteActivity', 'websiteContent']);
    expect(await updateAlerts({ includeTitle: true })).toEqual({
      ok: false,
      why: { kind: 'consent-refused' },
    });
    await updateAlerts({ url: null });
    expect([...consent]).toEqual([]);
  });

  it('change which events alert without touching the URL', async () => {
    granted.add('https://ntfy.sh/*');
    await updateAlerts({ url: NTFY });
    await updateAlerts({ events: { 'run-finished': true } });
    expect((await fakeBrowser.storage.local.get(ALERTS_KEY))[ALERTS_KEY]).toMatchObject({
      url: NTFY,
      events: { 'gave-up': true, 'run-stopped': true, 'run-finished': true },
    });
  });
});
