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

interface ReplyMap {
  failure: ReportReply;
  declined: CommandReply;
  marker: ReportReply;
  disconnect: ReportReply;
  dialog: ReportReply;
  claim: ClaimReply;
  ask: CommandReply;
  answer: ClaimReply;
  'restart-result': CommandReply;
  cancel: CommandReply;
  rearm: CommandReply;
  'reset-counter': CommandReply;
  'set-enabled': CommandReply;
  'set-max-restarts': CommandReply;
  'set-title': CommandReply;
  adopt: AdoptReply;
  'tab-closed': CommandReply;
  sight: CommandReply;
  run: CommandReply;
  activity: CommandReply;
  settle: CommandReply;
}
export type ReplyFor<E extends PolicyEvent> = ReplyMap[E['type']];
export type EventOf<T extends PolicyEvent['type']> = Extract<PolicyEvent, { type: T }>;
export type AnyReply = ReplyMap[keyof ReplyMap];
