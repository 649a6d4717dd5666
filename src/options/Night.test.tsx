// @vitest-environment happy-dom
import { fakeBrowser } from '@webext-core/fake-browser';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { grantedSites } from '../../test/support/permissions';
import {
  click,
  type FakeWorker,
  getByRole,
  getByText,
  installFakeBrowser,
  type Mounted,
  mount,
  queryAllByRole,
  type,
  waitFor,
} from '../../test/support/ui';
import { HEARTBEAT_KEY, HEARTBEAT_LOG_KEY } from '../state/heartbeat';
import { defaultSettings } from '../state/schema';
import { Night } from './Night';

vi.mock('webextension-polyfill', async () => ({ default: (await import('@webext-core/fake-browser')).fakeBrowser }));

/** Through the night in the options page: the keep-awake switch, and the heartbeat's URL, period and test ping. */
const HC = 'https://hc-ping.com/5f2c1a3e-9b7d-4e21-8c3a-0d6f1e2b3c4d';

const permissions = fakeBrowser.permissions as unknown as { request: (request: unknown) => Promise<boolean> };

let worker: FakeWorker;
let view: Mounted | undefined;
let granted: Set<string>;
/** Firefox's data consent: null in Chrome, which has none to ask for; else the categories granted. */
let consent: Set<string> | null;
let saved: Record<string, unknown>[];

beforeEach(async () => {
  worker = await installFakeBrowser();
  consent = null;
  granted = grantedSites(() => consent);
  saved = [];
});

afterEach(() => {
  view?.unmount();
  view = undefined;
  vi.unstubAllGlobals();
});

async function open() {
  const save = async (patch: Record<string, unknown>) => {
    saved.push(patch);
    return null;
  };
  view = await mount(<Night settings={defaultSettings()} save={save} />);
  const root = view.container;
  await waitFor(() => getByRole(root, 'textbox', 'Heartbeat URL'));
  return root;
}

const stored = async () => (await fakeBrowser.storage.local.get(HEARTBEAT_KEY))[HEARTBEAT_KEY];

async function fillIn(root: HTMLElement, url: string, every = '5') {
  await type(getByRole<HTMLInputElement>(root, 'textbox', 'Heartbeat URL'), url, false);
  await type(getByRole<HTMLInputElement>(root, 'textbox', 'Ping every (minutes)'), every, false);
}

describe('keeping the computer awake', () => {
  it('is on by default and switched off by one switch', async () => {
    const root = await open();
    const box = getByRole<HTMLInputElement>(root, 'checkbox', 'Keep this computer awake while a guarded run goes on');
    expect(box.checked).toBe(true);
    await click(box);
    expect(saved).toEqual([{ keepAwake: false }]);
  });

  it('says where the browser cannot (Firefox), and says nothing where it can', async () => {
    await fakeBrowser.storage.session.set({ nightWatch: { canKeepAwake: true } });
    const root = await open();
    await waitFor(() => getByRole(root, 'checkbox', /Keep this computer awake/));
    expect(root.textContent).not.toMatch(/This browser cannot keep the computer awake/);
    await fakeBrowser.storage.session.set({ nightWatch: { canKeepAwake: false } });
    await waitFor(() => getByText(root, /^This browser cannot keep the computer awake \(Firefox/));
  });
});

describe('the heartbeat', () => {
  it('refuses a URL it cannot ping and a period out of 1 to 60 minutes, saying why, asking for nothing', async () => {
    const request = vi.spyOn(permissions, 'request');
    const root = await open();
    await click(getByRole(root, 'button', 'Save heartbeat'));
    expect(getByRole(root, 'alert').textContent).toBe('Type the heartbeat URL to ping.');
    await fillIn(root, 'http://example.org/beat');
    await click(getByRole(root, 'button', 'Save heartbeat'));
    expect(getByRole(root, 'alert').textContent).toBe(
      'Heartbeats go over https only: plain http is allowed to localhost and 127.0.0.1 alone.',
    );
    await fillIn(root, HC, '0');
    await click(getByRole(root, 'button', 'Save heartbeat'));
    expect(getByRole(root, 'alert').textContent).toBe('Ping every 1 to 60 minutes: a whole number.');
    expect(request).not.toHaveBeenCalled();
    expect(await stored()).toBeUndefined();
  });

  it('asks for that one site when saving; refused, nothing is saved', async () => {
    const request = vi.spyOn(permissions, 'request').mockResolvedValue(false);
    const root = await open();
    await fillIn(root, HC);
    await click(getByRole(root, 'button', 'Save heartbeat'));
    await waitFor(() =>
      expect(getByRole(root, 'alert').textContent).toBe('Not saved: the browser did not allow reaching this site.'),
    );
    expect(request).toHaveBeenCalledWith({ origins: ['https://hc-ping.com/*'] });
    expect(worker.sent).toEqual([]);
    expect(await stored()).toBeUndefined();
  });

  it('saves a granted URL and its period, then says what it pings and offers the test ping', async () => {
    vi.spyOn(permissions, 'request').mockImplementation(async () => {
      granted.add('https://hc-ping.com/*');
      return true;
    });
    const root = await open();
    expect(queryAllByRole(root, 'button', 'Send a test ping')).toEqual([]);
    await fillIn(root, HC, '10');
    await click(getByRole(root, 'button', 'Save heartbeat'));
    await waitFor(() => getByText(root, /^Pinging hc-ping\.com every 10 min while a guarded run goes on, with/));
    expect(worker.sent).toEqual([{ type: 'ui-heartbeat', patch: { url: HC, everyMinutes: 10 } }]);
    expect(await stored()).toEqual({ v: 1, url: HC, everyMinutes: 10 });
  });

  it('in Firefox, asks in the same click for the consent to send website activity', async () => {
    consent = new Set();
    const request = vi.spyOn(permissions, 'request').mockImplementation(async () => {
      granted.add('https://hc-ping.com/*');
      consent?.add('websiteActivity');
      return true;
    });
    const root = await open();
    await fillIn(root, HC);
    await click(getByRole(root, 'button', 'Save heartbeat'));
    await waitFor(() => getByText(root, /^Pinging hc-ping\.com every 5 min/));
    expect(request).toHaveBeenCalledWith({ origins: ['https://hc-ping.com/*'], data_collection: ['websiteActivity'] });
  });

  it('shows the test ping’s result and the last ping of a run, with what the service answered', async () => {
    granted.add('https://hc-ping.com/*');
    await fakeBrowser.storage.local.set({ [HEARTBEAT_KEY]: { v: 1, url: HC } });
    const at = new Date(2026, 11, 8, 3, 10).getTime();
    await fakeBrowser.storage.session.set({
      [HEARTBEAT_LOG_KEY]: [{ at, kind: 'ping', outcome: { kind: 'http', status: 404 } }],
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('', { status: 404 })),
    );
    const root = await open();
    await waitFor(() =>
      expect(root.querySelector('#heartbeat-last')?.textContent).toMatch(
        /^Last ping .+: the receiver answered HTTP 404$/,
      ),
    );
    await click(getByRole(root, 'button', 'Send a test ping'));
    await waitFor(() =>
      expect(root.querySelector('#heartbeat-test-result')?.textContent).toBe(
        'Not sent: the receiver answered HTTP 404',
      ),
    );
  });
});
