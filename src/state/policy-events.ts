import type { PersonOnlyKind } from './dialogs';
import type { DisconnectKind } from './disconnect';
import type {
  AskChoice,
  DeclineReason,
  FailedStep,
  FailureSource,
  ReconnectEnd,
  RestartAction,
  RunEvent,
  TabGoneWay,
  Verdict,
} from './schema';
import type { Why } from './why';

/** What the restart policy (state/policy.ts) reads, one event at a time per notebook, and what it answers each. */

export type PolicyEvent =
  | { type: 'failure'; tabId: number; detectedAt: number; startedAt: number; verdict: Verdict; source: FailureSource }
  | { type: 'declined'; detectedAt: number; startedAt: number; reason: DeclineReason; verdict: Verdict }
  | { type: 'marker'; tabId: number; detectedAt: number; pattern: string; line: string }
  | { type: 'disconnect'; tabId: number; detectedAt: number; kind: DisconnectKind; line: string }
  /** Colab shows a dialog only a person may answer, saying `text`. */
  | { type: 'dialog'; tabId: number; detectedAt: number; kind: PersonOnlyKind; text: string }
  | { type: 'claim'; tabId: number; attempt: string }
  /** The owner tab has a person at its keyboard: its countdown waits for their answer instead of acting. */
  | { type: 'ask'; tabId: number; attempt: string }
  /** The person's answer to the question, or `away`: no input for minutes, so the countdown acts after all. */
  | { type: 'answer'; tabId: number; attempt: string; choice: AskChoice }
  | { type: 'restart-result'; tabId: number; attempt: string; ok: true }
  | {
      type: 'restart-result';
      tabId: number;
      attempt: string;
      ok: false;
      failed: FailedStep;
      /** A reconnect that found Colab unable to connect (an outage), or nothing to reconnect: no UI problem. */
      runtime?: ReconnectEnd;
    }
  | { type: 'cancel' }
  | { type: 'rearm' }
  | { type: 'reset-counter' }
  | { type: 'set-enabled'; enabled: boolean }
  | { type: 'set-max-restarts'; value: number | null }
  | { type: 'set-title'; title: string }
  | { type: 'adopt'; tabId: number; ownerAlive: boolean }
  /**
   * The tab no longer shows the notebook, and its page could not say so: closed, discarded by the browser, or
   * navigated away (`gone`). `othersShow`: another tab of this session still shows the notebook.
   */
  | { type: 'tab-closed'; tabId: number; gone: TabGoneWay; othersShow: boolean }
  | { type: 'sight'; blind: boolean; at: number }
  | { type: 'run'; tabId: number; detectedAt: number; what: RunEvent; cell?: number; line?: string }
  /** Cells began to be under way in the tab (`busy`), or none is any more. */
  | { type: 'activity'; tabId: number; busy: boolean }
  /** Nothing but the guard's own time: a page showing the record (the popup) lets a guard idle too long end. */
  | { type: 'settle' };

/** The answer to a failure, marker or disconnect report. */
export type ReportReply =
  | { outcome: 'scheduled'; restartAt: number; attempt: string }
  | { outcome: 'absorbed' | 'ignored' | 'off' | 'gave-up'; why: Why };
export type ClaimReply = { granted: true; action: RestartAction } | { granted: false; why: Why };
export type CommandRefused = { ok: false; why: Why };
export type CommandReply = { ok: true } | CommandRefused;
/** `owner`: this tab runs the countdown of the pending restart. */
export type AdoptReply = { owner: boolean };

/** The shapes of reply, by kind: a report's outcome, a claim's grant, a command's ok, an adoption's owner. */
export interface Replies {
  report: ReportReply;
  claim: ClaimReply;
  command: CommandReply;
  adopt: AdoptReply;
}

/** The kind of reply each event gets: the one map the replies of the policy, the router and the page are typed by. */
export const REPLY_KIND = {
  failure: 'report',
  declined: 'command',
  marker: 'report',
  disconnect: 'report',
  dialog: 'report',
  claim: 'claim',
  ask: 'command',
  answer: 'claim',
  'restart-result': 'command',
  cancel: 'command',
  rearm: 'command',
  'reset-counter': 'command',
  'set-enabled': 'command',
  'set-max-restarts': 'command',
  'set-title': 'command',
  adopt: 'adopt',
  'tab-closed': 'command',
  sight: 'command',
  run: 'command',
  activity: 'command',
  settle: 'command',
} as const satisfies Record<PolicyEvent['type'], keyof Replies>;

type ReplyMap = { [T in PolicyEvent['type']]: Replies[(typeof REPLY_KIND)[T]] };
export type ReplyFor<E extends { type: PolicyEvent['type'] }> = ReplyMap[E['type']];
export type EventOf<T extends PolicyEvent['type']> = Extract<PolicyEvent, { type: T }>;
export type AnyReply = ReplyMap[keyof ReplyMap];

/**
 * What a Colab page reports about the notebook its tab shows: the policy's event without the tab, which the worker
 * adds from the sender (`withTab`). Each is sent as is, under its schema in messaging/protocol.ts `PageEventSchema`.
 */
export type PageEvent = WithoutTab<EventOf<PageEventType>>;
type PageEventType =
  | 'failure'
  | 'declined'
  | 'marker'
  | 'disconnect'
  | 'dialog'
  | 'claim'
  | 'ask'
  | 'answer'
  | 'restart-result'
  | 'sight'
  | 'run'
  | 'activity'
  | 'cancel';
type WithoutTab<E> = E extends unknown ? Omit<E, 'tabId'> : never;

/** A page's event as the policy reads it, from tab `tabId` (the events that name no tab ignore it). */
export function withTab(event: PageEvent, tabId: number): PolicyEvent {
  const tabbed = { ...event, tabId };
  return tabbed;
}
