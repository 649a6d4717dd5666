import type { captureNotices } from '../colab';
import { OrphanedError } from '../lib/orphaned';
import { isPersonOnly } from '../state/dialogs';
import { answersDisconnect } from '../state/disconnect';
import { clipFailed } from '../state/failed-step';
import type { PageCapture } from '../state/page-capture';
import type { PageEvent, ReplyFor } from '../state/policy';
import type { NotebookRecord, Settings } from '../state/schema';
import { urlShowsNotebook } from '../state/scratch';
import type { loadNotebook, loadSettings, watchNotebook, watchSettings } from '../state/store';
import { childLifetime } from './lifetime';
import { createNotice, type NoticeContent } from './notice-box';
import type { leftToPersonNotice, needsPersonNotice, noticeFor, unclaimedNotice } from './notice-texts';
import type { createPageWatch, PageWatch, WatchReports } from './page-watch';
import type { watchPresence } from './presence';
import { createQuestion } from './question';
import type { listenToOutputFrames } from './receive-frame-reports';
import { type ColabActions, createRestartRunner, type Outcome } from './restart-runner';
import type { RunEnd } from './run-watch';
import type { sendToWorker } from './send-to-worker';

/** The notebook a Colab tab shows, as the service worker registered it. */
export interface PageNotebook {
  key: string | null;
  tabId: number;
  token: string;
}

export interface NotebookSession {
  readonly key: string;
  /** A restart is being performed: its notebook's session must not be judged mid-way (Check Colab UI waits). */
  readonly busy: boolean;
  /** The same notebook said hello again (renamed): the frame token may be new. */
  setToken(token: string): void;
  /** Whether the page watch runs, after reading the record (the popup shows it; tests wait for it). */
  watching(): Promise<boolean>;
}

/**
 * What the session uses from other modules, passed in (as the restart runner's are) so that its tests give fakes and
 * mock no module: `page/live-deps.ts` wires the real ones, the one place that does.
 */
export interface SessionDeps {
  /** One message to the service worker; throws `OrphanedError` once the extension is gone from under the page. */
  sendToWorker: typeof sendToWorker;
  /** The notebook's record and the settings: read once, then followed. */
  store: {
    loadNotebook: typeof loadNotebook;
    loadSettings: typeof loadSettings;
    watchNotebook: typeof watchNotebook;
    watchSettings: typeof watchSettings;
  };
  /** The page watch, started while the guard is on for the notebook. */
  createPageWatch: typeof createPageWatch;
  /** The reports of the page's output frames, checked against the tab's token. */
  listenToOutputFrames: typeof listenToOutputFrames;
  /** Whether a person is at the keyboard, and when one arrives. */
  watchPresence: typeof watchPresence;
  /** What the session does in Colab's page: the restart runner's actions, the capture of Colab's own notices. */
  colab: ColabActions & { captureNotices: typeof captureNotices };
  /** The words of the guard's notice (they come from the browser's `_locales`). */
  notices: {
    noticeFor: typeof noticeFor;
    unclaimedNotice: typeof unclaimedNotice;
    leftToPersonNotice: typeof leftToPersonNotice;
    needsPersonNotice: typeof needsPersonNotice;
    /** The notice's close button's name, and the language its words are in. */
    dismiss(): string;
    locale(): string;
  };
}

/** A send that failed for another reason than the extension being gone (the worker did not take it). */
const UNSENT = Symbol('unsent');

/**
 * Everything the guard does for one notebook a tab shows, with one lifetime: the record watch, the
 * notice, the countdown and restart runner, reports held during a restart, the page watch and its observers, frame
 * listeners and timers all take `signal`. Showing another notebook, or the content script being orphaned, aborts it.
 * A restart already under way still reports its result to its own notebook.
 */
export function startNotebookSession(
  doc: Document,
  notebook: PageNotebook & { key: string },
  signal: AbortSignal,
  orphaned: () => void,
  capture: (capture: PageCapture) => void,
  deps: SessionDeps,
): NotebookSession {
  const { key, tabId } = notebook;
  const { store, notices, colab } = deps;
  const { noticeFor, unclaimedNotice } = notices;
  let token = notebook.token;
  const notice = createNotice(doc, notices.dismiss, signal, notices.locale);
  let shown = '';
  /** What Colab waits for, or why a disconnect was left alone: it stays when the record has nothing to say. */
  let personShown = false;
  const showForPerson = (content: NoticeContent) => {
    personShown = true;
    notice.show(content);
  };
  let settings: Settings | null = null;
  const link = createWorkerLink(deps.sendToWorker, signal, orphaned, () => runner.busy);
  const { send } = link;
  /** What Colab showed when the guard left something to the person: for "Copy diagnostics". */
  const captureNoticesFor = (occasion: PageCapture['occasion']) => {
    for (const taken of colab.captureNotices(doc, occasion)) capture(taken);
  };
  const person = { show: showForPerson, capture: captureNoticesFor };
  const watching = pageWatchSwitch(doc, signal, deps.createPageWatch, reportsToWorker(key, link, person, notices));

  const cancel = () => void send(key, { type: 'cancel' });

  const runner = createRestartRunner({
    doc,
    tabId,
    signal,
    claim: async (attemptKey, attempt) => {
      const reply = (await send(attemptKey, { type: 'claim', attempt })) ?? {
        granted: false,
        why: { kind: 'no-answer' },
      };
      // The tab may have opened another notebook while the claim was on its way: restart neither.
      if (!reply.granted || urlShowsNotebook(doc.location.href, attemptKey)) return reply;
      return { granted: false, why: { kind: 'tab-moved' } };
    },
    result: async (attemptKey, attempt, outcome) => {
      await send(attemptKey, { type: 'restart-result', attempt, ...clipOutcome(outcome) });
    },
    beforeAction: () => watching.watch?.forgetExecutions(),
    afterAction: link.release,
    unclaimed: (why) => notice.show(unclaimedNotice(why, cancel)),
    askFirst: (attemptKey, attempt) => question.askFirst(attemptKey, attempt),
    capture,
    colab,
  });

  const question = createQuestion({
    tabId,
    signal,
    presence: deps.watchPresence(doc.defaultView ?? window, signal, () => question.arrived()),
    enabled: () => settings?.askAtKeyboard === true,
    ask: async (attemptKey, attempt) => (await send(attemptKey, { type: 'ask', attempt }))?.ok === true,
    refused: () => {
      if (latest) showNotice(latest);
    },
    answer: (attemptKey, attempt, choice) => send(attemptKey, { type: 'answer', attempt, choice }),
    perform: (attemptKey, attempt, action) => {
      if (urlShowsNotebook(doc.location.href, attemptKey)) runner.perform(attemptKey, attempt, action);
    },
  });

  /** The record as last followed: a question the worker did not take shows its countdown then. */
  let latest: NotebookRecord | null = null;
  const showNotice = (record: NotebookRecord) => {
    latest = record;
    // A countdown about to be asked about is not drawn: the question comes as soon as the worker has stored it.
    const { status } = record;
    if (status.kind === 'pending' && status.askedAt === undefined && question.asking(status.attempt)) return;
    const content =
      record.enabled || record.status.kind === 'restarting' ? noticeFor(record, cancel, question.choose) : null;
    const signature = content ? JSON.stringify(record.status) : '';
    if (signature === shown) return;
    shown = signature;
    if (content) notice.show(content);
    else if (!personShown) notice.hide();
    personShown &&= !content;
  };

  const follow = (record: NotebookRecord) => {
    if (signal.aborted) return;
    watching.set(record.enabled);
    if (record.lastRestartAt !== undefined) watching.watch?.restartedAt(record.lastRestartAt);
    runner.follow(record);
    question.follow(record);
    showNotice(record);
  };

  const configure = (next: Settings) => {
    settings = next;
    watching.configure(next);
  };

  void store.loadSettings().then(configure);
  const unwatchSettings = store.watchSettings(configure);
  let changes = 0;
  const unwatchRecord = store.watchNotebook(key, (record) => {
    changes++;
    follow(record);
  });
  // A change seen while a read was on its way is newer than what that read returns.
  const read = async () => {
    const seen = changes;
    const record = await store.loadNotebook(key);
    if (seen === changes) follow(record);
  };
  read().catch(() => undefined);
  deps.listenToOutputFrames(
    doc.defaultView ?? window,
    () => token,
    (cell, frameReport, frame) => watching.watch?.frameReport(cell, frame, frameReport),
    signal,
  );
  signal.addEventListener('abort', () => {
    unwatchSettings();
    unwatchRecord();
    watching.set(false);
  });

  return {
    key,
    get busy() {
      return runner.busy;
    },
    setToken(next) {
      token = next;
    },
    // Read afresh: the popup asks just after switching the guard on, maybe before this page heard of the change.
    watching: () =>
      read().then(
        () => watching.watch !== null,
        () => false,
      ),
  };
}

/** What a failed step saw can be long; the service worker refuses a result whose texts exceed what it stores. */
function clipOutcome(outcome: Outcome) {
  return outcome.ok ? outcome : { ...outcome, failed: clipFailed(outcome.failed) };
}

/** The page watch, running while the guard is on for the notebook: a lifetime inside the session's. */
function pageWatchSwitch(
  doc: Document,
  signal: AbortSignal,
  createPageWatch: SessionDeps['createPageWatch'],
  reports: WatchReports,
) {
  let watching: { watch: PageWatch; stop: AbortController } | null = null;
  let settings: Settings | null = null;
  return {
    get watch(): PageWatch | null {
      return watching?.watch ?? null;
    },
    set(on: boolean) {
      if (on && !watching) {
        const stop = childLifetime(signal);
        const watch = createPageWatch(doc, reports, stop.signal);
        if (settings) watch.configure(settings);
        watching = { watch, stop };
      }
      if (!on && watching) {
        watching.stop.abort();
        watching = null;
      }
    },
    configure(next: Settings) {
      settings = next;
      watching?.watch.configure(next);
    },
  };
}

/**
 * How the page tells the worker what it saw or did about notebook `key` (a policy event, state/policy-events.ts): a
 * reply, or null when there was none (a send that failed is tried once more).
 */
interface WorkerLink {
  send<E extends PageEvent>(key: string, event: E): Promise<ReplyFor<E> | null>;
  /** A report: delivered now, or held while a restart is being performed (released after it). */
  report(key: string, event: PageEvent): void;
  release(): void;
}

function createWorkerLink(
  sendToWorker: SessionDeps['sendToWorker'],
  signal: AbortSignal,
  orphaned: () => void,
  restarting: () => boolean,
): WorkerLink {
  /** Reports seen while a restart is being performed wait for its result, so they count toward the new run. */
  const held: EventMessage<PageEvent>[] = [];
  const attempt = async <E extends PageEvent>(
    message: EventMessage<E>,
  ): Promise<ReplyFor<E> | null | typeof UNSENT> => {
    try {
      return (await sendToWorker(message)) ?? null;
    } catch (error) {
      if (!(error instanceof OrphanedError)) return UNSENT;
      orphaned();
      return null;
    }
  };
  const post = async <E extends PageEvent>(message: EventMessage<E>): Promise<ReplyFor<E> | null> => {
    const reply = await attempt(message);
    return reply === UNSENT ? null : reply;
  };
  // Firefox may unload an idle background page while it handles a report, and the send then fails: a report is sent
  // once more, not lost (the worker takes a failure it already took as already handled).
  const deliver = async (message: EventMessage<PageEvent>) => {
    if ((await attempt(message)) === UNSENT && !signal.aborted) await post(message);
  };
  return {
    send: (key, event) => post({ type: 'page-event', key, event }),
    report(key, event) {
      if (signal.aborted) return;
      const message: EventMessage<PageEvent> = { type: 'page-event', key, event };
      if (restarting()) held.push(message);
      else void deliver(message);
    },
    release() {
      const reports = held.splice(0);
      if (!signal.aborted) for (const message of reports) void deliver(message);
    },
  };
}

/** The message that carries a page's event to the worker (messaging/protocol.ts `page-event`). */
interface EventMessage<E extends PageEvent> {
  type: 'page-event';
  key: string;
  event: E;
}

/** A notice only a person can act on, and the capture of what Colab showed then (for "Copy diagnostics"). */
interface PersonNotices {
  show(content: NoticeContent): void;
  capture(occasion: PageCapture['occasion']): void;
}

/** What the page watch reports, as the messages the worker takes, and the notices only a person can act on. */
function reportsToWorker(
  key: string,
  { report, send }: WorkerLink,
  person: PersonNotices,
  { leftToPersonNotice, needsPersonNotice }: SessionDeps['notices'],
): WatchReports {
  return {
    failure: (verdict, source, startedAt) =>
      report(key, { type: 'failure', detectedAt: Date.now(), startedAt, source, verdict }),
    declined: (reason, verdict, startedAt) =>
      report(key, { type: 'declined', detectedAt: Date.now(), startedAt, reason, verdict }),
    marker: (match) =>
      report(key, { type: 'marker', detectedAt: Date.now(), pattern: match.pattern, line: match.line }),
    disconnect(kind, line) {
      person.capture('disconnect');
      if (!answersDisconnect(kind)) person.show(leftToPersonNotice(kind, line));
      report(key, { type: 'disconnect', detectedAt: Date.now(), kind, line });
    },
    dialog(kind, text) {
      const content = needsPersonNotice(kind);
      if (!content || !isPersonOnly(kind)) return;
      person.capture('left-to-person');
      person.show(content);
      report(key, { type: 'dialog', detectedAt: Date.now(), kind, text });
    },
    sight: (blind) => void send(key, { type: 'sight', blind, at: Date.now() }),
    run: {
      started: () => report(key, { type: 'run', detectedAt: Date.now(), what: 'started' }),
      ended: (end) => report(key, { type: 'run', detectedAt: Date.now(), what: end.kind, ...runDetail(end) }),
      busy: (busy) => report(key, { type: 'activity', busy }),
    },
  };
}

/** The cell and the exception's line an error stopped the run at, when known. */
function runDetail(end: RunEnd): { cell?: number; line?: string } {
  if (end.kind !== 'stopped') return {};
  return end.cell === null ? { line: end.line } : { cell: end.cell, line: end.line };
}
