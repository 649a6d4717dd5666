import * as v from 'valibot';
import browser from 'webextension-polyfill';
import { t } from '../lib/i18n';
import { createQueue } from '../lib/queue';
import {
  FrameMessageSchema,
  type HelloReply,
  type PageMessage,
  PageMessageSchema,
  type ReplyTo,
  type UiMessage,
  UiMessageSchema,
  type WorkerProtocol,
} from '../messaging/protocol';
import { type SenderLike, senderKind } from '../messaging/sender';
import { pageNotebookKey } from '../state/notebook-key';
import { notebookTitleFromDocumentTitle } from '../state/notebook-title';
import {
  type PageEvent,
  type PolicyEvent,
  REPLY_KIND,
  type Reduction,
  type Replies,
  type ReplyFor,
  withTab,
} from '../state/policy';
import type { TabGoneWay } from '../state/schema';
import { isScratchKey } from '../state/scratch';
import { loadNotebook, loadSettings, type NotebookWriter, StorageWriteError, storageRefused } from '../state/store';
import {
  notebookOfTab,
  setTabNotebook,
  tabShowsNotebook,
  tabsOfNotebook,
  titleOfNotebook,
} from '../state/tab-registry';
import type { Why } from '../state/why';
import { verdictName } from '../ui/verdict-name';
import { alertEffects, clearAlerts, sendTestAlert, updateAlerts } from './alerts';
import { refreshTabBadge } from './badge';
import { newTokenForTab, tokenOfTab } from './frame-tokens';
import { frameHello, frameStatus, tellFrames } from './frames';
import { clearHeartbeat, heartbeatAfter, sendTestPing, updateHeartbeat } from './night-watch';
import { notify } from './notifications';
import { applyRetentionDaily } from './retention';
import { browserSession } from './session';
import { clearStorageErrors, recordStorageError } from './storage-errors';

/**
 * Every runtime message comes through here: checked for who sent it, validated against its schema, then applied as
 * one policy event to one notebook by the (serialised) writer. Anything else is dropped without an answer.
 */
export function createRouter(writer: NotebookWriter) {
  /** `title`: the name a record created by this event starts with (only the user's commands create one). */
  async function apply<E extends PolicyEvent>(key: string, event: E, title?: string): Promise<ReplyFor<E>> {
    const [settings, session] = await Promise.all([loadSettings(), browserSession()]);
    const ctx = { now: Date.now(), settings, session, newAttemptId: () => crypto.randomUUID() };
    let result: Reduction<ReplyFor<E>>;
    try {
      result = await writer.update(key, event, ctx, title);
    } catch (error) {
      if (error instanceof StorageWriteError) await recordStorageError(error.message, lostBy(event, key));
      throw error;
    }
    await notify(result.effects, settings);
    // Not awaited: a receiver that is slow or down never holds up what the page waits for (a claim, a restart).
    void alertEffects(result.effects, result.record, settings);
    void heartbeatAfter(result.effects);
    return result.reply;
  }

  async function onPage<M extends PageMessage>(message: M, tabId: number): Promise<ReplyTo<M>> {
    if (isHello(message)) return hello(message, tabId) as Promise<ReplyTo<M>>;
    const { key, event } = message as Exclude<M, PageHello>;
    // A page speaks only for the notebook its tab shows now: a late message about the previous one must not act on it.
    if ((await notebookOfTab(tabId)) !== key) return notShown(event) as ReplyTo<M>;
    // The compiler cannot follow the event's type to its reply through `withTab`; REPLY_KIND says they match.
    return apply(key, withTab(event, tabId)) as Promise<ReplyTo<M>>;
  }

  /**
   * A tab opened, reloaded or navigated to a notebook: remember it, and let it resume or take over a countdown. The
   * notebook it showed before, if another one, is handed over. A renamed notebook says hello again, from the same
   * content script: that is no reload, so it adopts nothing (a restart in progress in this tab goes on and reports
   * its result). The page says what it shows; which notebook that is (a scratch notebook's key is made of the tab and
   * the page document), and its name, is read here, and the page uses the key of the answer.
   */
  async function hello(message: PageHello, tabId: number): Promise<HelloReply> {
    const key = pageNotebookKey(message.url, `${tabId}-${message.page}`);
    const title = notebookTitleFromDocumentTitle(message.title);
    const previous = await notebookOfTab(tabId);
    // A new page document, or another notebook in it; not a renamed one.
    const arrived = message.first || previous !== key;
    await setTabNotebook(tabId, key, title);
    if (previous !== null && previous !== key) await handOver(previous, tabId, 'navigated');
    // Renames a stored record; a notebook without one keeps its name in the tab registry only.
    if (key && title) await apply(key, { type: 'set-title', title }).catch(unlessStorageFull);
    if (key && arrived) {
      const record = await loadNotebook(key);
      const owner =
        record.status.kind === 'pending' || record.status.kind === 'restarting' ? record.status.ownerTab : null;
      const ownerAlive = owner !== null && owner !== tabId && (await tabShowsNotebook(owner, key));
      await apply(key, { type: 'adopt', tabId, ownerAlive }).catch(unlessStorageFull);
    }
    await refreshTabBadge(tabId);
    void applyRetentionDaily(writer).catch(() => undefined);
    // A new top document (or another notebook in it) gets a new token; its output frames learn it by asking again.
    const current = arrived ? null : await tokenOfTab(tabId);
    if (current !== null) return { tabId, token: current, key };
    const token = await newTokenForTab(tabId);
    void tellFrames(tabId);
    return { tabId, token, key };
  }

  /**
   * `goneTab` no longer shows the notebook (`gone`: closed, discarded, navigated elsewhere): a restart it was
   * performing ends as interrupted, a run it carried with no other tab showing the notebook is told as lost, and a
   * countdown it owned goes to another tab that still shows the notebook, if there is one. A scratch notebook lived in
   * that tab alone: its record goes with it.
   */
  async function handOver(key: string, goneTab: number, gone: TabGoneWay): Promise<void> {
    const heir = await firstTabShowing(key, goneTab);
    await apply(key, { type: 'tab-closed', tabId: goneTab, gone, othersShow: heir !== undefined });
    if (isScratchKey(key)) return writer.forget(key);
    const { status } = await loadNotebook(key);
    if (status.kind !== 'pending' || status.ownerTab !== goneTab) return;
    if (heir !== undefined) await apply(key, { type: 'adopt', tabId: heir, ownerAlive: false });
  }

  /** A write the browser refused is answered with its message (and listed, as every refused write is). */
  async function onUi<M extends UiMessage>(message: M): Promise<ReplyTo<M>> {
    try {
      return await uiAction(message);
    } catch (error) {
      if (!(error instanceof StorageWriteError)) throw error;
      if (message.type !== 'ui-command') await recordStorageError(error.message, t('lostChange'));
      return { ok: false, why: storageRefused(error) } as ReplyTo<M>;
    }
  }

  async function uiAction<M extends UiMessage>(message: M): Promise<ReplyTo<M>> {
    // As for the pages: UiHandlers ties each message to its reply.
    return uiHandlers[message.type](message as never) as Promise<ReplyTo<M>>;
  }

  const uiHandlers: UiHandlers = {
    'ui-command': async (message) => apply(message.key, message.command, await titleOfNotebook(message.key)),
    'ui-settings': (message) => writer.updateSettings(message.patch),
    'ui-import': (message) => writer.importData(message.text),
    'ui-clear': async () => {
      await Promise.all([writer.clearAll(), clearStorageErrors(), clearAlerts()]);
      // After the alerts: a site both used is given back once neither does.
      await clearHeartbeat();
      return { ok: true };
    },
    'ui-clear-storage-errors': async () => {
      await clearStorageErrors();
      return { ok: true };
    },
    'ui-alerts': (message) => updateAlerts(message.patch),
    'ui-alert-test': () => sendTestAlert(),
    'ui-heartbeat': (message) => updateHeartbeat(message.patch),
    'ui-heartbeat-test': () => sendTestPing(),
  };

  const tabQueue = createQueue<number>();

  /**
   * A tab's messages are applied in the order its page sent them: a claim sent after the hello for another notebook
   * must find the tab on that notebook, or it could be granted for a notebook the page already left.
   */
  function inTabOrder<T>(tabId: number, task: () => Promise<T>): Promise<T> {
    return tabQueue.run(tabId, task);
  }

  /** Returns undefined for messages it does not take, so that no answer is sent. */
  function route(message: unknown, sender: SenderLike): Promise<WorkerProtocol[keyof WorkerProtocol]> | undefined {
    const kind = senderKind(sender, browser.runtime.id, browser.runtime.getURL(''));
    const tabId = sender.tab?.id;
    if (kind === 'colab-page' && tabId !== undefined) {
      const parsed = v.safeParse(PageMessageSchema, message);
      return parsed.success ? inTabOrder(tabId, () => onPage(parsed.output, tabId)) : undefined;
    }
    if (kind === 'output-frame' && tabId !== undefined) {
      const parsed = v.safeParse(FrameMessageSchema, message);
      if (!parsed.success) return undefined;
      // The frame gets what it needs in one answer, so it carries no storage schema of its own.
      const frame = { tabId, tabUrl: sender.tab?.url };
      return parsed.output.type === 'frame-hello' ? frameHello(frame) : frameStatus(frame);
    }
    if (kind === 'extension-page') {
      const parsed = v.safeParse(UiMessageSchema, message);
      return parsed.success ? onUi(parsed.output) : undefined;
    }
    return undefined;
  }

  return { route, handOver };
}

/**
 * A tab other than `goneTab` that shows the notebook. Registrations can be stale (a tab that navigated away says
 * nothing until its next hello), so each is checked.
 */
async function firstTabShowing(key: string, goneTab: number): Promise<number | undefined> {
  for (const tabId of await tabsOfNotebook(key)) {
    if (tabId !== goneTab && (await tabShowsNotebook(tabId, key))) return tabId;
  }
  return undefined;
}

/** A full storage (already listed for the user) must not also keep the page from getting its guard. */
function unlessStorageFull(error: unknown): void {
  if (!(error instanceof StorageWriteError)) throw error;
}

/** What the user lost when the write of `event` failed: listed with the error in the popup and options. */
function lostBy(event: PolicyEvent, key: string): string {
  switch (event.type) {
    case 'failure':
      return t('lostFailure', key, verdictName(event.verdict));
    case 'marker':
    case 'disconnect':
      return t('lostFailure', key, event.type === 'marker' ? event.pattern : event.line);
    case 'claim':
    case 'answer':
    case 'restart-result':
    case 'adopt':
    case 'tab-closed':
      return t('lostRestart', key);
    case 'set-title':
      return t('lostTitle', key);
    default:
      return t('lostChange');
  }
}

type PageHello = Extract<PageMessage, { type: 'page-hello' }>;
type UiHandlers = {
  [T in UiMessage['type']]: (message: Extract<UiMessage, { type: T }>) => Promise<WorkerProtocol[T]>;
};

function isHello(message: PageMessage): message is PageHello {
  return message.type === 'page-hello';
}

const NOT_SHOWN: Why = { kind: 'not-shown' };
/** The refusal of a page's event, in the shape of reply its kind of event gets. */
const NOT_SHOWN_REPLY = {
  report: { outcome: 'ignored', why: NOT_SHOWN },
  claim: { granted: false, why: NOT_SHOWN },
  command: { ok: false, why: NOT_SHOWN },
} as const satisfies { [K in (typeof REPLY_KIND)[PageEvent['type']]]: Replies[K] };

/** A page's event about a notebook its tab does not show: refused, as its kind of reply. */
export function notShown<E extends PageEvent>(event: E): ReplyFor<E> {
  return NOT_SHOWN_REPLY[REPLY_KIND[event.type]] as ReplyFor<E>;
}
