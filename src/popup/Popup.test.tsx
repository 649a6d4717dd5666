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
  storedNotebook,
  storeNotebook,
  type,
  waitFor,
} from '../../test/support/ui';
import type { HistoryEntry, Verdict } from '../state/schema';
import { Popup, parseMaxRestarts } from './Popup';

vi.mock('webextension-polyfill', async () => ({ default: (await import('@webext-core/fake-browser')).fakeBrowser }));

const KEY = 'drive:1AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const URL_ = 'https://colab.research.google.com/drive/1AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const verdict: Verdict = {
  category: 'gpu-oom',
  rule: 'torch-cuda-oom',
  description: 'PyTorch CUDA out of memory',
  line: 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB',
};

let worker: FakeWorker;
let view: Mounted | undefined;
let tabId: number;

beforeEach(async () => {
  worker = await installFakeBrowser();
  const tab = await fakeBrowser.tabs.create({ url: URL_, active: true });
  tabId = tab.id!;
});

afterEach(() => {
  view?.unmount();
  view = undefined;
  vi.useRealTimers();
});

async function open(search = '') {
  view = await mount(<Popup search={search} />);
  return view.container;
}

const toggle = (root: HTMLElement) => getByRole<HTMLInputElement>(root, 'switch', /Auto-restart/);

describe('popup over a Colab notebook', () => {
  it('shows the notebook, Off, and switches the guard on through the service worker', async () => {
    await storeNotebook(KEY, { title: 'train_llm.ipynb' });
    const root = await open();
    await waitFor(() => getByRole(root, 'heading', 'train_llm.ipynb'));
    expect(toggle(root).checked).toBe(false);
    expect(root.querySelector('.headline')?.textContent).toBe('Not guarded');
    // Never "no failures" for a notebook nobody watched.
    expect(root.querySelector('.night-line')).toBeNull();

    await click(toggle(root));
    await waitFor(() => expect(root.querySelector('.headline')?.textContent).toBe('Watching'));
    expect(toggle(root).checked).toBe(true);
    // (The first switch-on also notes that desktop notifications were offered: NotificationOffer.test.tsx.)
    expect(worker.sent.filter((message) => message.type === 'ui-command')).toEqual([
      { type: 'ui-command', key: KEY, command: { type: 'set-enabled', enabled: true } },
    ]);
    expect(await storedNotebook(KEY)).toMatchObject({ enabled: true });
  });

  it('uses the key as the name when the notebook has no title yet, and shows the crash loop, "n of max"', async () => {
    await storeNotebook(KEY, { enabled: true, loopCount: 1, totalRestarts: 4 });
    const root = await open();
    await waitFor(() => getByText(root, 'Restarts in a row: 1 of 3 used'));
    expect(getByRole(root, 'heading', KEY)).toBeTruthy();
    expect(root.querySelector('.headline')?.textContent).toBe('Watching');
  });

  it('names a notebook without a record (never switched on) from its tab, storing nothing', async () => {
    // The page sets a tab's title; the fake's update() stores what it is given.
    await fakeBrowser.tabs.update(tabId, { title: 'draft\u202E.ipynb - Colab' } as never);
    const root = await open();
    await waitFor(() => getByRole(root, 'heading', 'draft.ipynb'));
    expect(await fakeBrowser.storage.local.get(null)).toEqual({});
  });

  it('shows the writes the browser refused, with what was lost, until dismissed', async () => {
    await storeNotebook(KEY, { enabled: true });
    const lost = 'A failure in drive:x (CUDA out of memory) was not saved, so no restart was scheduled for it.';
    const message = "Could not save to the extension's storage: it is full (quota exceeded)";
    await fakeBrowser.storage.session.set({ storageErrors: [{ at: Date.now(), message, lost }] });
    const root = await open();
    const box = await waitFor(() => getByRole(root, 'alert'));
    expect(box.textContent).toContain(`${lost} — ${message}`);
    await click(getByRole(root, 'button', 'Dismiss'));
    await waitFor(() => expect(queryAllByRole(root, 'alert')).toHaveLength(0));
    expect(worker.sent).toEqual([{ type: 'ui-clear-storage-errors' }]);
    expect(await fakeBrowser.storage.session.get('storageErrors')).toEqual({});
  });

  it('says in one line when detection may be blind, while the guard is on', async () => {
    await storeNotebook(KEY, { enabled: true, blindSince: Date.now() - 60_000 });
    const root = await open();
    await waitFor(() => expect(root.querySelector('.headline')?.textContent).toBe('Watching'));
    expect(root.querySelector('.status .blind')?.textContent).toMatch(/^Detection may be blind: Colab was busy/);
    await storeNotebook(KEY, { enabled: true });
    await waitFor(() => expect(root.querySelector('.status .blind')).toBeNull());
  });

  it('while its run goes on, says the computer is kept awake, or that this browser cannot keep it so', async () => {
    const watch = (nightWatch: object) => fakeBrowser.storage.session.set({ nightWatch });
    await storeNotebook(KEY, { enabled: true });
    await watch({ going: [KEY], awake: true, canKeepAwake: true });
    const root = await open();
    await waitFor(() =>
      expect(root.querySelector('.status .awake')?.textContent).toBe(
        'Keeping this computer awake while the run goes on',
      ),
    );
    await watch({ going: [], awake: false, canKeepAwake: true });
    await waitFor(() => expect(root.querySelector('.status .awake')).toBeNull());
    await watch({ going: [KEY], awake: false, canKeepAwake: false });
    await waitFor(() =>
      expect(root.querySelector('.status .awake')?.textContent).toMatch(/^This browser cannot keep the computer awake/),
    );
    await fakeBrowser.storage.local.set({ settings: { v: 5, keepAwake: false } });
    await waitFor(() => expect(root.querySelector('.status .awake')).toBeNull());
  });

  it('follows storage changes made elsewhere while open', async () => {
    await storeNotebook(KEY, { enabled: false });
    const root = await open();
    await waitFor(() => expect(root.querySelector('.headline')?.textContent).toBe('Not guarded'));
    await storeNotebook(KEY, { enabled: true, status: { kind: 'gave-up', at: Date.now(), restarts: 3 }, loopCount: 3 });
    await waitFor(() => expect(root.querySelector('.headline')?.textContent).toBe('Gave up after 3 restarts'));
    expect(toggle(root).checked).toBe(true);
  });

  it('counts a pending restart down every second and cancels it', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const now = new Date(2026, 0, 5, 3, 0, 0).getTime();
    vi.setSystemTime(now);
    await storeNotebook(KEY, {
      enabled: true,
      status: {
        kind: 'pending',
        reason: 'failure',
        action: 'restart-and-run-all',
        restartAt: now + 20_000,
        attempt: 'a1',
        ownerTab: tabId,
        detectedAt: now,
        verdict,
      },
    });
    const root = await open();
    const headline = () => root.querySelector('.headline')?.textContent;
    await waitFor(() => expect(headline()).toBe('PyTorch CUDA out of memory: restart and run all in 0:20'));
    // The failure's line in the details; the rule's id in none of it (Copy diagnostics has it).
    expect(root.querySelector('.status .details p')?.textContent).toBe(
      'PyTorch CUDA out of memory: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB',
    );
    expect(root.textContent).not.toContain('torch-cuda-oom');
    expect(root.querySelector('.status .details summary')?.textContent).toBe('Details');
    expect(headline()).not.toContain('torch-cuda-oom');
    expect(root.querySelector('.status [role=status]')?.textContent).toBe(
      'PyTorch CUDA out of memory: countdown to the restart started',
    );

    await act(() => void vi.advanceTimersByTime(1000));
    expect(headline()).toBe('PyTorch CUDA out of memory: restart and run all in 0:19');
    await act(() => void vi.advanceTimersByTime(5000));
    expect(headline()).toBe('PyTorch CUDA out of memory: restart and run all in 0:14');

    await click(getByRole(root, 'button', 'Cancel restart'));
    await waitFor(() => expect(root.querySelector('.headline')?.textContent).toBe('Watching'));
    expect(worker.sent.at(-1)).toEqual({ type: 'ui-command', key: KEY, command: { type: 'cancel' } });
    expect(queryAllByRole(root, 'button', 'Cancel restart')).toHaveLength(0);
    expect(getByText(root, 'Countdown cancelled')).toBeTruthy();
  });

  it("after Colab's RAM crash the countdown says Run all, in m:ss", async () => {
    const now = Date.now();
    await storeNotebook(KEY, {
      enabled: true,
      status: {
        kind: 'pending',
        reason: 'crash',
        action: 'run-all',
        restartAt: now + 65_000,
        attempt: 'a1',
        ownerTab: tabId,
        detectedAt: now,
        verdict: { ...verdict, category: 'colab-crash', rule: 'colab-ram-crash', description: 'Colab RAM crash' },
      },
    });
    const root = await open();
    await waitFor(() => expect(root.querySelector('.headline')?.textContent).toMatch(/^Run all in 1:0[45]$/));
    expect(root.querySelector('.status .detail')?.textContent).toMatch(/^Colab's RAM crash: Colab already restarted/);
  });

  it('gave up: says after how many restarts, and Watch again sends rearm', async () => {
    await storeNotebook(KEY, { enabled: true, loopCount: 3, status: { kind: 'gave-up', at: Date.now(), restarts: 3 } });
    const root = await open();
    await waitFor(() => expect(root.querySelector('.headline')?.textContent).toBe('Gave up after 3 restarts'));
    await click(getByRole(root, 'button', 'Watch again'));
    await waitFor(() => expect(root.querySelector('.headline')?.textContent).toBe('Watching'));
    expect(worker.sent.at(-1)).toMatchObject({ command: { type: 'rearm' } });
    expect(getByText(root, 'Restarts in a row: 0 of 3 used')).toBeTruthy();
  });

  it('restarting: says so, with what it does, even just after being switched off', async () => {
    await storeNotebook(KEY, {
      enabled: false,
      status: {
        kind: 'restarting',
        reason: 'failure',
        action: 'restart-and-run-all',
        attempt: 'a1',
        ownerTab: tabId,
        startedAt: Date.now(),
      },
    });
    const root = await open();
    await waitFor(() => expect(root.querySelector('.headline')?.textContent).toBe('Restarting…'));
    expect(getByText(root, 'Restart session and run all')).toBeTruthy();
    expect(queryAllByRole(root, 'button', 'Cancel restart')).toHaveLength(0);
  });

  it.each([
    [
      'find-item',
      'item-missing',
      'items: Run all',
      'restart-and-run-all',
      'could not find Runtime → Restart session and run all',
    ],
    ['find-item', 'item-missing', '', 'run-all', 'could not find Runtime → Run all'],
    [
      'open-menu',
      'header-collapsed',
      'toolbar fallback: toolbar-missing',
      'restart-and-run-all',
      "could not open the Runtime menu: Colab's header is collapsed (the ^ at the top right)",
    ],
    [
      'precheck',
      'usage-limit',
      'You cannot currently connect',
      'run-all',
      'Colab showed a usage-limit dialog when the restart was due',
    ],
    ['precheck', 'delete-runtime', '', 'run-all', 'a Colab dialog was open when the restart was due'],
    [
      'confirm',
      'dialog-stayed-open',
      'restart-confirm (the click was lost)',
      'restart-and-run-all',
      "Colab's restart confirmation did not close after the click",
    ],
    [
      'verify',
      'no-run-started',
      '(dialog: confirmed)',
      'restart-and-run-all',
      'no cell started running after the restart',
    ],
    [
      'exception',
      'threw',
      'TypeError: x is undefined',
      'restart-and-run-all',
      'an unexpected error stopped the restart',
    ],
    ['unknown', '', 'what it saw', 'restart-and-run-all', "a step in Colab's page failed"],
  ] as const)(
    'Colab UI problem at %s (%s, %s, %s): the step in words, Colab’s own words only, no ids, Watch again',
    async (step, reason, saw, action, words) => {
      const at = Date.now();
      const failed = { step, reason, saw };
      const history: HistoryEntry[] = [
        { at: at - 5000, type: 'restart-scheduled', verdict, action },
        { at, type: 'restart-failed', failed },
      ];
      await storeNotebook(KEY, { enabled: true, status: { kind: 'ui-problem', at, failed }, history });
      const root = await open();
      await waitFor(() => expect(root.querySelector('.headline')?.textContent).toBe(`Colab UI problem: ${words}`));
      // The dialog Colab showed is quoted; what other steps saw (Colab's item ids, selectors), the step's id and its
      // machine reason are only in Copy diagnostics.
      const details = root.querySelector('.status .details p')?.textContent;
      if (step === 'precheck' && saw) expect(details).toBe(`Colab said: “${saw}”`);
      else {
        expect(details).toBeUndefined();
        if (saw) expect(root.textContent).not.toContain(saw);
      }
      expect(root.querySelector('.status')?.textContent).not.toContain(`${step}:`);
      expect(root.textContent).not.toContain(`${reason};`);
      expect(root.querySelector('.events li .event-title')?.textContent).toBe(`Colab UI problem: ${words}`);
      expect(getByRole(root, 'button', 'Watch again')).toBeTruthy();
    },
  );

  it('shows a refused command as an alert and puts the switch back', async () => {
    await storeNotebook(KEY, {});
    worker.override(() => ({ ok: false, why: { kind: 'read-only', key: 'nb:x' } }));
    const root = await open();
    await waitFor(() => toggle(root));
    await click(toggle(root));
    await waitFor(() =>
      expect(getByRole(root, 'alert').textContent).toBe(
        'nb:x was written by a newer version of the extension and is kept unchanged. Update the extension.',
      ),
    );
    expect(toggle(root).checked).toBe(false);
  });

  it('Max restarts: saves a number, empty means the default, and refuses anything else', async () => {
    await storeNotebook(KEY, { enabled: true });
    const root = await open();
    const field = await waitFor(() => getByRole<HTMLInputElement>(root, 'textbox', 'Max restarts'));
    expect(field.placeholder).toBe('3');

    await type(field, '5');
    await waitFor(() => expect(getByText(root, 'Restarts in a row: 0 of 5 used')).toBeTruthy());
    expect(await storedNotebook(KEY)).toMatchObject({ overrides: { maxRestarts: 5 } });

    await type(field, 'lots');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(getByRole(root, 'alert').textContent).toMatch(/whole number from 0 to 1000.*Not saved/);
    expect(worker.sent).toHaveLength(1);

    await type(field, '');
    await waitFor(() => expect(getByText(root, 'Restarts in a row: 0 of 3 used')).toBeTruthy());
    expect(worker.sent.at(-1)).toMatchObject({ command: { type: 'set-max-restarts', value: null } });
    expect(field.getAttribute('aria-invalid')).toBe('false');
  });

  it.each([['5 '], ['05']])(
    'Max restarts: after saving %j the field shows 5 and follows changes made elsewhere',
    async (typed) => {
      await storeNotebook(KEY, { enabled: true });
      const root = await open();
      const field = await waitFor(() => getByRole<HTMLInputElement>(root, 'textbox', 'Max restarts'));
      await type(field, typed);
      await waitFor(() => expect(getByText(root, 'Restarts in a row: 0 of 5 used')).toBeTruthy());
      expect(field.value).toBe('5');
      await storeNotebook(KEY, { enabled: true, overrides: { maxRestarts: 7 } });
      await waitFor(() => expect(field.value).toBe('7'));

      // The same number typed differently saves nothing, and the field still follows.
      await type(field, ' 7');
      expect(field.value).toBe('7');
      await storeNotebook(KEY, { enabled: true, overrides: { maxRestarts: 8 } });
      await waitFor(() => expect(field.value).toBe('8'));
    },
  );

  it('lists the last events newest first, with the verdict line, and draws them on the timeline', async () => {
    const now = Date.now();
    const history: HistoryEntry[] = [
      { at: now - 3 * 3600_000, type: 'enabled' },
      {
        at: now - 2 * 3600_000,
        type: 'restart-scheduled',
        detail: 'Restart 1 of 3 in 5 s',
        verdict,
        action: 'restart-and-run-all',
      },
      {
        at: now - 2 * 3600_000 + 6000,
        type: 'restarted',
        detail: 'Restart 1 of 3 done',
        action: 'restart-and-run-all',
      },
      { at: now - 20 * 3600_000, type: 'gave-up', detail: 'old, outside the timeline' },
    ].sort((a, b) => a.at - b.at) as HistoryEntry[];
    await storeNotebook(KEY, { enabled: true, history });
    const root = await open();
    const items = await waitFor(() => {
      const list = root.querySelectorAll('.events li');
      expect(list).toHaveLength(4);
      return [...list];
    });
    expect(items.map((li) => li.querySelector('.event-title')?.textContent)).toEqual([
      'Restarted and ran all cells',
      'Failure detected: countdown started',
      'Auto-restart switched on',
      'Gave up',
    ]);
    expect(items[1]?.querySelector('.verdict')?.textContent).toBe(
      'PyTorch CUDA out of memory: torch.OutOfMemoryError: CUDA out of memory. Tried to ' + 'allocate 2.00 GiB',
    );
    expect(items[0]?.querySelector('time')?.getAttribute('datetime')).toBe(new Date(history[3]!.at).toISOString());

    // The night began with the switch-on 3 hours ago: the axis starts there, as the line above counts.
    const svg = getByRole(root, 'img', /^Failures and restarts since /);
    expect(svg.tagName.toLowerCase()).toBe('svg');
    expect([...svg.querySelectorAll('[data-kind]')].map((g) => g.getAttribute('data-kind'))).toEqual([
      'failure',
      'restart',
    ]);
    // The drawing's description is the line at the top, in words.
    const line = root.querySelector('.night-line')?.textContent;
    expect(line).toMatch(/^Since .+: 1 failure, 1 restart, last at \d/);
    expect(svg.querySelector('desc')?.textContent).toBe(line);
  });

  it('opens an event to its whole output line by its title, a button (no hovering), and closes it again', async () => {
    const now = Date.now();
    const long = `${verdict.line}. GPU 0 has a total capacity of 14.74 GiB of which 1.06 GiB is free.`;
    await storeNotebook(KEY, {
      enabled: true,
      history: [
        { at: now - 60_000, type: 'enabled' },
        {
          at: now - 30_000,
          type: 'restart-scheduled',
          detail: 'Restart 1 of 3 in 5 s',
          verdict: { ...verdict, line: long },
          action: 'restart-and-run-all',
        },
      ],
    });
    const root = await open();
    const title = await waitFor(() => getByRole(root, 'button', /^Failure detected: countdown started/));
    // An event without lines to open is plain text, not a button.
    expect(queryAllByRole(root, 'button', /Auto-restart switched on/)).toHaveLength(0);
    const lines = root.querySelector(`#${title.getAttribute('aria-controls')}`)!;
    const cut = () => [...lines.querySelectorAll('p')].map((p) => p.classList.contains('clamp'));
    expect(title.getAttribute('aria-expanded')).toBe('false');
    expect(cut()).toEqual([true, true]);
    expect(lines.querySelector('.verdict')?.textContent).toContain(long);

    await click(title);
    expect(title.getAttribute('aria-expanded')).toBe('true');
    expect(cut()).toEqual([false, false]);
    // No tooltip needed any more: the whole line is on the page.
    expect(lines.querySelector('[title]')).toBeNull();

    await click(title);
    expect(title.getAttribute('aria-expanded')).toBe('false');
    expect(cut()).toEqual([true, true]);
  });

  it('the morning after: the night in words at the top, the last events before the controls', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const now = new Date(2026, 0, 5, 7, 30).getTime();
    vi.setSystemTime(now);
    const at = (h: number, m: number) => new Date(2026, 0, 5, h, m).getTime();
    const history: HistoryEntry[] = [
      { at: at(-9, 0), type: 'run-started' },
      { at: at(-9, 0) + 60_000, type: 'run-finished' },
      { at: at(-1, -56), type: 'run-started' },
      { at: at(1, 2), type: 'restart-scheduled', verdict, action: 'restart-and-run-all' },
      { at: at(1, 2) + 6000, type: 'restarted', action: 'restart-and-run-all' },
      { at: at(1, 38), type: 'healthy-reset', params: { minutes: 30, total: 1 } },
      { at: at(3, 14), type: 'restart-scheduled', verdict, action: 'restart-and-run-all' },
      { at: at(3, 14) + 6000, type: 'restarted', action: 'restart-and-run-all' },
      { at: at(6, 12), type: 'run-finished' },
    ];
    // Two restarts that both recovered: the crash loop is back to 0 by morning.
    await storeNotebook(KEY, { enabled: true, loopCount: 1, totalRestarts: 2, lastRestartAt: at(3, 14), history });
    const root = await open();
    const line = await waitFor(() => getByText(root, /^Since /));
    const clock = (time: number) =>
      new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' }).format(time);
    // The night starts at the evening's first Run all (22:04), not 12 hours ago; the afternoon's run is another day's.
    expect(line.textContent).toBe(
      `Since ${clock(at(-1, -56))}: 2 failures, 2 restarts, last at ${clock(at(3, 14) + 6000)}, ` +
        `run finished at ${clock(at(6, 12))}`,
    );
    expect(getByText(root, 'Restarts in a row: 0 of 3 used')).toBeTruthy();

    // In the page's order: the name, the night, the switch and state, the events, then the controls.
    const order = ['.nb-title', '.night-line', '.switch-row', '.status', '.events', '.timeline', '.controls'].map(
      (selector) => root.querySelector(selector),
    );
    expect(order.every(Boolean)).toBe(true);
    for (let i = 1; i < order.length; i++) {
      expect(order[i - 1]!.compareDocumentPosition(order[i]!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    }
    for (const control of ['Reset counter', 'Check Colab UI']) {
      expect(getByRole(root.querySelector('.controls')!, 'button', control)).toBeTruthy();
    }
  });

  it('says when the guard gave up, in the night line too', async () => {
    const now = Date.now();
    const history: HistoryEntry[] = [
      { at: now - 3 * 60_000, type: 'restart-scheduled', verdict, action: 'restart-and-run-all' },
      { at: now - 2 * 60_000, type: 'restarted', action: 'restart-and-run-all' },
      {
        at: now - 60_000,
        type: 'gave-up',
        detail: 'Gave up: 1 restart already (limit 1) and it failed again',
        verdict,
      },
    ];
    await storeNotebook(KEY, {
      enabled: true,
      loopCount: 1,
      overrides: { maxRestarts: 1 },
      status: { kind: 'gave-up', at: now - 60_000, restarts: 1 },
      history,
    });
    const root = await open();
    await waitFor(() => expect(root.querySelector('.headline')?.textContent).toBe('Gave up after 1 restart'));
    expect(root.querySelector('.night-line')?.textContent).toMatch(
      /^Last 12 hours: 2 failures, 1 restart, gave up at \d/,
    );
  });

  it('Reset counter sends reset-counter; Options opens the options page', async () => {
    await storeNotebook(KEY, { enabled: true, loopCount: 2 });
    const root = await open();
    await waitFor(() => getByText(root, 'Restarts in a row: 2 of 3 used'));
    await click(getByRole(root, 'button', 'Reset counter'));
    await waitFor(() => getByText(root, 'Restarts in a row: 0 of 3 used'));
    expect(worker.sent.at(-1)).toMatchObject({ command: { type: 'reset-counter' } });

    await click(getByRole(root, 'link', 'Options'));
    expect(fakeBrowser.runtime.openOptionsPage).toHaveBeenCalledOnce();
  });

  it('asks the page whether it watches the notebook while the guard is on, and says when it does not', async () => {
    const send = vi.spyOn(fakeBrowser.tabs, 'sendMessage') as unknown as MockInstance<
      (tabId: number, message: unknown) => Promise<unknown>
    >;
    const notWatched = (root: HTMLElement) => root.querySelector('.not-watched')?.textContent;
    send.mockResolvedValueOnce({ key: KEY, watching: true });
    await storeNotebook(KEY, { enabled: true });
    let root = await open();
    await waitFor(() => expect(send).toHaveBeenCalledWith(tabId, { type: 'page-state' }));
    await waitFor(() => expect(root.querySelector('.headline')?.textContent).toBe('Watching'));
    expect(notWatched(root)).toBeUndefined();

    // Switched off in the page, watching another notebook, or no content script at all: reload.
    for (const answer of [{ key: KEY, watching: false }, { key: 'drive:other', watching: true }, null]) {
      view?.unmount();
      if (answer) send.mockResolvedValueOnce(answer);
      else send.mockRejectedValueOnce(new Error('Could not establish connection. Receiving end does not exist.'));
      root = await open();
      await waitFor(() => expect(notWatched(root)).toMatch(/not watched yet: reload the Colab tab/));
    }

    // Off: the page is not asked, and nothing is said.
    view?.unmount();
    send.mockClear();
    await storeNotebook(KEY, { enabled: false });
    root = await open();
    await waitFor(() => expect(root.querySelector('.headline')?.textContent).toBe('Not guarded'));
    expect(send).not.toHaveBeenCalled();
    expect(notWatched(root)).toBeUndefined();
  });

  it('Check Colab UI reports ready, a failed step, or asks to reload the tab when no page script answers', async () => {
    // The fake types tabs.sendMessage as returning nothing; the content script answers a CheckUiReply.
    const send = vi.spyOn(fakeBrowser.tabs, 'sendMessage') as unknown as MockInstance<
      (tabId: number, message: unknown) => Promise<unknown>
    >;
    await storeNotebook(KEY, { enabled: true });
    const root = await open();
    const button = await waitFor(() => getByRole(root, 'button', 'Check Colab UI'));
    const result = () => button.parentElement!.querySelector('.check-result')!.textContent;
    const checkText = () => button.parentElement!.textContent;

    send.mockResolvedValueOnce({ ready: true, detail: '"Restart session and run all" found by command' });
    await click(button);
    // What it found, in Colab's ids, is for Copy diagnostics: a person reads that it works.
    await waitFor(() =>
      expect(result()).toBe(
        "Ready: the guard found Restart session and run all in Colab's menu and can see the cells run.",
      ),
    );
    expect(checkText()).not.toContain('found by command');
    expect(send).toHaveBeenLastCalledWith(tabId, { type: 'check-ui' });

    send.mockResolvedValueOnce({
      ready: false,
      failed: { step: 'find-item', reason: 'item-missing', saw: 'items: Run all' },
    });
    await click(button);
    await waitFor(() => expect(result()).toBe('Not ready: could not find Runtime → Restart session and run all'));
    expect(checkText()).not.toContain('items:');

    send.mockResolvedValueOnce({
      ready: false,
      failed: { step: 'read-run-states', reason: 'no-run-states', saw: 'no cell can be seen running' },
    });
    await click(button);
    await waitFor(() => expect(result()).toBe('Not ready: could not tell whether cells are running'));

    send.mockResolvedValueOnce({
      ready: false,
      failed: { step: 'unknown-frame-host', reason: 'x.example', saw: '…' },
      language: 'en',
    });
    await click(button);
    await waitFor(() => expect(result()).toMatch(/^Not ready: Colab shows its outputs from x\.example, a host/));
    expect(button.parentElement!.querySelector('.language-note')).toBeNull();

    send.mockRejectedValueOnce(new Error('Could not establish connection. Receiving end does not exist.'));
    await click(button);
    await waitFor(() => expect(result()).toBe('Reload the Colab tab, then try again.'));
  });

  it("says what it does not read in Colab's language: at once, and again with Check Colab UI", async () => {
    const executeScript = vi.fn(async () => [{ frameId: 0, result: 'pt-BR' }]);
    Object.assign(fakeBrowser, { scripting: { executeScript } });
    const send = vi.spyOn(fakeBrowser.tabs, 'sendMessage') as unknown as MockInstance<
      (tabId: number, message: unknown) => Promise<unknown>
    >;
    try {
      await storeNotebook(KEY, { enabled: true });
      const root = await open();
      await waitFor(() =>
        expect(root.querySelector('.notebook > .language-note')?.textContent).toMatch(
          /^Colab is in Brazilian Portuguese here\. .* notices in English only/,
        ),
      );
      expect(executeScript).toHaveBeenCalledWith(expect.objectContaining({ target: { tabId } }));
      send.mockResolvedValueOnce({ ready: true, detail: 'found', language: 'ja' });
      await click(getByRole(root, 'button', 'Check Colab UI'));
      await waitFor(() =>
        expect(root.querySelector('.check .language-note')?.textContent).toMatch(/^Colab is in Japanese here\./),
      );
    } finally {
      Reflect.deleteProperty(fakeBrowser, 'scripting');
    }
  });

  it('says nothing of languages over an English Colab', async () => {
    const executeScript = vi.fn(async () => [{ frameId: 0, result: 'en-GB' }]);
    Object.assign(fakeBrowser, { scripting: { executeScript } });
    try {
      await storeNotebook(KEY, { enabled: true, title: 'train.ipynb' });
      const root = await open();
      await waitFor(() => getByText(root, 'train.ipynb'));
      await waitFor(() => expect(executeScript).toHaveBeenCalled());
      // Its answer applied and rendered.
      await act(async () => {
        await executeScript.mock.results[0]?.value;
      });
      expect(root.querySelector('.language-note')).toBeNull();
    } finally {
      Reflect.deleteProperty(fakeBrowser, 'scripting');
    }
  });
});

describe('popup target', () => {
  it('acts on ?tab=<id> instead of the active tab', async () => {
    await fakeBrowser.tabs.create({ url: 'https://example.com/', active: true });
    await storeNotebook(KEY, { title: 'pinned.ipynb' });
    const root = await open(`?tab=${tabId}`);
    await waitFor(() => getByText(root, 'pinned.ipynb'));
    expect(toggle(root)).toBeTruthy();
  });

  it('over another page: no switch, a line saying it works on Colab notebooks and how to start', async () => {
    await fakeBrowser.tabs.create({ url: 'https://example.com/', active: true });
    const root = await open();
    await waitFor(() => getByText(root, 'Colab OOM Guard works on Google Colab notebooks.'));
    expect(getByText(root, /switch Auto-restart on/)).toBeTruthy();
    expect(queryAllByRole(root, 'switch')).toHaveLength(0);
  });

  it('over a tab whose URL it cannot see (not a host it may read): the same', async () => {
    await fakeBrowser.tabs.create({ active: true });
    const root = await open();
    await waitFor(() => getByText(root, 'Colab OOM Guard works on Google Colab notebooks.'));
  });

  it('over Colab but not a notebook, on any of its domains: asks to open or save one', async () => {
    for (const url of ['https://colab.research.google.com/', 'https://colab.google.com/?hl=pt-BR#scrollTo=x']) {
      const tab = await fakeBrowser.tabs.create({ url, active: true });
      const root = await open(`?tab=${tab.id}`);
      await waitFor(() => getByText(root, /not a notebook yet/));
      expect(queryAllByRole(root, 'switch')).toHaveLength(0);
      view?.unmount();
    }
  });

  it("over a scratch notebook: its page's key (tied to the tab), and what guarding it means", async () => {
    const url = 'https://colab.google.com/notebooks/empty.ipynb#mcpProxyToken=t&mcpProxyPort=8765';
    const tab = await fakeBrowser.tabs.create({ url, active: true });
    await fakeBrowser.tabs.update(tab.id, { title: 'empty.ipynb - Colab' } as never);
    const key = `scratch:${tab.id}-m3x9.4`;
    await fakeBrowser.storage.session.set({ [`tab:${tab.id}`]: key });
    const root = await open();
    await waitFor(() => getByText(root, /only while this tab shows it/));
    expect(getByRole(root, 'heading', 'empty.ipynb')).toBeTruthy();
    await click(toggle(root));
    await waitFor(() => expect(root.querySelector('.headline')?.textContent).toBe('Watching'));
    expect(worker.sent).toEqual([{ type: 'ui-command', key, command: { type: 'set-enabled', enabled: true } }]);
  });

  it('over a scratch notebook its page has not named yet: says so, then follows when the page does', async () => {
    const tab = await fakeBrowser.tabs.create({ url: 'https://colab.research.google.com/#create=true', active: true });
    const root = await open();
    await waitFor(() => getByText(root, /has not told the guard about it yet/));
    expect(queryAllByRole(root, 'switch')).toHaveLength(0);
    await act(() => fakeBrowser.storage.session.set({ [`tab:${tab.id}`]: `scratch:${tab.id}-abc` }));
    await waitFor(() => getByText(root, /only while this tab shows it/));
    expect(getByRole(root, 'heading', 'Scratch notebook')).toBeTruthy();
  });

  it('over a Colab URL that decodes to no storable key: the same, instead of loading forever', async () => {
    await fakeBrowser.tabs.create({
      url: 'https://colab.research.google.com/github/%0Aowner/r/blob/main/nb.ipynb',
      active: true,
    });
    const root = await open();
    await waitFor(() => getByText(root, /not a notebook yet/));
  });
});

describe('parseMaxRestarts', () => {
  it('accepts empty (default) and whole numbers up to the limit', () => {
    expect(parseMaxRestarts(' ')).toEqual({ ok: true, value: null });
    expect(parseMaxRestarts('0')).toEqual({ ok: true, value: 0 });
    expect(parseMaxRestarts('1000')).toEqual({ ok: true, value: 1000 });
    for (const bad of ['-1', '1.5', '1e3', '1001', 'x']) expect(parseMaxRestarts(bad)).toEqual({ ok: false });
  });
});
