import * as v from 'valibot';
import {
  IMPORT_MAX_CHARS,
  MAX_ORDER_IDS,
  MAX_SHELL_TAIL_CHARS,
  MAX_TEXT_CHARS,
  MAX_URL_CHARS,
  TEXT_LIMITS,
} from '../limits';
import type { DeliveryError } from '../state/alert-delivery';
import {
  ALERT_EVENTS,
  type AlertEvent,
  KIND_CHOICES,
  MAX_ALERT_CHAT_CHARS,
  MAX_ALERT_TOKEN_CHARS,
  MAX_ALERT_URL_CHARS,
} from '../state/alerts';
import { PERSON_ONLY_KINDS } from '../state/dialogs';
import { DISCONNECT_KINDS } from '../state/disconnect';
import { UNKNOWN_STEP } from '../state/failed-step';
import type { PageCapture } from '../state/page-capture';
import type { CommandRefused, CommandReply, PageEvent, ReplyFor } from '../state/policy';
import {
  ASK_CHOICES,
  DECLINE_REASONS,
  FAILURE_SOURCES,
  type FailedStep,
  FailedStepSchema,
  MaxRestartsSchema,
  NotebookKeySchema as NotebookKey,
  RECONNECT_ENDS,
  RUN_EVENTS,
  TimeSchema,
  VerdictSchema,
} from '../state/schema';
import type { NotebookStatus } from '../state/status-shape';
import type { ImportOutcome, SettingsUpdate } from '../state/store';
import { FRAME_CHANNEL } from './frame-channel';

export type { ClaimReply } from '../state/policy';

/** Messages between the extension's contexts. Every receiver parses with these schemas before acting. */

const Line = v.pipe(v.string(), v.maxLength(TEXT_LIMITS.line));

/** What the user (popup, options, the in-page notice) can ask of a notebook. */
export const CommandSchema = v.variant('type', [
  v.object({ type: v.literal('set-enabled'), enabled: v.boolean() }),
  v.object({ type: v.literal('cancel') }),
  v.object({ type: v.literal('rearm') }),
  v.object({ type: v.literal('reset-counter') }),
  v.object({ type: v.literal('set-max-restarts'), value: v.nullable(MaxRestartsSchema) }),
  /** Nothing but a look: a guard idle past its stretch ends now (state/idle-end.ts). */
  v.object({ type: v.literal('settle') }),
]);
export type Command = v.InferOutput<typeof CommandSchema>;

/**
 * What a Colab page reports: each the policy's event (state/policy-events.ts `PageEvent`) without the tab, its schema
 * tied to its type by `satisfies` (a field the type has and the schema lacks does not compile), and
 * `PageEventsMatch` below refuses a type or field the schemas do not name.
 */
export const PageEventSchema = v.variant('type', [
  v.object({
    type: v.literal('failure'),
    detectedAt: TimeSchema,
    /** When the failed execution started, as this page saw it (for a crash notice: when the notice showed). */
    startedAt: TimeSchema,
    source: v.picklist(FAILURE_SOURCES),
    verdict: VerdictSchema,
  }) satisfies Of<'failure'>,
  /** A failure the page saw and left alone, and why (state/schema.ts DECLINED): the history says so. */
  v.object({
    type: v.literal('declined'),
    detectedAt: TimeSchema,
    startedAt: TimeSchema,
    reason: v.picklist(DECLINE_REASONS),
    verdict: VerdictSchema,
  }) satisfies Of<'declined'>,
  v.object({ type: v.literal('marker'), detectedAt: TimeSchema, pattern: Line, line: Line }) satisfies Of<'marker'>,
  /** Colab's runtime went away (`kind`: why, from Colab's words or the notebook's own code), saying `line`. */
  v.object({
    type: v.literal('disconnect'),
    detectedAt: TimeSchema,
    kind: v.picklist(DISCONNECT_KINDS),
    line: Line,
  }) satisfies Of<'disconnect'>,
  /**
   * A run began, or how it ended (page/run-watch.ts): `cell`, its execution count, and `line`, the exception's line,
   * of an error that stopped it.
   */
  v.object({
    type: v.literal('run'),
    detectedAt: TimeSchema,
    what: v.picklist(RUN_EVENTS),
    cell: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
    line: v.optional(Line),
  }) satisfies Of<'run'>,
  /** Cells began to be under way in the page (`busy`), or none is any more: what keeps a guard armed. */
  v.object({ type: v.literal('activity'), busy: v.boolean() }) satisfies Of<'activity'>,
  /** Colab shows a dialog only a person may answer. */
  v.object({
    type: v.literal('dialog'),
    detectedAt: TimeSchema,
    kind: v.picklist(PERSON_ONLY_KINDS),
    text: v.pipe(v.string(), v.maxLength(TEXT_LIMITS.dialog)),
  }) satisfies Of<'dialog'>,
  v.object({ type: v.literal('claim'), attempt: v.string() }) satisfies Of<'claim'>,
  /** A person works in the tab that owns the countdown: ask them instead of acting (policy-restarts.ts onAsk). */
  v.object({ type: v.literal('ask'), attempt: v.string() }) satisfies Of<'ask'>,
  /** The person's answer to the in-page question, or `away`: no input for minutes. */
  v.object({ type: v.literal('answer'), attempt: v.string(), choice: v.picklist(ASK_CHOICES) }) satisfies Of<'answer'>,
  v.variant('ok', [
    v.object({ type: v.literal('restart-result'), attempt: v.string(), ok: v.literal(true) }),
    v.object({
      type: v.literal('restart-result'),
      attempt: v.string(),
      ok: v.literal(false),
      /** A step the page did not name is unknown: a UI problem, never a silent stop. */
      failed: v.optional(FailedStepSchema, UNKNOWN_STEP),
      /** A reconnect that found Colab unable to connect, or nothing to reconnect (schema.ts `ReconnectEnd`). */
      runtime: v.optional(v.picklist(RECONNECT_ENDS)),
    }),
  ]) satisfies Of<'restart-result'>,
  /**
   * Detection may be blind (`blind`: the runtime busy for minutes with no cell seen running), or the page
   * sees a cell running again (`at`: when it saw it).
   */
  v.object({ type: v.literal('sight'), blind: v.boolean(), at: TimeSchema }) satisfies Of<'sight'>,
  /** The in-page notice's Cancel button: the only command a page gives. */
  v.object({ type: v.literal('cancel') }) satisfies Of<'cancel'>,
]);
type Of<T extends PageEvent['type']> = v.GenericSchema<unknown, Extract<PageEvent, { type: T }>>;

/** Every page event has a schema, with the fields of its type and no other: this type does not compile otherwise. */
export type PageEventsMatch = Exactly<UnmatchedPageEvent, never>;
type UnmatchedPageEvent = {
  [T in PageEvent['type']]: SameFields<
    Extract<PageEventWire, { type: T }>,
    Extract<PageEvent, { type: T }>
  > extends true
    ? never
    : T;
}[PageEvent['type']];
type PageEventWire = v.InferOutput<typeof PageEventSchema>;
type FieldsOf<U> = U extends unknown ? keyof U : never;
type SameFields<A, B> = [A] extends [never]
  ? false
  : [FieldsOf<A>] extends [FieldsOf<B>]
    ? [FieldsOf<B>] extends [FieldsOf<A>]
      ? true
      : false
    : false;

/** Sent by the top-frame content script on a Colab page. */
export const PageMessageSchema = v.variant('type', [
  /**
   * What the tab shows, as the page sees it: its address and title (the worker reads the notebook and its name from
   * them), `page`: the page document's id (a scratch notebook's key is made of it), `first`: the first hello of this
   * page script (a load, a reload, a script injected after an update).
   */
  v.object({
    type: v.literal('page-hello'),
    url: v.pipe(v.string(), v.maxLength(MAX_URL_CHARS)),
    page: v.pipe(v.string(), v.regex(/^[0-9a-z.]{1,40}$/)),
    title: v.pipe(v.string(), v.maxLength(TEXT_LIMITS.title)),
    first: v.boolean(),
  }),
  /** What the page saw or did, as the policy's event (the worker adds the tab): `PageEventSchema`. */
  v.object({ type: v.literal('page-event'), key: NotebookKey, event: PageEventSchema }),
]);
export type PageMessage = v.InferOutput<typeof PageMessageSchema>;

/**
 * Sent by the content script in Colab's output frames: what it may post (`frame-hello`), and the notebook's status
 * for the page API (`frame-status`, messaging/status-api.ts).
 */
export const FrameMessageSchema = v.variant('type', [
  v.object({ type: v.literal('frame-hello') }),
  v.object({ type: v.literal('frame-status') }),
]);
export type FrameMessage = v.InferOutput<typeof FrameMessageSchema>;

const AlertsPatchSchema = v.object({
  url: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(MAX_ALERT_URL_CHARS)))),
  kind: v.optional(v.picklist(KIND_CHOICES)),
  /** A secret for the URL's receiver; null forgets it. Absent keeps the saved one while the host stays the same. */
  token: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(MAX_ALERT_TOKEN_CHARS)))),
  chatId: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(MAX_ALERT_CHAT_CHARS)))),
  events: v.optional(
    v.partial(v.object(Object.fromEntries(ALERT_EVENTS.map((e) => [e, v.boolean()])) as AlertEventFlags)),
  ),
  includeTitle: v.optional(v.boolean()),
  includeErrorLine: v.optional(v.boolean()),
  notificationsOffered: v.optional(v.boolean()),
});
type AlertEventFlags = Record<AlertEvent, v.BooleanSchema<undefined>>;
export type AlertsPatch = v.InferOutput<typeof AlertsPatchSchema>;

/** What a test alert got: delivered (with the receiver's status), or why not. */
export type AlertTestReply = { ok: true; result: { kind: 'sent'; status: number } | DeliveryError };

/** A change to the heartbeat (state/heartbeat.ts): its URL (null: none), how often it pings. */
const HeartbeatPatchSchema = v.object({
  url: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(MAX_ALERT_URL_CHARS)))),
  everyMinutes: v.optional(v.pipe(v.number(), v.integer())),
});
export type HeartbeatPatch = v.InferOutput<typeof HeartbeatPatchSchema>;

/** Sent by the popup and the options page. */
export const UiMessageSchema = v.variant('type', [
  v.object({ type: v.literal('ui-command'), key: NotebookKey, command: CommandSchema }),
  v.object({ type: v.literal('ui-settings'), patch: v.record(v.string(), v.unknown()) }),
  v.object({ type: v.literal('ui-import'), text: v.pipe(v.string(), v.maxLength(IMPORT_MAX_CHARS)) }),
  v.object({ type: v.literal('ui-clear') }),
  /** The user dismissed the list of failed storage writes. */
  v.object({ type: v.literal('ui-clear-storage-errors') }),
  /** A change to the alert settings (state/alerts.ts); a new URL only once its host permission is granted. */
  v.object({ type: v.literal('ui-alerts'), patch: AlertsPatchSchema }),
  /** "Send a test alert" to the saved URL, once, now. */
  v.object({ type: v.literal('ui-alert-test') }),
  /** A change to the heartbeat; a new URL only once its host permission is granted. */
  v.object({ type: v.literal('ui-heartbeat'), patch: HeartbeatPatchSchema }),
  /** "Send a test ping" to the saved heartbeat, once, now. */
  v.object({ type: v.literal('ui-heartbeat-test') }),
]);
export type UiMessage = v.InferOutput<typeof UiMessageSchema>;

/**
 * What an output frame may post to its parent, or null: post nothing (the tab shows no Colab notebook, or the guard
 * is off for it). `token` is the top-frame document's; `markers`: the user has marker patterns, so the frame sends
 * all its output text, which the top frame matches against them; `origin`: the Colab origin of the page above (the
 * frame cannot read it), the only one its reports are posted to.
 */
export type FrameHelloReply = { token: string; markers: boolean; origin: string } | null;

export interface HelloReply {
  tabId: number;
  token: string;
  /** The notebook's key as the worker knows it: the page's own, or its scratch key tied to the tab. */
  key: string | null;
}

/**
 * "Check Colab UI": ready or the step that is not, Colab's interface language (`colabLanguage`), and what the guard
 * met in the page lately, the check's own Runtime menu last (state/page-capture.ts; validated by the popup).
 */
export type CheckUiReply = ({ ready: true; detail: string } | { ready: false; failed: FailedStep }) & {
  language: string;
  captures?: PageCapture[];
};

/**
 * Whether the guard watches the page for `key` now (its observers are attached), once the page has read the
 * notebook's record; `key` null: the tab shows no notebook the guard has loaded for.
 */
export interface PageStateReply {
  key: string | null;
  watching: boolean;
}

/** Every message the service worker takes, from a Colab page, an output frame or an extension page. */
export type WorkerMessage = PageMessage | FrameMessage | UiMessage;

/**
 * The one protocol map (the @webext-core/messaging model): each message the worker takes, by its `type`, and the reply
 * it gets. Senders (`sendToWorker`, `sendUi`) and the router are typed by it, so a reply is never the caller's guess.
 * Receivers still validate what they get (the sender, then the payload's schema) before acting.
 */
export interface WorkerProtocol {
  'page-hello': HelloReply;
  /** The reply the policy gives the event (state/policy-events.ts `REPLY_KIND`): `ReplyTo` names it per event. */
  'page-event': ReplyFor<PageEvent>;
  'frame-hello': FrameHelloReply;
  /** null: the user switched the status API off. */
  'frame-status': NotebookStatus | null;
  'ui-command': CommandReply;
  'ui-settings': SettingsUpdate;
  'ui-import': ImportOutcome;
  'ui-clear': CommandReply;
  'ui-clear-storage-errors': CommandReply;
  'ui-alerts': CommandReply;
  'ui-alert-test': AlertTestReply | CommandRefused;
  'ui-heartbeat': CommandReply;
  'ui-heartbeat-test': AlertTestReply | CommandRefused;
}

/** What the popup asks a Colab tab (tab-request.ts), and the reply. */
export interface TabProtocol {
  'check-ui': CheckUiReply;
  'page-state': PageStateReply;
}

/** The reply to `M` (a worker message, or a tab request); to a page's event, the one its kind of event gets. */
export type ReplyTo<M extends { type: keyof WorkerProtocol | keyof TabProtocol }> = M extends {
  event: infer E extends PageEvent;
}
  ? ReplyFor<E>
  : M['type'] extends keyof WorkerProtocol
    ? WorkerProtocol[M['type']]
    : M['type'] extends keyof TabProtocol
      ? TabProtocol[M['type']]
      : never;

/** The map names every message type, and nothing else: this type does not compile otherwise. */
export type ProtocolComplete = Exactly<keyof WorkerProtocol, WorkerMessage['type']>;
type Exactly<A extends B, B extends C, C = A> = [A, B, C];

/** A count or position. */
const Count = v.pipe(v.number(), v.safeInteger(), v.minValue(0));
/** When an output arrived as its frame saw it, and whether that is when it arrived (frame/arrivals.ts). */
const Arrived = { at: v.pipe(v.number(), v.finite()), exact: v.boolean() };

export const FrameReportSchema = v.object({
  channel: v.literal(FRAME_CHANNEL),
  token: v.pipe(v.string(), v.minLength(16), v.maxLength(100)),
  report: v.variant('kind', [
    /** An error output: its position among the frame's outputs, Colab's number (`output-id-N`), when it arrived. */
    v.object({
      kind: v.literal('error-output'),
      text: v.pipe(v.string(), v.maxLength(MAX_TEXT_CHARS)),
      index: Count,
      id: v.nullable(Count),
      ...Arrived,
    }),
    v.object({ kind: v.literal('output-text'), text: v.pipe(v.string(), v.maxLength(MAX_TEXT_CHARS)) }),
    /**
     * The answer to a StreamTailRequest (frame-channel.ts): the end of the frame's stream outputs, how many outputs it
     * shows and the numbers of the newest, whether its last output is an error output, and when that one arrived.
     */
    v.object({
      kind: v.literal('stream-tail'),
      id: v.pipe(v.number(), v.safeInteger()),
      text: v.pipe(v.string(), v.maxLength(MAX_SHELL_TAIL_CHARS)),
      error: v.boolean(),
      count: Count,
      ids: v.pipe(v.array(v.nullable(Count)), v.maxLength(MAX_ORDER_IDS)),
      ...Arrived,
    }),
  ]),
});
export type FrameReport = v.InferOutput<typeof FrameReportSchema>;
