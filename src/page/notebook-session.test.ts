// @vitest-environment happy-dom
import { fakeBrowser } from '@webext-core/fake-browser';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PageMessage } from '../messaging/protocol';
import { defaultNotebook, type NotebookRecord, notebookStorageKey } from '../state/schema';
import type { WatchReports } from './failure-watch';
import { startNotebookSession } from './notebook-session';

vi.mock('webextension-polyfill', async () => ({ default: (await import('@webext-core/fake-browser')).fakeBrowser }));
vi.mock('../lib/i18n', () => ({ t: (key: string, ...subs: string[]) => [key, ...subs].join(' ') }));

/** What the session's page watch and Colab's UI did, in order: the test reads both through one log. */
const page = vi.hoisted(() => ({
  log: [] as string[],
  reports: null as WatchReports | null,
  sendToWorker: vi.fn(),
  restartAndRunAll: vi.fn(),
}));
vi.mock('./send-to-worker', () => ({ sendToWorker: page.sendToWorker, OrphanedError: class extends Error {} }));
vi.mock('../colab', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../colab')>()),
  restartAndRunAll: page.restartAndRunAll,
}));
vi.mock('./failure-watch', () => ({
  createFailureWatch: (_doc: Document, reports: WatchReports) => {
    page.reports = reports;
    return {
      configure: () => undefined,
      forgetExecutions: () => page.log.push('forget executions'),
      frameError: () => undefined,
      frameText: () => undefined,
      frameStreamTail: () => undefined,
    };
  },
}));

const TAB = 4;
const KEY = 'drive:notebookA';
const verdict = { category: 'gpu-oom' as const, rule: 'r', description: 'CUDA out of memory', line: 'OOM' };

const pending: NotebookRecord = {
  ...defaultNotebook(KEY),
  enabled: true,
  status: {
    kind: 'pending',
    reason: 'failure',
    action: 'restart-and-run-all',
    restartAt: 0,
    attempt: 'attempt-1',
    ownerTab: TAB,
    detectedAt: 0,
    verdict,
  },
};

describe('notebook session: a restart under way', () => {
  let session: AbortController;
  let finish: (value: unknown) => void;

  beforeEach(async () => {
    fakeBrowser.reset();
    page.log.length = 0;
    page.reports = null;
    page.sendToWorker.mockImplementation(async (message: PageMessage) => {
      page.log.push(`sent ${message.type}`);
      return message.type === 'page-claim' ? { granted: true, action: 'restart-and-run-all' } : { ok: true };
    });
    page.restartAndRunAll.mockImplementation(() => {
      page.log.push('restart and run all');
      return new Promise((resolve) => (finish = resolve));
    });
    (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(
      'https://colab.research.google.com/drive/notebookA',
    );
    await fakeBrowser.storage.local.set({ [notebookStorageKey(KEY)]: pending });
    session = new AbortController();
    startNotebookSession(document, { key: KEY, tabId: TAB, token: 't' }, session.signal, () => undefined);
    await vi.waitFor(() => expect(page.log).toContain('restart and run all'));
  });

  afterEach(() => {
    session.abort();
    document.documentElement.querySelector('colab-oom-guard-notice')?.remove();
  });

  it("forgets the page's executions before it acts: outputs on the page then belong to the old run", () => {
    expect(page.log).toEqual(['sent page-claim', 'forget executions', 'restart and run all']);
  });

  it('holds the reports the page makes meanwhile, sends each one after the result, not before, not never', async () => {
    const reports = page.reports!;
    reports.failure(verdict, 'error-output', 1);
    reports.marker({ pattern: 'RESTART_ME', line: 'RESTART_ME' });
    reports.disconnect('idle', 'Runtime disconnected');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(page.log.filter((entry) => entry.startsWith('sent'))).toEqual(['sent page-claim']);
    finish({ ok: true, path: 'menu', via: 'command', dialog: 'confirmed', evidence: '' });
    await vi.waitFor(() => expect(page.log.filter((entry) => entry.startsWith('sent'))).toHaveLength(5));
    expect(page.log.slice(3)).toEqual([
      'sent page-result',
      'sent page-failure',
      'sent page-marker',
      'sent page-disconnect',
    ]);
  });

  it('sends reports at once again when no restart is under way', async () => {
    finish({ ok: true, path: 'menu', via: 'command', dialog: 'confirmed', evidence: '' });
    await vi.waitFor(() => expect(page.log).toContain('sent page-result'));
    page.reports!.failure(verdict, 'error-output', 1);
    await vi.waitFor(() => expect(page.log.at(-1)).toBe('sent page-failure'));
  });

  it('sends a report once more when sending it failed, and not a third time', async () => {
    finish({ ok: true, path: 'menu', via: 'command', dialog: 'confirmed', evidence: '' });
    await vi.waitFor(() => expect(page.log).toContain('sent page-result'));
    page.sendToWorker.mockImplementation(async (message: PageMessage) => {
      page.log.push(`sent ${message.type}`);
      throw new Error('Could not establish connection. Receiving end does not exist.');
    });
    page.reports!.failure(verdict, 'error-output', 1);
    await vi.waitFor(() => expect(page.log.filter((entry) => entry === 'sent page-failure')).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(page.log.filter((entry) => entry === 'sent page-failure')).toHaveLength(2);
  });

  it("keeps the notice asking a person to answer Colab's dialog when the restart's result comes after it", async () => {
    const title = () =>
      document.querySelector('colab-oom-guard-notice')?.shadowRoot?.querySelector('.title')?.textContent;
    const restarting: NotebookRecord = {
      ...pending,
      status: {
        kind: 'restarting',
        reason: 'failure',
        action: 'restart-and-run-all',
        attempt: 'attempt-1',
        ownerTab: TAB,
        startedAt: 0,
      },
    };
    await fakeBrowser.storage.local.set({ [notebookStorageKey(KEY)]: restarting });
    await vi.waitFor(() => expect(title()).toBe('noticeRestartingTitle'));
    page.reports!.dialog('not-authored', 'Warning: This notebook was not authored by Google');
    expect(title()).toBe('noticeNeedsPersonTitle');
    finish({ ok: true, path: 'menu', via: 'command', dialog: 'none', evidence: '' });
    await fakeBrowser.storage.local.set({ [notebookStorageKey(KEY)]: { ...pending, status: { kind: 'watching' } } });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(title()).toBe('noticeNeedsPersonTitle');
  });
});
