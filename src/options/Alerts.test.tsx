// @vitest-environment happy-dom
import { fakeBrowser } from '@webext-core/fake-browser';
import { act } from 'preact/test-utils';
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
/** Firefox's data consent: null in Chrome, which has none to ask for; else the categories granted. */
let consent: Set<string> | null;

beforeEach(async () => {
  worker = await installFakeBrowser();
  consent = null;
  granted = grantedSites(() => consent);
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

/** What the worker stored, once `check` passes on it (it saves after the page's permission requests). */
async function storedOnce<T>(check: (value: Record<string, unknown> | undefined) => T): Promise<T> {
  for (let tries = 200; ; tries--) {
    try {
      return check((await fakeBrowser.storage.local.get(ALERTS_KEY))[ALERTS_KEY] as Record<string, unknown>);
    } catch (error) {
      if (tries <= 0) throw error;
      await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
    }
  }
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
      /^.+ · A run stopped on another error \(not out of memory\): no answer within 15 s \(given up\)$/,
    );
  });
});

/** Chooses a receiver in the select, as a person does. */
async function chooseReceiver(root: HTMLElement, kind: string) {
  const select = root.querySelector<HTMLSelectElement>('#alert-kind');
  if (!select) throw new Error('no Receiver select');
  await act(() => {
    select.value = kind;
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

const TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw9';

describe('Telegram and tokens', () => {
  it('Telegram: the Bot API server filled in, a bot token and a chat asked for before any permission', async () => {
    const request = vi.spyOn(permissions, 'request').mockImplementation(async () => {
      granted.add('https://api.telegram.org/*');
      return true;
    });
    const root = await open();
    await chooseReceiver(root, 'telegram');
    expect(getByRole<HTMLInputElement>(root, 'textbox', 'Alert URL').value).toBe('https://api.telegram.org');
    await click(getByRole(root, 'button', 'Save URL'));
    expect(getByRole(root, 'alert').textContent).toBe('A bot token looks like 123456789:AAH… (from @BotFather).');
    await type(getByRole<HTMLInputElement>(root, 'textbox', 'Bot token'), TOKEN, false);
    await click(getByRole(root, 'button', 'Save URL'));
    expect(getByRole(root, 'alert').textContent).toBe(
      'Type the chat id: a number (-100… for a group or channel) or @channelname.',
    );
    expect(request).not.toHaveBeenCalled();
    await type(getByRole<HTMLInputElement>(root, 'textbox', 'Chat id'), ' 42 ', false);
    await click(getByRole(root, 'button', 'Save URL'));
    await waitFor(() => getByText(root, 'Alerts go to this Telegram bot at api.telegram.org.'));
    expect(request).toHaveBeenCalledWith({ origins: ['https://api.telegram.org/*'] });
    expect(worker.sent.at(-1)).toEqual({
      type: 'ui-alerts',
      patch: { url: 'https://api.telegram.org/', kind: 'telegram', chatId: '42', token: TOKEN },
    });
    expect(await stored()).toMatchObject({ token: TOKEN, chatId: '42' });
    // Saved, the token is not shown again; the field says one is kept.
    const field = getByRole<HTMLInputElement>(root, 'textbox', 'Bot token');
    expect(field.value).toBe('');
    expect(field.type).toBe('password');
    expect(field.placeholder).toBe('A token is saved. Type another to replace it.');
  });

  it('ntfy: an optional access token, kept for the same host only, and forgotten on request', async () => {
    granted.add('https://ntfy.example.org/*');
    await fakeBrowser.storage.local.set({
      [ALERTS_KEY]: { v: 2, url: 'https://ntfy.example.org/night', kind: 'ntfy', token: 'tk_secret' },
    });
    const root = await open();
    expect(getByRole<HTMLInputElement>(root, 'textbox', 'Access token (optional)').placeholder).toBe(
      'A token is saved. Type another to replace it.',
    );
    await type(getByRole<HTMLInputElement>(root, 'textbox', 'Alert URL'), 'https://ntfy.sh/other', false);
    expect(getByRole<HTMLInputElement>(root, 'textbox', 'Access token (optional)').placeholder).toBe('tk_…');
    await type(getByRole<HTMLInputElement>(root, 'textbox', 'Alert URL'), 'https://ntfy.example.org/night', false);
    await click(getByRole(root, 'button', 'Forget the token'));
    await waitFor(() => getByText(root, 'The token is forgotten: alerts go without it.'));
    expect(await stored()).toMatchObject({ url: 'https://ntfy.example.org/night', token: null });
  });

  it('no token field for Slack or Discord, whose secret is their URL', async () => {
    const root = await open();
    await type(
      getByRole<HTMLInputElement>(root, 'textbox', 'Alert URL'),
      'https://hooks.slack.com/services/a/b/c',
      false,
    );
    expect(queryAllByRole(root, 'textbox', /token/i)).toEqual([]);
  });
});

describe('what of the notebook is sent', () => {
  it('the whole error line is off until ticked', async () => {
    granted.add('https://ntfy.sh/*');
    await fakeBrowser.storage.local.set({ [ALERTS_KEY]: { v: 2, url: 'https://ntfy.sh/night' } });
    const root = await open();
    const line = await waitFor(() =>
      getByRole<HTMLInputElement>(root, 'checkbox', 'Include a stopped run’s whole error line'),
    );
    expect(line.checked).toBe(false);
    await click(line);
    await storedOnce((value) => expect(value).toMatchObject({ includeErrorLine: true }));
  });
});

describe("Firefox's consent to the data alerts send", () => {
  beforeEach(() => {
    consent = new Set();
  });

  it('is asked for with the host, in the same click; the name needs its own', async () => {
    const request = vi.spyOn(permissions, 'request').mockImplementation(async (asked) => {
      const { origins = [], data_collection = [] } = asked as { origins?: string[]; data_collection?: string[] };
      for (const o of origins) granted.add(o);
      for (const d of data_collection) consent?.add(d);
      return true;
    });
    const root = await open();
    await type(getByRole<HTMLInputElement>(root, 'textbox', 'Alert URL'), 'https://ntfy.sh/night', false);
    await click(getByRole(root, 'button', 'Save URL'));
    await waitFor(() => getByText(root, 'Alerts go to this ntfy topic at ntfy.sh.'));
    expect(request).toHaveBeenCalledWith({
      origins: ['https://ntfy.sh/*'],
      data_collection: ['websiteActivity', 'websiteContent'],
    });
    await click(getByRole(root, 'checkbox', 'Include the notebook’s name'));
    await storedOnce((value) => expect(value).toMatchObject({ includeTitle: true }));
    expect(request).toHaveBeenLastCalledWith({ data_collection: ['browsingActivity'] });
  });

  it('the name refused its consent stays out', async () => {
    granted.add('https://ntfy.sh/*');
    await fakeBrowser.storage.local.set({ [ALERTS_KEY]: { v: 2, url: 'https://ntfy.sh/night' } });
    vi.spyOn(permissions, 'request').mockResolvedValue(false);
    const root = await open();
    const name = await waitFor(() => getByRole<HTMLInputElement>(root, 'checkbox', 'Include the notebook’s name'));
    await click(name);
    await waitFor(() =>
      expect(getByRole(root, 'alert').textContent).toBe(
        'Not saved: Firefox did not get your consent to send this data.',
      ),
    );
    expect(name.checked).toBe(false);
    expect(worker.sent).toEqual([]);
  });
});
