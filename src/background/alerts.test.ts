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
let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(async () => {
  fakeBrowser.reset();
  vi.spyOn(fakeBrowser.i18n, 'getMessage').mockImplementation(getMessage as typeof fakeBrowser.i18n.getMessage);
  granted = grantedSites();
  fetchMock = vi.fn(async () => new Response('', { status: 200 }));
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

async function configure(url: string, extra: Record<string, unknown> = {}) {
  granted.add(`${new URL(url).protocol}//${new URL(url).hostname}/*`);
  await fakeBrowser.storage.local.set({ [ALERTS_KEY]: { v: 1, url, ...extra } });
}

async function log(): Promise<AlertLog> {
  return (await fakeBrowser.storage.local.get(ALERT_LOG_KEY))[ALERT_LOG_KEY] as AlertLog;
}

describe('alerts from the worker', () => {
  it('post a chosen event once, in ntfy’s shape, saying "a notebook" unless the name is allowed', async () => {
    await configure(NTFY);
    await alertEffects([gaveUp, finished], record, defaultSettings());
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe(NTFY);
    expect(init.method).toBe('POST');
    expect(init.headers).toMatchObject({ Title: 'Gave up: a notebook', Priority: 'high', Tags: 'warning' });
    expect(init.body).toBe('Gave up: 3 restarts already (limit 3) and it failed again. Re-arm it in the popup.');
    expect((await log()).pending).toEqual([]);
  });

  it('name the notebook when allowed, with the restarts used of the limit (generic JSON)', async () => {
    await configure('https://example.org/hook', { includeTitle: true });
    await alertEffects([gaveUp], record, defaultSettings());
    const body = JSON.parse((fetchMock.mock.calls[0] as [string, RequestInit])[1].body as string);
    expect(body).toMatchObject({
      event: 'gave-up',
      notebook: 'train.ipynb',
      title: 'Gave up: train.ipynb',
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
    expect((fetchMock.mock.calls[0] as [string, RequestInit])[1].headers).toMatchObject({ Tags: 'test_tube' });
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
