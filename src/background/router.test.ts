import { fakeBrowser } from '@webext-core/fake-browser';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chromeChanges, pageHello } from '../../test/support/background';
import { pageEvent } from '../../test/support/page-events';
import { STORAGE_ERRORS_KEY } from '../state/schema';
import { createNotebookWriter, loadNotebook } from '../state/store';
import { createRouter, notShown } from './router';

vi.mock('webextension-polyfill', async () => ({ default: (await import('@webext-core/fake-browser')).fakeBrowser }));
vi.mock('../lib/i18n', () => ({ t: (key: string, ...subs: string[]) => [key, ...subs].join(' ') }));

const KEY = 'drive:abc';
const ORIGIN = fakeBrowser.runtime.getURL('');
const verdict = {
  category: 'gpu-oom',
  rule: 'torch-cuda-oom',
  description: 'CUDA out of memory',
  line: 'torch.OutOfMemoryError: CUDA out of memory.',
};

function colabPage(tabId = 7) {
  return {
    id: fakeBrowser.runtime.id,
    url: `https://colab.research.google.com/drive/abc`,
    frameId: 0,
    tab: { id: tabId },
  };
}
const outputFrame = {
  id: fakeBrowser.runtime.id,
  url: 'https://x-0-colab.googleusercontent.com/outputframe.html',
  frameId: 3,
  tab: { id: 7, url: 'https://colab.research.google.com/drive/abc' },
};
const popup = { id: fakeBrowser.runtime.id, url: `${ORIGIN}src/popup/index.html` };

function failure(detectedAt = Date.now()) {
  return pageEvent(KEY, { type: 'failure', detectedAt, startedAt: detectedAt, source: 'error-output', verdict });
}

function hello(key: string | null = KEY, first = true) {
  return pageHello(key, '', first);
}

describe('service-worker router', () => {
  let route: ReturnType<typeof createRouter>['route'];

  beforeEach(async () => {
    fakeBrowser.reset();
    route = createRouter(createNotebookWriter()).route;
    await fakeBrowser.storage.local.set({ [`nb:${KEY}`]: { v: 1, key: KEY, enabled: true } });
  });

  it('schedules a restart for a failure reported by a Colab page, owned by that tab', async () => {
    await route(hello(), colabPage());
    expect(await route(failure(), colabPage())).toMatchObject({ outcome: 'scheduled' });
    expect((await loadNotebook(KEY)).status).toMatchObject({
      kind: 'pending',
      ownerTab: 7,
      action: 'restart-and-run-all',
    });
  });

  it("keeps a page's word that detection may be blind, from the tab showing the notebook only", async () => {
    const sight = (blind: unknown) => pageEvent(KEY, { type: 'sight', blind, at: 1_000 });
    await route(hello(), colabPage());
    expect(await route(sight(true), colabPage(8))).toMatchObject({ ok: false });
    expect((await loadNotebook(KEY)).blindSince).toBeUndefined();
    expect(await route(sight(true), colabPage())).toEqual({ ok: true });
    expect((await loadNotebook(KEY)).blindSince).toBe(1_000);
    expect(await route(sight('no'), colabPage())).toBeUndefined();
    await route(sight(false), colabPage());
    expect((await loadNotebook(KEY)).blindSince).toBeUndefined();
  });

  it('a hello after a rename leaves a restart in progress alone; after a reload ends it as interrupted', async () => {
    const restarting = {
      kind: 'restarting',
      reason: 'failure',
      action: 'restart-and-run-all',
      attempt: 'a1b2c3d4e5f6',
      ownerTab: 7,
      startedAt: Date.now(),
    };
    await route(pageHello(KEY, 'train.ipynb', true), colabPage());
    await fakeBrowser.storage.local.set({ [`nb:${KEY}`]: { v: 1, key: KEY, enabled: true, status: restarting } });
    await route(pageHello(KEY, 'renamed.ipynb', false), colabPage());
    expect((await loadNotebook(KEY)).status).toMatchObject({ kind: 'restarting', ownerTab: 7 });
    expect((await loadNotebook(KEY)).title).toBe('renamed.ipynb');
    await route(pageHello(KEY, 'renamed.ipynb', true), colabPage());
    const after = await loadNotebook(KEY);
    expect(after.status.kind).toBe('watching');
    expect(after.history.map((e) => e.type)).toContain('interrupted');
  });

  it('drops page messages from any other sender, and malformed ones, without an answer', async () => {
    const strangers = [
      { ...colabPage(), id: 'another-extension' },
      { ...colabPage(), url: 'https://evil.example/drive/abc' },
      { ...colabPage(), frameId: 2 },
      outputFrame,
      popup,
      { id: fakeBrowser.runtime.id, url: 'https://colab.research.google.com/drive/abc' },
    ];
    for (const sender of strangers) expect(route(failure(), sender)).toBeUndefined();
    expect(
      route(pageEvent(KEY, { ...failure().event, verdict: { ...verdict, category: 'bogus' } }), colabPage()),
    ).toBeUndefined();
    expect(route({ type: 'page-nonsense', key: KEY }, colabPage())).toBeUndefined();
    expect((await loadNotebook(KEY)).status.kind).toBe('watching');
  });

  it('answers an output frame with what it may post only once its page said hello, and nothing else', async () => {
    expect(await route({ type: 'frame-hello' }, outputFrame)).toBeNull();
    const hello = (await route(pageHello(KEY, 'train.ipynb', true), colabPage())) as {
      tabId: number;
      token: string;
    };
    expect(hello).toEqual({ tabId: 7, token: expect.stringMatching(/^[0-9a-f]{64}$/), key: KEY });
    expect(await route({ type: 'frame-hello' }, outputFrame)).toEqual({
      token: hello.token,
      markers: false,
      origin: 'https://colab.research.google.com',
    });
    expect(route(failure(), outputFrame)).toBeUndefined();
  });

  it('takes user commands only from extension pages', async () => {
    const off = { type: 'ui-command', key: KEY, command: { type: 'set-enabled', enabled: false } };
    expect(route(off, colabPage())).toBeUndefined();
    expect(await route(off, popup)).toEqual({ ok: true });
    expect((await loadNotebook(KEY)).enabled).toBe(false);
  });

  it('refuses an invalid settings patch and an invalid import with a message, changing nothing', async () => {
    expect(await route({ type: 'ui-settings', patch: { maxRestarts: -1 } }, popup)).toMatchObject({
      ok: false,
      why: { kind: 'invalid-setting', path: 'maxRestarts', detail: expect.any(String) },
    });
    expect(await route({ type: 'ui-import', text: '{"not": "an export"}' }, popup)).toMatchObject({ ok: false });
    expect(await fakeBrowser.storage.local.get('settings')).toEqual({});
  });

  it('one failure gives one restart however many places report it', async () => {
    await route(hello(), colabPage());
    await route(hello(), colabPage(8));
    await route(failure(), colabPage());
    expect(await route(failure(), colabPage())).toMatchObject({ outcome: 'absorbed' });
    expect(await route({ ...failure(), source: 'crash-toast' }, colabPage(8))).toMatchObject({ outcome: 'absorbed' });
  });

  it('acts on page messages only for the notebook the tab shows, answering each in its own shape', async () => {
    const other = 'drive:other';
    await fakeBrowser.storage.local.set({ [`nb:${other}`]: { v: 1, key: other, enabled: true } });
    expect(await route(failure(), colabPage())).toMatchObject({ outcome: 'ignored' });
    await route(hello(other), colabPage());
    expect(await route(failure(), colabPage())).toMatchObject({ outcome: 'ignored' });
    expect(await route(pageEvent(KEY, { type: 'claim', attempt: 'a1' }), colabPage())).toMatchObject({
      granted: false,
    });
    expect(await route(pageEvent(KEY, { type: 'restart-result', attempt: 'a1', ok: true }), colabPage())).toMatchObject(
      {
        ok: false,
      },
    );
    expect(await route(pageEvent(KEY, { type: 'cancel' }), colabPage())).toMatchObject({
      ok: false,
    });
    expect((await loadNotebook(KEY)).status.kind).toBe('watching');
    expect(await route({ ...failure(), key: other }, colabPage())).toMatchObject({ outcome: 'scheduled' });
  });

  it('takes only Cancel as a command from a page', async () => {
    await route(hello(), colabPage());
    expect(route(pageEvent(KEY, { type: 'set-enabled', enabled: false }), colabPage())).toBeUndefined();
    expect(route(pageEvent(KEY, { type: 'reset-counter' }), colabPage())).toBeUndefined();
    await route(failure(), colabPage());
    expect(await route(pageEvent(KEY, { type: 'cancel' }), colabPage())).toEqual({
      ok: true,
    });
    const record = await loadNotebook(KEY);
    expect(record).toMatchObject({ enabled: true, status: { kind: 'watching' } });
    expect(record.history.map((e) => e.type)).toContain('cancelled');
  });

  describe('a countdown whose tab leaves the notebook', () => {
    const URL = 'https://colab.research.google.com/drive/abc';
    const restarting = {
      kind: 'restarting',
      reason: 'failure',
      action: 'restart-and-run-all',
      attempt: 'a1b2c3d4e5f6',
      startedAt: Date.now(),
    };

    beforeEach(() => fakeBrowser.windows.create({ focused: true }));

    /** A tab on the notebook, registered by its hello. */
    async function openTab(): Promise<number> {
      const { id } = await fakeBrowser.tabs.create({ url: URL });
      if (id === undefined) throw new Error('no tab id');
      await route(hello(), colabPage(id));
      return id;
    }

    it('goes to another tab showing the notebook when its tab opens another notebook', async () => {
      const [owner, other] = [await openTab(), await openTab()];
      await route(failure(), colabPage(owner));
      await route(hello('drive:other'), colabPage(owner));
      const record = await loadNotebook(KEY);
      expect(record.status).toMatchObject({ kind: 'pending', ownerTab: other });
      expect(record.history.at(-1)?.type).toBe('resumed');
    });

    it('skips tabs that were discarded or no longer show the notebook', async () => {
      const [owner, discarded, elsewhere, heir] = [await openTab(), await openTab(), await openTab(), await openTab()];
      await chromeChanges(discarded, { discarded: true });
      await chromeChanges(elsewhere, { url: 'https://example.com/' });
      await route(failure(), colabPage(owner));
      await route(hello(null), colabPage(owner));
      expect((await loadNotebook(KEY)).status).toMatchObject({ kind: 'pending', ownerTab: heir });
    });

    it('ends a restart its tab was performing as interrupted', async () => {
      const owner = await openTab();
      await fakeBrowser.storage.local.set({
        [`nb:${KEY}`]: { v: 1, key: KEY, enabled: true, status: { ...restarting, ownerTab: owner } },
      });
      await route(hello('drive:other'), colabPage(owner));
      const record = await loadNotebook(KEY);
      expect(record.status.kind).toBe('watching');
      // No other tab shows the notebook: nothing watches the run that restart was bringing back.
      expect(record.history.slice(-2).map((entry) => entry.type)).toEqual(['interrupted', 'tab-gone']);
    });

    it('is taken over by a tab that opens the notebook when its owner was discarded', async () => {
      const owner = await openTab();
      await route(failure(), colabPage(owner));
      await chromeChanges(owner, { discarded: true });
      const late = await openTab();
      expect((await loadNotebook(KEY)).status).toMatchObject({ kind: 'pending', ownerTab: late });
    });
  });

  describe('scratch notebooks: a new notebook each time, kept while their tab shows them', () => {
    let handOver: ReturnType<typeof createRouter>['handOver'];
    const SCRATCH_URL = 'https://colab.google.com/notebooks/empty.ipynb#mcpProxyToken=t&mcpProxyPort=9';
    const on = (key: string) => ({ type: 'ui-command', key, command: { type: 'set-enabled', enabled: true } });
    const stored = async () => Object.keys(await fakeBrowser.storage.local.get(null)).sort();

    beforeEach(async () => {
      ({ route, handOver } = createRouter(createNotebookWriter()));
      await fakeBrowser.windows.create({ focused: true });
    });

    /** A tab showing a scratch notebook; its page says hello with its page-keyed scratch key. */
    async function scratchTab(pageId: string): Promise<{ tabId: number; key: string }> {
      const { id } = await fakeBrowser.tabs.create({ url: SCRATCH_URL });
      if (id === undefined) throw new Error('no tab id');
      const page = { ...colabPage(id), url: SCRATCH_URL };
      const reply = (await route(hello(`scratch:${pageId}`), page)) as { key: string };
      return { tabId: id, key: reply.key };
    }

    it('ties the key to its tab: two tabs never share a scratch notebook, even with the same page id', async () => {
      const [a, b] = [await scratchTab('m1.5'), await scratchTab('m1.5')];
      expect(a.key).toBe(`scratch:${a.tabId}-m1.5`);
      expect(b.key).toBe(`scratch:${b.tabId}-m1.5`);
      await route(on(a.key), popup);
      expect((await loadNotebook(a.key)).enabled).toBe(true);
      expect((await loadNotebook(b.key)).enabled).toBe(false);
    });

    it("acts on the page's messages under the tied key", async () => {
      const { tabId, key } = await scratchTab('m2');
      await route(on(key), popup);
      const page = { ...colabPage(tabId), url: SCRATCH_URL };
      expect(await route({ ...failure(), key }, page)).toMatchObject({ outcome: 'scheduled' });
    });

    it('forgets the record when its tab closes, reloads (a new page) or opens another notebook', async () => {
      const closed = await scratchTab('m3');
      const reloaded = await scratchTab('m4');
      const moved = await scratchTab('m5');
      for (const { key } of [closed, reloaded, moved]) await route(on(key), popup);
      // What the worker does when a tab closes (index.ts).
      await handOver(closed.key, closed.tabId, 'closed');
      const page = (tabId: number) => ({ ...colabPage(tabId), url: SCRATCH_URL });
      const again = (await route(hello('scratch:m4b'), page(reloaded.tabId))) as { key: string };
      expect(again.key).not.toBe(reloaded.key);
      await route(hello(KEY), colabPage(moved.tabId));
      expect(await stored()).toEqual([`nb:${KEY}`]);
    });
  });

  describe('storage holds only what the user chose', () => {
    const NEW = 'drive:neverGuarded';
    const newPage = { ...colabPage(), url: 'https://colab.research.google.com/drive/neverGuarded' };

    it('a notebook opened, renamed and failing, but never switched on, leaves nothing in storage', async () => {
      await route(pageHello(NEW, 'secret.ipynb', true), newPage);
      await route(pageHello(NEW, 'renamed.ipynb', false), newPage);
      expect(await route({ ...failure(), key: NEW }, newPage)).toMatchObject({ outcome: 'off' });
      expect(Object.keys(await fakeBrowser.storage.local.get(null))).toEqual([`nb:${KEY}`]);
    });

    it('switching it on creates its record, named as its page showed, without spoofing characters', async () => {
      await route(pageHello(NEW, 'train\u202E.ipynb', true), newPage);
      const on = { type: 'ui-command', key: NEW, command: { type: 'set-enabled', enabled: true } };
      expect(await route(on, popup)).toEqual({ ok: true });
      expect(await loadNotebook(NEW)).toMatchObject({ enabled: true, title: 'train.ipynb' });
      await route(pageHello(NEW, 'v2.ipynb', false), newPage);
      expect((await loadNotebook(NEW)).title).toBe('v2.ipynb');
    });

    it('refuses notebook keys with control or bidirectional characters', async () => {
      const spoof = 'drive:abc\u202Egnp';
      // An address that decodes to one names no notebook.
      expect(await route(pageHello(spoof, '', true), colabPage())).toMatchObject({ key: null });
      const command = { type: 'ui-command', key: spoof, command: { type: 'set-enabled', enabled: true } };
      expect(route(command, popup)).toBeUndefined();
    });
  });

  describe("each page's event, as the policy applies it from the tab that sent it", () => {
    const T = 1_000;
    /** A page's event, and the policy event it must become for the tab that sent it (7). */
    const TABLE: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [
        { type: 'declined', detectedAt: T, startedAt: 5, reason: 'ending-missing', verdict },
        // The router adds the tab to every page's event; the policy reads it where the event names one.
        { type: 'declined', tabId: 7, detectedAt: T, startedAt: 5, reason: 'ending-missing', verdict },
      ],
      [
        { type: 'marker', detectedAt: T, pattern: 'RESTART_ME', line: 'RESTART_ME now' },
        { type: 'marker', tabId: 7, detectedAt: T, pattern: 'RESTART_ME', line: 'RESTART_ME now' },
      ],
      [
        { type: 'disconnect', detectedAt: T, kind: 'zero-units', line: 'no units' },
        { type: 'disconnect', tabId: 7, detectedAt: T, kind: 'zero-units', line: 'no units' },
      ],
      [
        { type: 'dialog', detectedAt: T, kind: 'drive-permission', text: 'Permit this notebook' },
        { type: 'dialog', tabId: 7, detectedAt: T, kind: 'drive-permission', text: 'Permit this notebook' },
      ],
      [
        { type: 'ask', attempt: 'a1' },
        { type: 'ask', tabId: 7, attempt: 'a1' },
      ],
      [
        { type: 'answer', attempt: 'a1', choice: 'not-now' },
        { type: 'answer', tabId: 7, attempt: 'a1', choice: 'not-now' },
      ],
      [
        { type: 'restart-result', attempt: 'a1', ok: true },
        { type: 'restart-result', tabId: 7, attempt: 'a1', ok: true },
      ],
      [
        { type: 'restart-result', attempt: 'a1', ok: false },
        { type: 'restart-result', tabId: 7, attempt: 'a1', ok: false, failed: expect.objectContaining({}) },
      ],
      [
        {
          type: 'restart-result',
          attempt: 'a1',
          ok: false,
          failed: { step: 'reconnect', reason: 'unable-to-connect', saw: 'x' },
          runtime: 'unable-to-connect',
        },
        {
          type: 'restart-result',
          tabId: 7,
          attempt: 'a1',
          ok: false,
          failed: { step: 'reconnect', reason: 'unable-to-connect', saw: 'x' },
          runtime: 'unable-to-connect',
        },
      ],
      [
        { type: 'activity', busy: true },
        { type: 'activity', tabId: 7, busy: true },
      ],
      [
        { type: 'run', detectedAt: T, what: 'stopped', cell: 3, line: 'ValueError' },
        { type: 'run', tabId: 7, detectedAt: T, what: 'stopped', cell: 3, line: 'ValueError' },
      ],
    ];

    it.each(TABLE)('%j', async (sent, event) => {
      const writer = createNotebookWriter();
      const applied: unknown[] = [];
      const recording = {
        ...writer,
        update: vi.fn((key, e, ctx, title) => {
          applied.push(e);
          return writer.update(key, e, ctx, title);
        }),
      };
      const router = createRouter(recording as typeof writer).route;
      await router(hello(), colabPage());
      applied.length = 0;
      await router(pageEvent(KEY, sent), colabPage());
      expect(applied).toEqual([event]);
      // From a tab that does not show the notebook: nothing applied, a refusal in the shape its sender expects.
      applied.length = 0;
      const refusal = await router(pageEvent(KEY, sent), colabPage(8));
      expect(applied).toEqual([]);
      const why = { kind: 'not-shown' };
      const reports = ['marker', 'disconnect', 'dialog'];
      if (reports.includes(String(sent.type))) expect(refusal).toEqual({ outcome: 'ignored', why });
      else if (sent.type === 'answer') expect(refusal).toEqual({ granted: false, why });
      else expect(refusal).toEqual({ ok: false, why });
    });

    it('a failed step the page did not name is stored as unknown: a UI problem, not a silent stop', async () => {
      await route(hello(), colabPage());
      const restarting = {
        kind: 'restarting',
        reason: 'failure',
        action: 'restart-and-run-all',
        attempt: 'a1',
        ownerTab: 7,
        startedAt: Date.now(),
      };
      await fakeBrowser.storage.local.set({ [`nb:${KEY}`]: { v: 1, key: KEY, enabled: true, status: restarting } });
      await route(pageEvent(KEY, { type: 'restart-result', attempt: 'a1', ok: false }), colabPage());
      expect((await loadNotebook(KEY)).status).toMatchObject({ kind: 'ui-problem', failed: { step: 'unknown' } });
    });
  });

  describe('a failed write (storage full)', () => {
    function fillStorage() {
      vi.spyOn(fakeBrowser.storage.local, 'set').mockRejectedValue(new Error('Resource::kQuotaBytes quota exceeded'));
    }
    const errors = async () => (await fakeBrowser.storage.session.get(STORAGE_ERRORS_KEY))[STORAGE_ERRORS_KEY];

    afterEach(() => vi.restoreAllMocks());

    it('of a failure report is listed with what was lost, and the page still gets its guard', async () => {
      await route(hello(), colabPage());
      fillStorage();
      await expect(route(failure(), colabPage())).rejects.toThrow(/storage: it is full/);
      expect(await errors()).toEqual([
        {
          at: expect.any(Number),
          message: expect.stringContaining('kQuotaBytes quota exceeded'),
          lost: `lostFailure ${KEY} rule_torch_cuda_oom`,
        },
      ]);
      const reply = await route(pageHello(KEY, 'renamed', true), colabPage());
      expect(reply).toMatchObject({ tabId: 7, token: expect.any(String) });
      expect(await errors()).toHaveLength(2);
    });

    it('of another page message says what it lost: the marker, the line, the restart, the name, a change', async () => {
      await route(hello(), colabPage());
      fillStorage();
      const lost = [
        [{ type: 'marker', detectedAt: 1, pattern: 'RESTART_ME', line: 'x' }, `lostFailure ${KEY} RESTART_ME`],
        [{ type: 'disconnect', detectedAt: 1, kind: 'zero-units', line: 'no units' }, `lostFailure ${KEY} no units`],
        [{ type: 'sight', blind: true, at: 1 }, 'lostChange'],
      ] as const;
      for (const [event] of lost) await route(pageEvent(KEY, event), colabPage())?.catch(() => undefined);
      await route(pageHello(KEY, 'renamed.ipynb', false), colabPage())?.catch(() => undefined);
      vi.restoreAllMocks();
      const pending = {
        kind: 'pending',
        reason: 'failure',
        action: 'restart-and-run-all',
        restartAt: 1,
        attempt: 'a1',
      };
      const status = { ...pending, ownerTab: 7, detectedAt: 1, verdict };
      await fakeBrowser.storage.local.set({ [`nb:${KEY}`]: { v: 1, key: KEY, enabled: true, status } });
      fillStorage();
      await route(pageEvent(KEY, { type: 'claim', attempt: 'a1' }), colabPage())?.catch(() => undefined);
      const stored = ((await errors()) as Array<{ lost: string }>).map((e) => e.lost);
      expect(stored).toEqual([...lost.map(([, what]) => what), `lostTitle ${KEY}`, `lostRestart ${KEY}`]);
    });

    it('of a command or settings is answered with the message; the user can dismiss the list', async () => {
      fillStorage();
      const off = { type: 'ui-command', key: KEY, command: { type: 'set-enabled', enabled: false } };
      expect(await route(off, popup)).toEqual({
        ok: false,
        why: { kind: 'storage-refused', full: true, detail: expect.stringContaining('kQuotaBytes quota exceeded') },
      });
      expect(await route({ type: 'ui-settings', patch: { maxRestarts: 4 } }, popup)).toMatchObject({ ok: false });
      expect(await errors()).toHaveLength(2);
      vi.restoreAllMocks();
      expect(await route({ type: 'ui-clear-storage-errors' }, popup)).toEqual({ ok: true });
      expect(await errors()).toBeUndefined();
    });
  });

  describe('countdowns and browser sessions', () => {
    const pendingStatus = (ownerTab: number, restartAt: number, session?: string) => ({
      kind: 'pending',
      reason: 'failure',
      action: 'restart-and-run-all',
      restartAt,
      attempt: 'old-attempt',
      ownerTab,
      detectedAt: restartAt - 5000,
      verdict,
      ...(session ? { session } : {}),
    });

    it('a countdown left by a previous browser session starts again in the restored tab of the same id', async () => {
      const now = Date.now();
      await fakeBrowser.storage.local.set({
        [`nb:${KEY}`]: { v: 2, key: KEY, enabled: true, status: pendingStatus(7, now - 10_000, 'gone-session') },
      });
      await route(hello(), colabPage(7));
      const { status } = await loadNotebook(KEY);
      expect(status).toMatchObject({ kind: 'pending', ownerTab: 7 });
      if (status.kind !== 'pending') throw new Error('not pending');
      expect(status.attempt).not.toBe('old-attempt');
      expect(status.restartAt).toBeGreaterThanOrEqual(now + 5000);
      const old = await route(pageEvent(KEY, { type: 'claim', attempt: 'old-attempt' }), colabPage(7));
      expect(old).toMatchObject({ granted: false });
    });

    it('one that ended over 2 min ago while the notebook was closed is skipped when it opens', async () => {
      const now = Date.now();
      await fakeBrowser.storage.local.set({
        [`nb:${KEY}`]: { v: 2, key: KEY, enabled: true, status: pendingStatus(99, now - 3 * 60_000, 'gone-session') },
      });
      await route(hello(), colabPage(7));
      const record = await loadNotebook(KEY);
      expect(record.status.kind).toBe('watching');
      expect(record.history.at(-1)).toMatchObject({ type: 'skipped', verdict });
    });
  });

  describe("the order of a tab's messages", () => {
    beforeEach(() => fakeBrowser.windows.create({ focused: true }));

    it('a claim sent after the tab opened another notebook is refused and touches neither notebook', async () => {
      const { id } = await fakeBrowser.tabs.create({ url: 'https://colab.research.google.com/drive/abc' });
      if (id === undefined) throw new Error('no tab id');
      await route(hello(), colabPage(id));
      await route(failure(), colabPage(id));
      const before = await loadNotebook(KEY);
      if (before.status.kind !== 'pending') throw new Error('not pending');
      vi.useFakeTimers({ now: before.status.restartAt, toFake: ['Date'] });
      try {
        // Sent in this order by the page at the deadline, and handled concurrently by the worker.
        const switched = route(hello('drive:other'), colabPage(id));
        const claim = route(pageEvent(KEY, { type: 'claim', attempt: before.status.attempt }), colabPage(id));
        await switched;
        expect(await claim).toMatchObject({ granted: false });
      } finally {
        vi.useRealTimers();
      }
      expect((await loadNotebook(KEY)).status).toEqual(before.status);
      expect(await fakeBrowser.storage.local.get('nb:drive:other')).toEqual({});
    });
  });

  it('a worker restarted between schedule, claim and result still gives one restart', async () => {
    const worker = () => createRouter(createNotebookWriter()).route;
    await worker()(hello(), colabPage());
    await worker()(failure(), colabPage());
    const { status } = await loadNotebook(KEY);
    if (status.kind !== 'pending') throw new Error('not pending');
    vi.useFakeTimers({ now: status.restartAt, toFake: ['Date'] });
    try {
      const claim = pageEvent(KEY, { type: 'claim', attempt: status.attempt });
      expect(await worker()(claim, colabPage())).toEqual({ granted: true, action: 'restart-and-run-all' });
      expect(await worker()(claim, colabPage())).toMatchObject({ granted: false });
      const result = pageEvent(KEY, { type: 'restart-result', attempt: status.attempt, ok: true });
      expect(await worker()(result, colabPage())).toEqual({ ok: true });
      expect(await worker()(result, colabPage())).toMatchObject({ ok: false });
    } finally {
      vi.useRealTimers();
    }
    const record = await loadNotebook(KEY);
    expect(record).toMatchObject({ totalRestarts: 1, status: { kind: 'watching' } });
    expect(record.history.map((e) => e.type)).toEqual(['restart-scheduled', 'restarted']);
  });
});

describe("the refusal of a page's event about a notebook its tab does not show", () => {
  const why = { kind: 'not-shown' };

  it('a report is ignored', () => {
    expect(notShown({ type: 'marker', detectedAt: 1, pattern: 'RESTART_ME', line: 'RESTART_ME' })).toEqual({
      outcome: 'ignored',
      why,
    });
  });

  it('a claim or an answer is not granted', () => {
    expect(notShown({ type: 'claim', attempt: 'a1' })).toEqual({ granted: false, why });
    expect(notShown({ type: 'answer', attempt: 'a1', choice: 'restart' })).toEqual({ granted: false, why });
  });

  it('a command, a result or a note is not ok', () => {
    expect(notShown({ type: 'cancel' })).toEqual({ ok: false, why });
    expect(notShown({ type: 'restart-result', attempt: 'a1', ok: true })).toEqual({ ok: false, why });
    expect(notShown({ type: 'activity', busy: true })).toEqual({ ok: false, why });
  });
});
