// @vitest-environment happy-dom
import { fakeBrowser } from '@webext-core/fake-browser';
import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeClosureMenu, mount, snippet } from '../../test/support/colab-dom';
import { type Sent, sentAs } from '../../test/support/page-events';
import type { ActionOptions } from '../colab';
import { OrphanedError } from '../lib/orphaned';
import { type PageMessage, PageMessageSchema } from '../messaging/protocol';
import type { PageCapture } from '../state/page-capture';
import { defaultNotebook, type NotebookRecord, notebookStorageKey } from '../state/schema';
import { loadNotebook } from '../state/store';
import { createPageGuard, type PageGuard } from './guard';

vi.mock('webextension-polyfill', async () => ({ default: (await import('@webext-core/fake-browser')).fakeBrowser }));
vi.mock('../lib/i18n', () => ({ t: (key: string, ...subs: string[]) => [key, ...subs].join(' ') }));

const page = vi.hoisted(() => ({ sent: [] as unknown[], sendToWorker: vi.fn(), restartAndRunAll: vi.fn() }));
vi.mock('./send-to-worker', () => ({ sendToWorker: page.sendToWorker }));

const notice = () => document.querySelector('colab-oom-guard-notice')?.shadowRoot ?? null;
vi.mock('../state/store', async (importOriginal) => {
  const store = await importOriginal<typeof import('../state/store')>();
  return { ...store, loadNotebook: vi.fn(store.loadNotebook) };
});
vi.mock('../colab', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../colab')>()),
  restartAndRunAll: page.restartAndRunAll,
}));

const TAB = 4;
const A = 'drive:notebookA';
const B = 'drive:notebookB';
const verdict = {
  category: 'gpu-oom' as const,
  rule: 'r',
  description: 'CUDA out of memory',
  line: 'OutOfMemoryError',
};

function pending(key: string, restartAt = Date.now() - 1): NotebookRecord {
  return {
    ...defaultNotebook(key),
    enabled: true,
    status: {
      kind: 'pending',
      reason: 'failure',
      action: 'restart-and-run-all',
      restartAt,
      attempt: `attempt-${key}`,
      ownerTab: TAB,
      detectedAt: 1,
      verdict,
    },
  };
}

function store(record: NotebookRecord): Promise<void> {
  return fakeBrowser.storage.local.set({ [notebookStorageKey(record.key)]: record });
}

/** The notebook the page's address shows (Colab changes it in place when the tab opens another notebook). */
function showing(key: string): void {
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(
    `https://colab.research.google.com/drive/${key.slice('drive:'.length)}`,
  );
}

const sentOfType = (type: Sent['type']) =>
  page.sent.map((m) => sentAs(m as PageMessage)).filter((m) => m.type === type);

describe('page guard', () => {
  let guard: PageGuard;
  let script: AbortController;

  beforeEach(() => {
    fakeBrowser.reset();
    page.sent.length = 0;
    page.sendToWorker.mockImplementation(async (message: PageMessage) => {
      page.sent.push(message);
      if (sentAs(message).type === 'claim') return { granted: true, action: 'restart-and-run-all' };
      return { ok: true };
    });
    showing(A);
    script = new AbortController();
    guard = createPageGuard(document, { signal: script.signal, invalidate: () => script.abort() });
  });

  afterEach(() => {
    script.abort();
    document.documentElement.querySelector('colab-oom-guard-notice')?.remove();
  });

  it('reports a restart to the notebook it was for, though the tab opened another notebook meanwhile', async () => {
    let finish: (value: unknown) => void = () => {};
    page.restartAndRunAll.mockReturnValue(new Promise((resolve) => (finish = resolve)));
    await store(pending(A));
    guard.setNotebook({ key: A, tabId: TAB, token: 't' });
    await vi.waitFor(() => expect(page.restartAndRunAll).toHaveBeenCalled());
    guard.setNotebook({ key: B, tabId: TAB, token: 't' });
    finish({ ok: true, path: 'menu', via: 'command', dialog: 'confirmed', evidence: '' });
    await vi.waitFor(() => expect(sentOfType('restart-result')).toHaveLength(1));
    expect(sentOfType('claim')[0]).toMatchObject({ key: A, attempt: `attempt-${A}` });
    expect(sentOfType('restart-result')[0]).toMatchObject({ key: A, attempt: `attempt-${A}`, ok: true });
  });

  it('restarts neither notebook when the claim is granted after the tab opened another notebook', async () => {
    let grant: (reply: unknown) => void = () => {};
    page.restartAndRunAll.mockClear();
    page.sendToWorker.mockImplementation(async (message: PageMessage) => {
      page.sent.push(message);
      return sentAs(message).type === 'claim' ? new Promise((resolve) => (grant = resolve)) : { ok: true };
    });
    await store(pending(A));
    guard.setNotebook({ key: A, tabId: TAB, token: 't' });
    await vi.waitFor(() => expect(sentOfType('claim')).toHaveLength(1));
    showing(B);
    grant({ granted: true, action: 'restart-and-run-all' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(page.restartAndRunAll).not.toHaveBeenCalled();
    expect(sentOfType('restart-result')).toEqual([]);
  });

  it('sends a failed step with a long "saw" cut to what the service worker accepts', async () => {
    page.restartAndRunAll.mockResolvedValue({
      ok: false,
      failed: { step: 'find-item', reason: 'item-missing', saw: `items: ${'Some item, '.repeat(500)}` },
    });
    await store(pending(A));
    guard.setNotebook({ key: A, tabId: TAB, token: 't' });
    await vi.waitFor(() => expect(sentOfType('restart-result')).toHaveLength(1));
    const [result] = sentOfType('restart-result');
    expect(page.sent.every((message) => v.is(PageMessageSchema, message))).toBe(true);
    expect(result).toMatchObject({
      ok: false,
      failed: { step: 'find-item', reason: 'item-missing', saw: expect.stringMatching(/^items: Some item/) },
    });
  });

  it('tells the user when the restart could not be started although the countdown is over', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      page.sendToWorker.mockImplementation(async (message: PageMessage) => {
        page.sent.push(message);
        return sentAs(message).type === 'claim' ? { granted: false, why: { kind: 'no-answer' } } : { ok: true };
      });
      await store(pending(A));
      guard.setNotebook({ key: A, tabId: TAB, token: 't' });
      await vi.advanceTimersByTimeAsync(30_000);
      expect(sentOfType('claim')).toHaveLength(4);
      const notice = document.querySelector('colab-oom-guard-notice')?.shadowRoot;
      expect(notice?.querySelector('.title')?.textContent).toBe('noticeUnclaimedTitle');
      expect(notice?.querySelector('.body')?.textContent).toContain('whyNoAnswer');
    } finally {
      vi.useRealTimers();
    }
  });

  it('ignores its first read of the record when a newer change arrived before it', async () => {
    let answer: (record: NotebookRecord) => void = () => {};
    vi.mocked(loadNotebook).mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
    const cancelled: NotebookRecord = { ...pending(A), status: { kind: 'watching' } };
    guard.setNotebook({ key: A, tabId: TAB, token: 't' });
    await store(cancelled);
    answer(pending(A, Date.now() + 60_000));
    await vi.waitFor(() => expect(loadNotebook).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(document.querySelector('colab-oom-guard-notice')).toBeNull();
  });

  it('answers the page state once the record is read: watched while on, just switched on too; not off', async () => {
    expect(await guard.pageState()).toEqual({ key: null, watching: false });
    await store({ ...defaultNotebook(B), enabled: false });
    guard.setNotebook({ key: B, tabId: TAB, token: 't' });
    expect(await guard.pageState()).toEqual({ key: B, watching: false });
    // Switched on, and this page has not heard of it yet (its first read is older): the question reads afresh.
    await store({ ...defaultNotebook(A), enabled: true });
    vi.mocked(loadNotebook).mockResolvedValueOnce({ ...defaultNotebook(A), enabled: false });
    guard.setNotebook({ key: A, tabId: TAB, token: 't' });
    expect(await guard.pageState()).toEqual({ key: A, watching: true });
  });

  it("showing another notebook ends the first one's session: its notice, countdown and record watch", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    try {
      await store(pending(A, Date.now() + 5000));
      guard.setNotebook({ key: A, tabId: TAB, token: 't' });
      await vi.waitFor(() => expect(notice()?.querySelector('.title')?.textContent).toBe('noticeBrand'));
      guard.setNotebook({ key: B, tabId: TAB, token: 't' });
      expect(notice()).toBeNull();
      await store({ ...pending(A, Date.now() + 10_000), status: { ...pending(A).status, attempt: 'again' } as never });
      await vi.advanceTimersByTimeAsync(60_000);
      expect(sentOfType('claim')).toEqual([]);
      expect(notice()).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('the same notebook saying hello again (renamed) keeps its session and countdown', async () => {
    let finish: (value: unknown) => void = () => {};
    page.restartAndRunAll.mockReturnValue(new Promise((resolve) => (finish = resolve)));
    await store(pending(A));
    guard.setNotebook({ key: A, tabId: TAB, token: 't' });
    await vi.waitFor(() => expect(page.restartAndRunAll).toHaveBeenCalled());
    guard.setNotebook({ key: A, tabId: TAB, token: 'new token' });
    finish({ ok: true, path: 'menu', via: 'command', dialog: 'confirmed', evidence: '' });
    await vi.waitFor(() => expect(sentOfType('restart-result')).toHaveLength(1));
    expect(sentOfType('claim')).toHaveLength(1);
  });

  it('an orphaned script (the extension updated under the page) ends everything it started', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    try {
      page.sendToWorker.mockImplementation(async (message: PageMessage) => {
        page.sent.push(message);
        throw new OrphanedError('Extension context invalidated.');
      });
      await store(pending(A, Date.now() + 1000));
      guard.setNotebook({ key: A, tabId: TAB, token: 't' });
      await vi.waitFor(() => expect(notice()).not.toBeNull());
      await vi.advanceTimersByTimeAsync(1000);
      expect(sentOfType('claim')).toHaveLength(1);
      expect(script.signal.aborted).toBe(true);
      expect(notice()).toBeNull();
      await vi.advanceTimersByTimeAsync(60_000);
      expect(sentOfType('claim')).toHaveLength(1);
      guard.setNotebook({ key: B, tabId: TAB, token: 't' });
      await store(pending(B));
      await vi.advanceTimersByTimeAsync(60_000);
      expect(page.sent).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("hands over with the UI check what the guard met: its restart's dialog, then the check's menu", async () => {
    const met = { v: 1, kind: 'dialog', occasion: 'restart', at: 1, language: 'en', nodes: [{ tag: 'mwc-dialog' }] };
    page.restartAndRunAll.mockImplementation(async (_doc: Document, opts: ActionOptions) => {
      opts.capture?.(met as PageCapture);
      return { ok: true, path: 'menu', via: 'command', dialog: 'confirmed', evidence: '' };
    });
    await store(pending(A));
    guard.setNotebook({ key: A, tabId: TAB, token: 't' });
    await vi.waitFor(() => expect(sentOfType('restart-result')).toHaveLength(1));
    mount(snippet('menubar-and-runtime-menu-2026-03.html'));
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    fakeClosureMenu(document);
    try {
      const reply = await guard.checkUi();
      expect(reply.ready).toBe(true);
      expect(reply.captures?.map((c) => [c.kind, c.occasion])).toEqual([
        ['dialog', 'restart'],
        ['runtime-menu', 'check'],
      ]);
    } finally {
      document.body.innerHTML = '';
    }
  });
});
