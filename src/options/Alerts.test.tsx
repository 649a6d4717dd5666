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
import { ALERT_LOG_KEY } from '../state/alert-delivery';
import { ALERTS_KEY } from '../state/alerts';
import { Alerts } from './Alerts';

vi.mock('webextension-polyfill', async () => ({ default: (await import('@webext-core/fake-browser')).fakeBrowser }));

const permissions = fakeBrowser.permissions as unknown as { request: (request: unknown) => Promise<boolean> };

let worker: FakeWorker;
let view: Mounted | undefined;
let granted: Set<string>;

beforeEach(async () => {
  worker = await installFakeBrowser();
  granted = grantedSites();
});

afterEach(() => {
  view?.unmount();
  view = undefined;
});

async function open() {
  view = await mount(<Alerts />);
  const root = view.container;
  await waitFor(() => getByRole(root, 'textbox', 'Alert URL'));
  return root;
}

const stored = async () =>
  (await fakeBrowser.storage.local.get(ALERTS_KEY))[ALERTS_KEY] as { events?: Record<string, boolean> } | undefined;

describe('alert URL', () => {
  it('refuses a URL that cannot receive alerts, saying why, without asking for any permission', async () => {
    const request = vi.spyOn(permissions, 'request');
    const root = await open();
    await type(getByRole<HTMLInputElement>(root, 'textbox', 'Alert URL'), 'http://ntfy.sh/topic', false);
    await click(getByRole(root, 'button', 'Save URL'));
    expect(getByRole(root, 'alert').textContent).toBe(
      'Alerts go over https only: plain http is allowed to localhost and 127.0.0.1 alone.',
    );
    expect(request).not.toHaveBeenCalled();
    expect(await stored()).toBeUndefined();
  });

  it('asks for that one host when saving; refused, nothing is saved', async () => {
    const request = vi.spyOn(permissions, 'request').mockResolvedValue(false);
    const root = await open();
    await type(getByRole<HTMLInputElement>(root, 'textbox', 'Alert URL'), 'https://ntfy.sh/night', false);
    await click(getByRole(root, 'button', 'Save URL'));
    await waitFor(() =>
      expect(getByRole(root, 'alert').textContent).toBe('Not saved: the browser did not allow reaching this site.'),
    );
    expect(request).toHaveBeenCalledWith({ origins: ['https://ntfy.sh/*'] });
    expect(worker.sent).toEqual([]);
    expect(await stored()).toBeUndefined();
  });

  it('saves a granted URL, then shows where alerts go and which events alert', async () => {
    vi.spyOn(permissions, 'request').mockImplementation(async () => {
      granted.add('https://discord.com/*');
      return true;
    });
    const root = await open();
    expect(queryAllByRole(root, 'button', 'Send a test alert')).toEqual([]);
    await type(
      getByRole<HTMLInputElement>(root, 'textbox', 'Alert URL'),
      'https://discord.com/api/webhooks/1/abc',
      false,
    );
    expect(getByText(root, 'Detect from the URL (Discord webhook)')).toBeTruthy();
    await click(getByRole(root, 'button', 'Save URL'));
    await waitFor(() => getByText(root, 'Alerts go to this Discord webhook at discord.com.'));
    expect(await stored()).toMatchObject({ url: 'https://discord.com/api/webhooks/1/abc', kind: 'auto' });
    expect(getByRole<HTMLInputElement>(root, 'checkbox', 'The guard gave up (restart limit reached)').checked).toBe(
      true,
    );
    expect(getByRole<HTMLInputElement>(root, 'checkbox', 'Include the notebook’s name').checked).toBe(false);
    await click(getByRole(root, 'checkbox', 'Each restart'));
    await waitFor(() => expect(getByRole<HTMLInputElement>(root, 'checkbox', 'Each restart').checked).toBe(true));
    expect(worker.sent.at(-1)).toEqual({ type: 'ui-alerts', patch: { events: { restarted: true } } });
    expect((await stored())?.events).toMatchObject({ restarted: true, 'gave-up': true });
  });

  it('shows the test alert’s result: the HTTP status the receiver answered', async () => {
    granted.add('https://ntfy.sh/*');
    await fakeBrowser.storage.local.set({ [ALERTS_KEY]: { v: 1, url: 'https://ntfy.sh/night' } });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('', { status: 403 })),
    );
    const root = await open();
    await click(getByRole(root, 'button', 'Send a test alert'));
    await waitFor(() =>
      expect(getByRole(root, 'alert').textContent).toBe('Not delivered: the receiver answered HTTP 403'),
    );
    vi.unstubAllGlobals();
  });

  it('lists the last failures with their time, event and error, and how many wait', async () => {
    await fakeBrowser.storage.local.set({
      [ALERTS_KEY]: { v: 1, url: 'https://ntfy.sh/night' },
      [ALERT_LOG_KEY]: {
        v: 1,
        pending: [],
        failures: [
          { at: Date.UTC(2026, 10, 28, 3, 10), event: 'run-stopped', error: { kind: 'timeout' }, final: true },
        ],
      },
    });
    const root = await open();
    const item = await waitFor(() => getByText(root, /no answer within 15 s/));
    expect(item.textContent).toMatch(
      /^.+ · A run stopped on another error \(not out of memory\): no answer within 15 s \(given up after 4 tries\)$/,
    );
  });
});
