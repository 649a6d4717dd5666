// @vitest-environment happy-dom
import { fakeBrowser } from '@webext-core/fake-browser';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import {
  click,
  type FakeWorker,
  getByRole,
  getByText,
  installFakeBrowser,
  type Mounted,
  mount,
  queryAllByRole,
  storeNotebook,
  waitFor,
} from '../../test/support/ui';
import { ALERTS_KEY } from '../state/alerts';
import { loadSettings } from '../state/store';
import { Popup } from './Popup';

vi.mock('webextension-polyfill', async () => ({ default: (await import('@webext-core/fake-browser')).fakeBrowser }));

const KEY = 'drive:1AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const URL_ = 'https://colab.research.google.com/drive/1AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const permissions = fakeBrowser.permissions as unknown as { request: (request: unknown) => Promise<boolean> };

let view: Mounted | undefined;
let get: MockInstance;

let worker: FakeWorker;

beforeEach(async () => {
  worker = await installFakeBrowser();
  await fakeBrowser.tabs.create({ url: URL_, active: true });
  await storeNotebook(KEY, { title: 'train.ipynb' });
  get = vi.spyOn(fakeBrowser.storage.local, 'get');
});

afterEach(() => {
  view?.unmount();
  view = undefined;
});

async function switchOn(): Promise<HTMLElement> {
  view = await mount(<Popup search="" />);
  const root = view.container;
  await waitFor(() => getByRole(root, 'heading', 'train.ipynb'));
  await click(getByRole(root, 'switch', /Auto-restart/));
  await waitFor(() => expect(root.querySelector('.headline')?.textContent).toBe('Watching'));
  // The switch's command has answered (its buttons are enabled again): the offer, if any, is being decided.
  await waitFor(() => expect(getByRole(root, 'button', 'Reset counter').hasAttribute('disabled')).toBe(false));
  return root;
}

/**
 * The offer has read the alert settings and drawn what it decided: its read of them has answered, and the render that
 * follows (a microtask later) is done.
 */
async function settled(): Promise<void> {
  const read = await waitFor(() => {
    const call = get.mock.results.find((_, i) => get.mock.calls[i]?.[0] === ALERTS_KEY);
    if (!call) throw new Error('the alert settings were not read yet');
    return call.value as Promise<unknown>;
  });
  await act(async () => void (await read));
}

const offered = async () =>
  ((await fakeBrowser.storage.local.get(ALERTS_KEY))[ALERTS_KEY] as { notificationsOffered?: boolean } | undefined)
    ?.notificationsOffered;

describe('desktop notifications offered at the first switch-on', () => {
  it('in one click: the permission asked for in the click, then turned on', async () => {
    const request = vi.spyOn(permissions, 'request').mockResolvedValue(true);
    const root = await switchOn();
    await waitFor(() => getByText(root, /^Get a desktop notification when the guard gives up or a run stops\?/));
    await waitFor(() =>
      expect(worker.sent).toContainEqual({ type: 'ui-alerts', patch: { notificationsOffered: true } }),
    );
    expect(await offered()).toBe(true);
    await click(getByRole(root, 'button', 'Turn on notifications'));
    expect(request).toHaveBeenCalledWith({ permissions: ['notifications'] });
    await waitFor(() => getByText(root, 'Notifications are on. The options page can turn them off.'));
    expect((await loadSettings()).notifications).toBe(true);
  });

  it('refused by the browser: says so, and stays off', async () => {
    vi.spyOn(permissions, 'request').mockResolvedValue(false);
    const root = await switchOn();
    await click(await waitFor(() => getByRole(root, 'button', 'Turn on notifications')));
    await waitFor(() => getByRole(root, 'alert'));
    expect(getByRole(root, 'alert').textContent).toMatch(/^Not turned on: the browser did not allow notifications/);
    expect((await loadSettings()).notifications).toBe(false);
  });

  it('never again once offered, nor when notifications are already on', async () => {
    await fakeBrowser.storage.local.set({ [ALERTS_KEY]: { v: 1, notificationsOffered: true } });
    let root = await switchOn();
    await settled();
    expect(queryAllByRole(root, 'button', 'Turn on notifications')).toEqual([]);
    view?.unmount();
    get.mockClear();
    await fakeBrowser.storage.local.set({ [ALERTS_KEY]: { v: 1 }, settings: { v: 1, notifications: true } });
    await storeNotebook(KEY, { title: 'train.ipynb' });
    root = await switchOn();
    await settled();
    expect(queryAllByRole(root, 'button', 'Turn on notifications')).toEqual([]);
  });

  it('"Not now" closes it', async () => {
    const root = await switchOn();
    await click(await waitFor(() => getByRole(root, 'button', 'Not now')));
    expect(queryAllByRole(root, 'button', 'Turn on notifications')).toEqual([]);
    await waitFor(() =>
      expect(worker.sent).toContainEqual({ type: 'ui-alerts', patch: { notificationsOffered: true } }),
    );
    expect(await offered()).toBe(true);
  });
});
