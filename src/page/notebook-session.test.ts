// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Sent, sentAs } from '../../test/support/page-events';
import { captureNotices } from '../colab';
import { OrphanedError } from '../lib/orphaned';
import type { PageMessage } from '../messaging/protocol';
import { isPersonOnly } from '../state/dialogs';
import type { PageCapture } from '../state/page-capture';
import { defaultNotebook, defaultSettings, type NotebookRecord, type Settings } from '../state/schema';
import { type SessionDeps, startNotebookSession } from './notebook-session';
import type { NoticeContent } from './notice-box';
import type { WatchReports } from './page-watch';
import { watchPresence } from './presence';

/**
 * The session's collaborators, faked (it takes them as `SessionDeps`): what the page watch and Colab's UI did, and
 * what was sent, in order in one log; the store, the frames, presence and the notice's words as the tests set them.
 */
const page = {
  log: [] as string[],
  reports: null as WatchReports | null,
  sendToWorker: vi.fn<(message: PageMessage) => Promise<unknown>>(),
  restartAndRunAll: vi.fn(),
  store: fakeStore(),
  /** The session's frame listener: its token, and where it sends what a frame reports. */
  frames: null as null | {
    token: () => string | null;
    onReport: (cell: Element, report: { kind: string; [k: string]: unknown }, frame: HTMLIFrameElement) => void;
  },
  /** The notice's Cancel action, as the session gave it. */
  cancel: null as null | (() => void),
  /** The notice's question buttons (Restart now, Not now), as the session gave them. */
  choose: null as null | ((choice: 'restart' | 'not-now') => void),
  /** Each page watch the session started: its lifetime, and the settings it was given. */
  watches: [] as { signal: AbortSignal; configured: Settings[] }[],
  /** A person at the keyboard (true), away (false), or as the real presence watch says (null). */
  present: null as boolean | null,
  /** The presence watch's "a person arrived" callback, as the session gave it. */
  arrived: null as null | (() => void),
};

/**
 * The notebook's record and the settings as storage would hold them: a change tells every follower at once, a read
 * returns what was stored when it was asked; the settings' reads can be held, and every read can fail.
 */
function fakeStore() {
  const records = new Map<string, NotebookRecord>();
  let settings = defaultSettings();
  let settingsRead = Promise.resolve();
  let recordRead = Promise.resolve();
  const recordFollowers = new Set<{ key: string; callback: (record: NotebookRecord) => void }>();
  const settingsFollowers = new Set<(settings: Settings) => void>();
  const fake = {
    broken: false,
    record: (key: string) => records.get(key),
    async set(record: NotebookRecord) {
      records.set(record.key, record);
      for (const follower of [...recordFollowers]) if (follower.key === record.key) follower.callback(record);
    },
    async setSettings(next: Settings) {
      settings = next;
      for (const follower of [...settingsFollowers]) follower(next);
    },
    /** The settings are read only once the returned function is called (the record is read at once). */
    holdSettings(): () => void {
      const { held, release } = hold();
      settingsRead = held;
      return release;
    },
    /** Reads of the record return (what was stored when they were asked) only once the returned function is called. */
    holdRecords(): () => void {
      const { held, release } = hold();
      recordRead = held;
      return release;
    },
    followers: () => recordFollowers.size + settingsFollowers.size,
    deps: {
      loadNotebook: async (key: string) => {
        if (fake.broken) throw new Error('storage is gone');
        const record = records.get(key) ?? defaultNotebook(key);
        await recordRead;
        return record;
      },
      loadSettings: async () => {
        await settingsRead;
        return settings;
      },
      watchNotebook(key: string, callback: (record: NotebookRecord) => void) {
        const follower = { key, callback };
        recordFollowers.add(follower);
        return () => recordFollowers.delete(follower);
      },
      watchSettings(callback: (settings: Settings) => void) {
        settingsFollowers.add(callback);
        return () => settingsFollowers.delete(callback);
      },
    } satisfies SessionDeps['store'],
  };
  return fake;
}

/** A promise that stays pending until `release` is called. */
function hold() {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  return { held, release };
}

/** A notice of these words, its title saying which it is. */
const words = (title: string, body = ''): NoticeContent => ({ tone: 'info', title, body, actions: [] });

/** The notice's words: the real ones come from the browser's `_locales`; here the title names the notice. */
const notices: SessionDeps['notices'] = {
  noticeFor(record, cancel, choose) {
    page.cancel = cancel;
    page.choose = choose;
    const { status } = record;
    if (status.kind === 'watching') return null;
    if (status.kind === 'pending') return words(status.askedAt === undefined ? 'countdown' : 'question');
    return words(status.kind);
  },
  unclaimedNotice: (why) => words('unclaimed', why.kind),
  leftToPersonNotice: (kind, said) => words('left to the person', `${kind}: ${said}`),
  needsPersonNotice: (kind) => (isPersonOnly(kind) ? words('needs a person', kind) : null),
  dismiss: () => 'Close',
  locale: () => 'fr',
};

const notInTheseTests = () => Promise.reject(new Error('these tests restart and run all only'));

/** What a session is given here: the fakes above, and Colab's own notices read from the test's page. */
function collaborators(): SessionDeps {
  return {
    sendToWorker: page.sendToWorker as unknown as SessionDeps['sendToWorker'],
    store: page.store.deps,
    createPageWatch(_doc, reports, signal) {
      page.reports = reports;
      const watch = { signal, configured: [] as Settings[] };
      page.watches.push(watch);
      return {
        configure: (settings) => watch.configured.push(settings),
        forgetExecutions: () => page.log.push('forget executions'),
        restartedAt: (at) => page.log.push(`restarted at ${at}`),
        frameReport: (cell, frame, report) =>
          page.log.push(
            `frame ${report.kind} ${'text' in report ? report.text : ''} ${cell.localName} ${frame.localName}`,
          ),
      };
    },
    listenToOutputFrames(_win, token, onReport) {
      page.frames = { token, onReport: onReport as NonNullable<typeof page.frames>['onReport'] };
    },
    watchPresence(win, signal, arrived) {
      page.arrived = arrived;
      const real = watchPresence(win, signal, arrived);
      return {
        present: () => page.present ?? real.present(),
        until: () => (page.present === null ? real.until() : Date.now() + 60_000),
      };
    },
    colab: {
      restartAndRunAll: page.restartAndRunAll,
      runAll: notInTheseTests,
      reconnect: notInTheseTests,
      awaitReconnect: notInTheseTests,
      captureNotices,
    },
    notices,
  };
}

/** A session on `document` for notebook A in tab 4, given the fakes. */
function startSession(
  signal: AbortSignal,
  token = 't',
  orphaned: () => void = () => undefined,
  capture: (capture: PageCapture) => void = () => undefined,
) {
  return startNotebookSession(document, { key: KEY, tabId: TAB, token }, signal, orphaned, capture, collaborators());
}

const TAB = 4;
const KEY = 'drive:notebookA';

const setURL = (url: string) => (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(url);

/** The worker's replies: `reply` to each message, each logged as sent. */
function answerWith(reply: (message: Sent) => unknown): void {
  page.sendToWorker.mockImplementation(async (message: PageMessage) => {
    page.log.push(`sent ${sentAs(message).type}`);
    return reply(sentAs(message));
  });
}

/** Each test starts on notebook A with nothing stored or seen, the worker answering ok, a restart succeeding. */
function resetPage(): void {
  page.store = fakeStore();
  page.log.length = 0;
  page.reports = null;
  page.frames = null;
  page.cancel = null;
  page.watches.length = 0;
  page.present = null;
  page.arrived = null;
  page.sendToWorker.mockReset();
  answerWith(() => ({ ok: true }));
  page.restartAndRunAll.mockReset();
  page.restartAndRunAll.mockImplementation(async () => {
    page.log.push('restart and run all');
    return { ok: true, path: 'menu', via: 'command', dialog: 'confirmed', evidence: '' };
  });
  setURL('https://colab.research.google.com/drive/notebookA');
}
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
    resetPage();
    answerWith((message) =>
      message.type === 'claim' ? { granted: true, action: 'restart-and-run-all' } : { ok: true },
    );
    page.restartAndRunAll.mockImplementation(() => {
      page.log.push('restart and run all');
      return new Promise((resolve) => (finish = resolve));
    });
    await page.store.set(pending);
    session = new AbortController();
    startSession(session.signal);
    await vi.waitFor(() => expect(page.log).toContain('restart and run all'));
  });

  afterEach(() => {
    session.abort();
    document.documentElement.querySelector('colab-oom-guard-notice')?.remove();
  });

  it("forgets the page's executions before it acts: outputs on the page then belong to the old run", () => {
    expect(page.log).toEqual(['sent claim', 'forget executions', 'restart and run all']);
  });

  it('holds the reports the page makes meanwhile, sends each one after the result, not before, not never', async () => {
    const reports = page.reports!;
    reports.failure(verdict, 'error-output', 1);
    reports.marker({ pattern: 'RESTART_ME', line: 'RESTART_ME' });
    reports.disconnect('idle', 'Runtime disconnected');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(page.log.filter((entry) => entry.startsWith('sent'))).toEqual(['sent claim']);
    finish({ ok: true, path: 'menu', via: 'command', dialog: 'confirmed', evidence: '' });
    await vi.waitFor(() => expect(page.log.filter((entry) => entry.startsWith('sent'))).toHaveLength(5));
    expect(page.log.slice(3)).toEqual(['sent restart-result', 'sent failure', 'sent marker', 'sent disconnect']);
  });

  it('sends reports at once again when no restart is under way', async () => {
    finish({ ok: true, path: 'menu', via: 'command', dialog: 'confirmed', evidence: '' });
    await vi.waitFor(() => expect(page.log).toContain('sent restart-result'));
    page.reports!.failure(verdict, 'error-output', 1);
    await vi.waitFor(() => expect(page.log.at(-1)).toBe('sent failure'));
  });

  it('sends a report once more when sending it failed, and not a third time', async () => {
    finish({ ok: true, path: 'menu', via: 'command', dialog: 'confirmed', evidence: '' });
    await vi.waitFor(() => expect(page.log).toContain('sent restart-result'));
    page.sendToWorker.mockImplementation(async (message: PageMessage) => {
      page.log.push(`sent ${sentAs(message).type}`);
      throw new Error('Could not establish connection. Receiving end does not exist.');
    });
    page.reports!.failure(verdict, 'error-output', 1);
    await vi.waitFor(() => expect(page.log.filter((entry) => entry === 'sent failure')).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(page.log.filter((entry) => entry === 'sent failure')).toHaveLength(2);
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
    await page.store.set(restarting);
    await vi.waitFor(() => expect(title()).toBe('restarting'));
    page.reports!.dialog('not-authored', 'Warning: This notebook was not authored by Google');
    expect(title()).toBe('needs a person');
    finish({ ok: true, path: 'menu', via: 'command', dialog: 'none', evidence: '' });
    await page.store.set({ ...pending, status: { kind: 'watching' } });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(title()).toBe('needs a person');
  });
});

describe('notebook session: what it sends, and for whom', () => {
  let session: AbortController;
  let orphaned: number;
  const sent = () => page.sendToWorker.mock.calls.map(([message]) => sentAs(message as PageMessage));
  const title = () =>
    document.querySelector('colab-oom-guard-notice')?.shadowRoot?.querySelector('.title')?.textContent;
  const noticeText = () => document.querySelector('colab-oom-guard-notice')?.shadowRoot?.textContent ?? '';

  /** What the session kept of Colab's page (page-capture.ts), newest last. */
  let captured: PageCapture[] = [];

  async function start(record: NotebookRecord, reply: (message: Sent) => unknown = () => ({ ok: true })) {
    answerWith(reply);
    await page.store.set(record);
    session = new AbortController();
    orphaned = 0;
    captured = [];
    const orphan = () => {
      orphaned++;
    };
    const capture = (taken: PageCapture) => captured.push(taken);
    return startSession(session.signal, 't1', orphan, capture);
  }

  beforeEach(resetPage);

  afterEach(() => {
    vi.useRealTimers();
    session.abort();
    document.documentElement.querySelector('colab-oom-guard-notice')?.remove();
  });

  const watchingRecord: NotebookRecord = { ...defaultNotebook(KEY), enabled: true, status: { kind: 'watching' } };

  it('says whether the page watch runs: yes with the guard on, no with it off', async () => {
    const on = await start(watchingRecord);
    expect(on.key).toBe(KEY);
    expect(await on.watching()).toBe(true);
    session.abort();
    const off = await start({ ...defaultNotebook(KEY), enabled: false });
    expect(await off.watching()).toBe(false);
    expect(page.reports).not.toBeNull();
  });

  it("passes an output frame's reports on to the page watch, with the frame and its cell", async () => {
    await (await start(watchingRecord)).watching();
    const cell = document.createElement('div');
    const frame = document.createElement('iframe');
    page.frames!.onReport(cell, { kind: 'stream-tail', id: 7, text: 'tail', error: false }, frame);
    page.frames!.onReport(cell, { kind: 'error-output', text: 'OOM' }, frame);
    page.frames!.onReport(cell, { kind: 'output-text', text: 'epoch 1' }, frame);
    expect(page.log.filter((line) => line.startsWith('frame'))).toEqual([
      'frame stream-tail tail div iframe',
      'frame error-output OOM div iframe',
      'frame output-text epoch 1 div iframe',
    ]);
  });

  it('drops frame reports while the guard is off, and checks them against the newest frame token', async () => {
    const session = await start({ ...defaultNotebook(KEY), enabled: false });
    await session.watching();
    const cell = document.createElement('div');
    const frame = document.createElement('iframe');
    for (const kind of ['stream-tail', 'error-output', 'text']) page.frames!.onReport(cell, { kind, text: 'x' }, frame);
    expect(page.log.filter((line) => line.startsWith('frame'))).toEqual([]);
    expect(page.frames!.token()).toBe('t1');
    session.setToken('t2');
    expect(page.frames!.token()).toBe('t2');
  });

  it('sends what the watch sees: sight at once, runs with the cell and line they stopped at', async () => {
    await (await start(watchingRecord)).watching();
    const reports = page.reports!;
    reports.sight(true);
    reports.run.started();
    reports.run.ended({ kind: 'stopped', cell: 3, line: 'OOM' });
    reports.run.ended({ kind: 'stopped', cell: null, line: 'OOM' });
    reports.run.ended({ kind: 'finished' });
    reports.run.busy(true);
    reports.declined('earlier-error', verdict, 5);
    await vi.waitFor(() => expect(sent()).toHaveLength(7));
    expect(sent()[0]).toMatchObject({ type: 'sight', key: KEY, blind: true });
    expect(sent().slice(1, 5)).toEqual([
      expect.objectContaining({ type: 'run', key: KEY, what: 'started' }),
      expect.objectContaining({ type: 'run', what: 'stopped', cell: 3, line: 'OOM' }),
      expect.objectContaining({ type: 'run', what: 'stopped', line: 'OOM' }),
      expect.objectContaining({ type: 'run', what: 'finished' }),
    ]);
    expect(sent()[3]).not.toHaveProperty('cell');
    expect(sent()[4]).not.toHaveProperty('line');
    expect(sent()[5]).toMatchObject({ type: 'activity', key: KEY, busy: true });
    expect(sent()[6]).toMatchObject({
      type: 'declined',
      key: KEY,
      reason: 'earlier-error',
      startedAt: 5,
      verdict,
    });
  });

  it('reports only dialogs that need a person, and tells that person; a disconnect it answers shows none', async () => {
    await (await start(watchingRecord)).watching();
    const reports = page.reports!;
    reports.dialog('restart-confirm', 'Restart session?');
    reports.disconnect('idle', 'Runtime disconnected');
    await vi.waitFor(() => expect(sent()).toHaveLength(1));
    expect(sent()[0]).toMatchObject({ type: 'disconnect', key: KEY, kind: 'idle', line: 'Runtime disconnected' });
    expect(title()).toBeUndefined();
    reports.dialog('not-authored', 'Warning: This notebook was not authored by Google');
    await vi.waitFor(() => expect(sent()).toHaveLength(2));
    expect(sent()[1]).toMatchObject({ type: 'dialog', key: KEY, kind: 'not-authored' });
    expect(title()).toBe('needs a person');
  });

  it('keeps what Colab showed when it left something to the person: dialogs and notices, as structure', async () => {
    await (await start(watchingRecord)).watching();
    const reports = page.reports!;
    reports.dialog('restart-confirm', 'Restart session?');
    expect(captured).toEqual([]);
    const dialog = document.createElement('mwc-dialog');
    dialog.setAttribute('open', '');
    dialog.setAttribute('heading', 'Warning');
    dialog.append('This notebook was not authored by Google');
    document.body.append(dialog, document.createElement('colab-snackbar'));
    reports.dialog('not-authored', 'Warning: This notebook was not authored by Google');
    expect(captured.map((c) => [c.kind, c.occasion, c.nodes[0]?.tag])).toEqual([
      ['dialog', 'left-to-person', 'mwc-dialog'],
      ['notice', 'left-to-person', 'colab-snackbar'],
    ]);
    expect(JSON.stringify(captured)).not.toContain('authored');
    reports.disconnect('zero-units', 'Runtime disconnected');
    expect(captured.slice(2).map((c) => [c.kind, c.occasion])).toEqual([
      ['dialog', 'disconnect'],
      ['notice', 'disconnect'],
    ]);
    dialog.remove();
    document.querySelector('colab-snackbar')?.remove();
  });

  it("the notice's Cancel asks the service worker to cancel this notebook's restart", async () => {
    await start({ ...pending, status: { ...pending.status, restartAt: Date.now() + 60_000 } } as NotebookRecord);
    await vi.waitFor(() => expect(page.cancel).not.toBeNull());
    page.cancel!();
    await vi.waitFor(() => expect(sent()).toContainEqual({ type: 'cancel', key: KEY }));
  });

  it('a claim that gets no answer restarts nothing and, after its retries, says so', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(0);
    await start(pending, (message) => (message.type === 'claim' ? undefined : { ok: true }));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent().filter((m) => m.type === 'claim')).toHaveLength(4);
    expect(page.restartAndRunAll).not.toHaveBeenCalled();
    expect(title()).toBe('unclaimed');
    expect(noticeText()).toContain('no-answer');
  });

  it('a claim granted after the tab opened another notebook restarts neither', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(0);
    await start(pending, (message) => {
      setURL('https://colab.research.google.com/drive/notebookB');
      return message.type === 'claim' ? { granted: true, action: 'restart-and-run-all' } : { ok: true };
    });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(page.restartAndRunAll).not.toHaveBeenCalled();
    expect(title()).toBe('unclaimed');
    expect(noticeText()).toContain('tab-moved');
  });

  it('is busy while it restarts, and sends the failed step cut to what the worker stores', async () => {
    let finish: (outcome: unknown) => void = () => undefined;
    page.restartAndRunAll.mockImplementation(() => new Promise((resolve) => (finish = resolve)));
    const running = await start(pending, (message) =>
      message.type === 'claim' ? { granted: true, action: 'restart-and-run-all' } : { ok: true },
    );
    await vi.waitFor(() => expect(running.busy).toBe(true));
    finish({ ok: false, failed: { step: 'menu', reason: 'r'.repeat(5000), saw: 's'.repeat(50_000) } });
    await vi.waitFor(() => expect(sent().some((m) => m.type === 'restart-result')).toBe(true));
    expect(running.busy).toBe(false);
    const result = sent().find((m) => m.type === 'restart-result') as { failed: { reason: string; saw: string } };
    expect(result.failed.reason.length).toBeLessThan(5000);
    expect(result.failed.saw.length).toBeLessThan(50_000);
    expect(result.failed.saw.startsWith('sss')).toBe(true);
  });

  it('an orphaned script (the extension updated under the page) says so once and sends nothing again', async () => {
    await (await start(watchingRecord)).watching();
    page.sendToWorker.mockImplementation(async (message: PageMessage) => {
      page.log.push(`sent ${sentAs(message).type}`);
      throw new OrphanedError('gone');
    });
    page.reports!.marker({ pattern: 'RESTART_ME', line: 'RESTART_ME' });
    await vi.waitFor(() => expect(orphaned).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(page.log.filter((line) => line === 'sent marker')).toHaveLength(1);
  });
});

describe('notebook session: its notice, its page watch, its lifetime and the question', () => {
  let session: AbortController;
  const sent = () => page.sendToWorker.mock.calls.map(([message]) => sentAs(message as PageMessage));
  const notice = () => document.querySelector('colab-oom-guard-notice');
  const title = () => notice()?.shadowRoot?.querySelector('.title')?.textContent;
  const store = (record: NotebookRecord) => page.store.set(record);
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  const watchingRecord: NotebookRecord = { ...defaultNotebook(KEY), enabled: true, status: { kind: 'watching' } };
  const restarting: NotebookRecord['status'] = {
    kind: 'restarting',
    reason: 'failure',
    action: 'restart-and-run-all',
    attempt: 'attempt-1',
    ownerTab: TAB,
    startedAt: 0,
  };
  const later = (record: NotebookRecord): NotebookRecord =>
    ({ ...record, status: { ...record.status, restartAt: Date.now() + 60 * 60_000 } }) as NotebookRecord;

  async function start(record: NotebookRecord | null, reply: (message: Sent) => unknown = () => ({ ok: true })) {
    answerWith(reply);
    if (record) await store(record);
    session = new AbortController();
    return startSession(session.signal);
  }

  beforeEach(resetPage);

  afterEach(() => {
    vi.useRealTimers();
    session.abort();
    notice()?.remove();
  });

  it("shows the notice in the messages' language, its close named; not redrawn while the status stays", async () => {
    await start(later(pending));
    await vi.waitFor(() => expect(title()).toBe('countdown'));
    const shown = notice();
    expect((shown as HTMLElement | null)?.lang).toBe('fr');
    expect(shown?.shadowRoot?.querySelector('[aria-label="Close"]')).not.toBeNull();
    await store({ ...page.store.record(KEY)!, title: 'renamed.ipynb' });
    await settle();
    expect(notice()).toBe(shown);
  });

  it('hides the notice when the countdown ends; a restart under way even when off, nothing else', async () => {
    await start(later(pending));
    await vi.waitFor(() => expect(title()).toBe('countdown'));
    await store(watchingRecord);
    await vi.waitFor(() => expect(notice()).toBeNull());
    // Off, with no page watch to tell of the restart it records.
    await store({ ...watchingRecord, enabled: false, status: restarting, lastRestartAt: 1 });
    await vi.waitFor(() => expect(title()).toBe('restarting'));
    await store({ ...watchingRecord, enabled: false, status: { kind: 'gave-up', at: 0, restarts: 3 } });
    await vi.waitFor(() => expect(notice()).toBeNull());
  });

  it('a notice for a person gives way to a countdown, and then goes with it', async () => {
    await (await start(watchingRecord)).watching();
    page.reports!.disconnect('disallowed-code', 'Runtime disconnected: disallowed code');
    expect(title()).toBe('left to the person');
    await store(later(pending));
    await vi.waitFor(() => expect(title()).toBe('countdown'));
    await store(watchingRecord);
    await vi.waitFor(() => expect(notice()).toBeNull());
  });

  it('one page watch while the guard is on, given the settings; switched off, it stops', async () => {
    const running = await start(watchingRecord);
    await running.watching();
    await vi.waitFor(() => expect(page.watches[0]?.configured).toHaveLength(1));
    expect(page.watches[0]?.configured[0]).toMatchObject({ askAtKeyboard: true });
    await store({ ...watchingRecord, title: 'a' });
    await store({ ...watchingRecord, title: 'b' });
    await settle();
    expect(page.watches).toHaveLength(1);
    await page.store.setSettings({ ...defaultSettings(), askAtKeyboard: false });
    await vi.waitFor(() => expect(page.watches[0]?.configured.at(-1)).toMatchObject({ askAtKeyboard: false }));
    await store({ ...watchingRecord, enabled: false });
    await vi.waitFor(() => expect(page.watches[0]?.signal.aborted).toBe(true));
    expect(await running.watching()).toBe(false);
    expect(page.watches).toHaveLength(1);
  });

  it("tells its page watch when the notebook's last restart was, whichever tab made it", async () => {
    const running = await start(watchingRecord);
    await running.watching();
    expect(page.log.filter((line) => line.startsWith('restarted'))).toEqual([]);
    await store({ ...watchingRecord, lastRestartAt: 1234 });
    await vi.waitFor(() => expect(page.log).toContain('restarted at 1234'));
  });

  it('a watch started after the settings were read is given them at once', async () => {
    const running = await start({ ...watchingRecord, enabled: false });
    await running.watching();
    await settle();
    await store(watchingRecord);
    await vi.waitFor(() => expect(page.watches).toHaveLength(1));
    expect(page.watches[0]?.configured).toEqual([expect.objectContaining({ askAtKeyboard: true })]);
  });

  it('a watch started before the settings are read is given them once they are, and nothing before', async () => {
    const release = page.store.holdSettings();
    await (await start(watchingRecord)).watching();
    expect(page.watches).toHaveLength(1);
    expect(page.watches[0]?.configured).toEqual([]);
    release();
    await vi.waitFor(() => expect(page.watches[0]?.configured).toHaveLength(1));
    expect(page.watches[0]?.configured[0]).toMatchObject({ askAtKeyboard: true });
  });

  it('a record read on its way when the record changed is older than the change: the change wins', async () => {
    const running = await start(watchingRecord);
    await running.watching();
    const asking = running.watching();
    await store(later(pending));
    await asking;
    await settle();
    expect(title()).toBe('countdown');
  });

  it('ended: it reports nothing more, leaves no storage listener; a read on its way starts nothing', async () => {
    const ending = await start(watchingRecord);
    await ending.watching();
    const { reports } = page;
    session.abort();
    expect(page.watches[0]?.signal.aborted).toBe(true);
    expect(await ending.watching()).toBe(false);
    expect(page.store.followers()).toBe(0);
    reports!.failure(verdict, 'error-output', 1);
    await settle();
    expect(sent().some((m) => m.type === 'failure')).toBe(false);

    page.watches.length = 0;
    const release = page.store.holdRecords();
    await start(watchingRecord);
    session.abort();
    release();
    await settle();
    await settle();
    expect(page.watches).toHaveLength(0);
  });

  it('says the page watch does not run when the record cannot be read', async () => {
    const running = await start(watchingRecord);
    await settle();
    page.store.broken = true;
    expect(await running.watching()).toBe(false);
  });

  it('a claim the worker never took (sending failed) restarts nothing and says it got no answer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(0);
    await start(pending, (message) => {
      if (message.type === 'claim') throw new Error('Could not establish connection.');
      return { ok: true };
    });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(page.restartAndRunAll).not.toHaveBeenCalled();
    expect(title()).toBe('unclaimed');
    expect(notice()?.shadowRoot?.textContent).toContain('no-answer');
  });

  it('a session ended during its restart still reports the result, and drops the reports it held', async () => {
    let finish: (outcome: unknown) => void = () => undefined;
    page.restartAndRunAll.mockImplementation(() => new Promise((resolve) => (finish = resolve)));
    const running = await start(pending, (message) =>
      message.type === 'claim' ? { granted: true, action: 'restart-and-run-all' } : { ok: true },
    );
    await vi.waitFor(() => expect(running.busy).toBe(true));
    page.reports!.failure(verdict, 'error-output', 1);
    session.abort();
    finish({ ok: true, path: 'menu', via: 'command', dialog: 'confirmed', evidence: '' });
    await vi.waitFor(() => expect(sent().some((m) => m.type === 'restart-result')).toBe(true));
    await settle();
    expect(sent().some((m) => m.type === 'failure')).toBe(false);
  });

  it('a claim granted after the session ended (its watch gone) is still carried out and reported', async () => {
    await start(pending, (message) => {
      if (message.type !== 'claim') return { ok: true };
      session.abort();
      return { granted: true, action: 'restart-and-run-all' };
    });
    await vi.waitFor(() => expect(sent().some((m) => m.type === 'restart-result')).toBe(true));
    expect(page.restartAndRunAll).toHaveBeenCalledTimes(1);
  });

  describe('a person at the keyboard at the deadline', () => {
    const reply = (message: Sent) => {
      if (message.type === 'ask') return { ok: true };
      if (message.type === 'answer' || message.type === 'claim') {
        return { granted: true, action: 'restart-and-run-all' };
      }
      return { ok: true };
    };
    const askedRecord: NotebookRecord = {
      ...pending,
      status: { ...pending.status, restartAt: 0, askedAt: 1 } as NotebookRecord['status'],
    };
    /** A countdown a minute long, on a test clock: the settings are read long before its deadline. */
    const minute = (): NotebookRecord =>
      ({ ...pending, status: { ...pending.status, restartAt: 60_000 } }) as NotebookRecord;
    const testClock = () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      vi.setSystemTime(0);
    };

    /** Nobody at the keyboard when the countdown is read, a person there by its deadline. */
    async function arriveBeforeDeadline(answer: (message: Sent) => unknown) {
      testClock();
      page.present = false;
      await start(minute(), answer);
      await vi.advanceTimersByTimeAsync(1000);
      expect(title()).toBe('countdown');
      expect(sent().some((m) => m.type === 'ask')).toBe(false);
      page.present = true;
      await vi.advanceTimersByTimeAsync(60_000);
    }

    it('is asked at the deadline instead of the restart, and their Restart now restarts', async () => {
      await arriveBeforeDeadline(reply);
      expect(sent()).toContainEqual({ type: 'ask', key: KEY, attempt: 'attempt-1' });
      expect(sent().some((m) => m.type === 'claim')).toBe(false);
      expect(page.restartAndRunAll).not.toHaveBeenCalled();
      await store(askedRecord);
      await vi.waitFor(() => expect(title()).toBe('question'));
      page.choose!('restart');
      await vi.waitFor(() => expect(page.restartAndRunAll).toHaveBeenCalledTimes(1));
      expect(sent()).toContainEqual({ type: 'answer', key: KEY, attempt: 'attempt-1', choice: 'restart' });
    });

    it('Restart now granted after the tab opened another notebook restarts neither', async () => {
      page.present = true;
      await start(askedRecord, (message) => {
        if (message.type === 'answer') setURL('https://colab.research.google.com/drive/notebookB');
        return reply(message);
      });
      await vi.waitFor(() => expect(title()).toBe('question'));
      page.choose!('restart');
      await vi.waitFor(() => expect(sent().some((m) => m.type === 'answer')).toBe(true));
      await settle();
      expect(page.restartAndRunAll).not.toHaveBeenCalled();
    });

    it('is not asked with asking first switched off: the countdown acts', async () => {
      page.present = true;
      await page.store.setSettings({ ...defaultSettings(), askAtKeyboard: false });
      testClock();
      await start(minute(), reply);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(page.restartAndRunAll).toHaveBeenCalledTimes(1);
      expect(sent().some((m) => m.type === 'ask')).toBe(false);
    });

    it('a question the worker did not take, or did not answer, lets the countdown act', async () => {
      for (const answer of [{ ok: false, why: { kind: 'asking-off' } }, undefined]) {
        page.restartAndRunAll.mockClear();
        page.sendToWorker.mockClear();
        await arriveBeforeDeadline((message) => (message.type === 'ask' ? answer : reply(message)));
        expect(page.restartAndRunAll).toHaveBeenCalledTimes(1);
        expect(sent().filter((m) => m.type === 'ask')).toHaveLength(1);
        session.abort();
        notice()?.remove();
      }
    });

    /**
     * A countdown reached while a person is there, its question sent; the worker's reply is `answer` (none by
     * default): nothing is drawn meanwhile.
     */
    async function questionOnTheWay(answer: Promise<unknown> = new Promise(() => undefined)) {
      page.present = true;
      const running = await start(watchingRecord, (message) => (message.type === 'ask' ? answer : reply(message)));
      await running.watching();
      await vi.waitFor(() => expect(page.watches[0]?.configured).toHaveLength(1));
      await store(later(pending));
      await vi.waitFor(() => expect(sent().some((m) => m.type === 'ask')).toBe(true));
      await settle();
      expect(title()).toBeUndefined();
    }

    it('a countdown to be asked about is not drawn while its question is on the way; refused, it is', async () => {
      let took: (ok: boolean) => void = () => undefined;
      await questionOnTheWay(new Promise((resolve) => (took = (ok) => resolve({ ok }))));
      took(false);
      await vi.waitFor(() => expect(title()).toBe('countdown'));
    });

    it('a question the worker stored before its reply came is drawn at once', async () => {
      await questionOnTheWay();
      await store(askedRecord);
      await vi.waitFor(() => expect(title()).toBe('question'));
    });

    it('a restart of the countdown that began while its question was on the way is drawn', async () => {
      await questionOnTheWay();
      await store({ ...pending, status: restarting });
      await vi.waitFor(() => expect(title()).toBe('restarting'));
    });

    it('a countdown read before the settings asks nobody until they are read', async () => {
      page.present = true;
      const release = page.store.holdSettings();
      await start(later(pending), reply);
      await vi.waitFor(() => expect(title()).toBe('countdown'));
      expect(sent().some((m) => m.type === 'ask')).toBe(false);
      release();
      await vi.waitFor(() => {
        page.arrived!();
        expect(sent().filter((m) => m.type === 'ask')).toHaveLength(1);
      });
    });

    it('a person arriving during a countdown is asked at once', async () => {
      page.present = false;
      await start(later(pending), reply);
      await vi.waitFor(() => expect(page.arrived).not.toBeNull());
      await vi.waitFor(() => expect(title()).toBe('countdown'));
      expect(sent().some((m) => m.type === 'ask')).toBe(false);
      page.present = true;
      page.arrived!();
      await vi.waitFor(() => expect(sent().some((m) => m.type === 'ask')).toBe(true));
    });
  });
});
