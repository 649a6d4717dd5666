import * as v from 'valibot';
import { CATEGORIES, type Category, DEFAULT_CATEGORIES } from '../detector/types';
import {
  HISTORY_LIMIT,
  MAX_PATTERN_CHARS,
  MAX_PATTERNS,
  NOTEBOOK_KEY_MAX_LENGTH,
  PROBLEMS_LIMIT,
  TEXT_LIMITS,
} from '../limits';
import { DECLINE_REASONS } from './declined';
import { type FailedStep, UI_STEPS } from './failed-step';
import {
  CURRENT_VERSION,
  isObject,
  type MigrationResult,
  migrate,
  type RawRecord,
  type RecordKind,
} from './migrations';
import { hasUnsafeText, isNotebookKey, NOTEBOOK_KEY_PATTERN, withoutUnsafeText } from './storage-keys';

/**
 * The storage layout in `storage.local`, validated on every read:
 * - `settings` → Settings
 * - `nb:<notebookKey>` → NotebookRecord (one key per notebook: a corrupt record never affects another, and writes
 *   stay small)
 * - `problems` → Problem[] (records that were corrupt and fell back to defaults)
 * and in `storage.session` (in memory, gone when the browser quits):
 * - `storageErrors` → StorageError[] (writes that failed, e.g. storage full, for the popup and options to show)
 */

export const SETTINGS_KEY = 'settings';
export const PROBLEMS_KEY = 'problems';
export const STORAGE_ERRORS_KEY = 'storageErrors';

export { type FailedStep, failedStepText, UI_STEPS, type UiStep } from './failed-step';
// In storage-keys.ts (no validation code), so the small Colab page script can name a record without the schema.
export { isNotebookKey, NOTEBOOK_PREFIX, notebookStorageKey } from './storage-keys';
// The bounds live in limits.ts with every other one; re-exported for the state modules' callers.
export { HISTORY_LIMIT, MAX_PATTERN_CHARS, MAX_PATTERNS, PROBLEMS_LIMIT, TEXT_LIMITS };

/** Epoch milliseconds. */
export const TimeSchema = v.pipe(v.number(), v.finite(), v.minValue(0));
const Count = v.pipe(v.number(), v.integer(), v.minValue(0));
const TabId = v.pipe(v.number(), v.integer());
const AttemptId = v.pipe(v.string(), v.minLength(1), v.maxLength(100));
const Text = (max: number) => v.pipe(v.string(), v.maxLength(max));

export const NotebookKeySchema = v.pipe(
  v.string(),
  v.maxLength(NOTEBOOK_KEY_MAX_LENGTH),
  v.regex(NOTEBOOK_KEY_PATTERN, 'Invalid notebook key'),
  v.check((key) => !hasUnsafeText(key), 'A notebook key must not contain control or bidirectional characters'),
);
/** A notebook's name as shown in the popup and notifications: characters that could spoof it are removed. */
const TitleSchema = v.pipe(v.string(), v.maxLength(TEXT_LIMITS.title), v.transform(withoutUnsafeText));
/** The browser session a countdown belongs to (background/session.ts): a browser restart starts another. */
const SessionId = v.pipe(v.string(), v.minLength(1), v.maxLength(100));

export { CATEGORIES, type Category } from '../detector/types';

/** What the detector matched. 'custom' is a user failure pattern; restart markers use it too. */
export const VerdictSchema = v.object({
  category: v.picklist([...CATEGORIES, 'custom']),
  rule: Text(TEXT_LIMITS.verdictField),
  description: Text(TEXT_LIMITS.verdictField),
  line: Text(TEXT_LIMITS.line),
});
export type Verdict = v.InferOutput<typeof VerdictSchema>;

/** The bounds of every numeric setting, [min, max]: the schema enforces them and the options page shows them. */
export const SETTING_BOUNDS = {
  maxRestarts: [0, 1000],
  backoffBaseSec: [1, 3600],
  backoffMaxSec: [1, 86_400],
  healthyMinutes: [1, 10_080],
  markerDailyLimit: [0, 10_000],
} as const satisfies Record<string, readonly [number, number]>;

const Bounded = ([min, max]: readonly [number, number]) =>
  v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max));
/** The crash-loop limit, in the settings and in a notebook's override alike. */
export const MaxRestartsSchema = Bounded(SETTING_BOUNDS.maxRestarts);
const Patterns = v.pipe(v.array(Text(MAX_PATTERN_CHARS)), v.maxLength(MAX_PATTERNS));

// Every field has a default so a record missing a field (written before the field existed) still reads.
const SettingsEntries = {
  v: v.literal(CURRENT_VERSION),
  maxRestarts: v.optional(MaxRestartsSchema, 3),
  backoffBaseSec: v.optional(Bounded(SETTING_BOUNDS.backoffBaseSec), 5),
  backoffMaxSec: v.optional(Bounded(SETTING_BOUNDS.backoffMaxSec), 300),
  healthyMinutes: v.optional(Bounded(SETTING_BOUNDS.healthyMinutes), 30),
  markerDailyLimit: v.optional(Bounded(SETTING_BOUNDS.markerDailyLimit), 100),
  // One switch per detector category, defaulting as the detector does (DEFAULT_CATEGORIES says why some are off).
  categories: v.optional(
    v.object(
      Object.fromEntries(CATEGORIES.map((c) => [c, v.optional(v.boolean(), DEFAULT_CATEGORIES[c])])) as Record<
        Category,
        v.OptionalSchema<v.BooleanSchema<undefined>, boolean>
      >,
    ),
    {},
  ),
  reconnectOnDisconnect: v.optional(v.boolean(), false),
  failurePatterns: v.optional(Patterns, () => []),
  markerPatterns: v.optional(Patterns, () => []),
  notifications: v.optional(v.boolean(), false),
  /** Code in a notebook's output frames may read its own status (messaging/status-api.ts); off: no answer. */
  statusApi: v.optional(v.boolean(), true),
  /** On: a guard stays on until switched off; off, one that saw nothing run for 12 hours ends (state/idle-end.ts). */
  guardNeverEnds: v.optional(v.boolean(), false),
  /** On: a countdown in a Colab tab where a person is working asks before it acts (page/question.ts). */
  askAtKeyboard: v.optional(v.boolean(), true),
  /** On: while a guarded run goes on, the computer is asked to stay awake (state/run-going.ts, background/awake.ts). */
  keepAwake: v.optional(v.boolean(), true),
};

export const SettingsSchema = v.pipe(
  v.object(SettingsEntries),
  v.forward(
    v.partialCheck(
      [['backoffBaseSec'], ['backoffMaxSec']],
      (s) => s.backoffMaxSec >= s.backoffBaseSec,
      'The longest back-off must not be shorter than the first one',
    ),
    ['backoffMaxSec'],
  ),
);
export type Settings = v.InferOutput<typeof SettingsSchema>;

/** What a failure was seen in: an error output, or Colab's crash notice. */
export const FAILURE_SOURCES = ['error-output', 'crash-toast'] as const;
export type FailureSource = (typeof FAILURE_SOURCES)[number];
/** A reconnect that found Colab unable to connect, or nothing to reconnect. */
export const RECONNECT_ENDS = ['unable-to-connect', 'not-needed'] as const;
export type ReconnectEnd = (typeof RECONNECT_ENDS)[number];

export const REASONS = ['failure', 'crash', 'marker', 'disconnect'] as const;
export const ACTIONS = ['restart-and-run-all', 'run-all', 'reconnect-and-run-all'] as const;
const Reason = v.picklist(REASONS);
const Action = v.picklist(ACTIONS);
export type RestartReason = (typeof REASONS)[number];
export type RestartAction = (typeof ACTIONS)[number];

/** A step that failed (failed-step.ts). */
export const FailedStepSchema = v.object({
  step: v.picklist(UI_STEPS),
  reason: Text(TEXT_LIMITS.uiStep),
  saw: Text(TEXT_LIMITS.detail),
}) satisfies v.GenericSchema<FailedStep>;

export const StatusSchema = v.variant('kind', [
  v.object({ kind: v.literal('watching') }),
  v.object({
    kind: v.literal('pending'),
    reason: Reason,
    action: Action,
    restartAt: TimeSchema,
    attempt: AttemptId,
    ownerTab: TabId,
    detectedAt: TimeSchema,
    verdict: VerdictSchema,
    /** Absent in records from before sessions were kept: such a countdown belongs to no live page. */
    session: v.optional(SessionId),
    /** Since when the owner tab asks the person at its keyboard instead of counting down (policy-restarts.ts onAsk). */
    askedAt: v.optional(TimeSchema),
  }),
  v.object({
    kind: v.literal('restarting'),
    reason: Reason,
    action: Action,
    attempt: AttemptId,
    ownerTab: TabId,
    startedAt: TimeSchema,
  }),
  v.object({ kind: v.literal('gave-up'), at: TimeSchema, restarts: Count }),
  v.object({
    kind: v.literal('ui-problem'),
    at: TimeSchema,
    failed: FailedStepSchema,
  }),
]);
export type Status = v.InferOutput<typeof StatusSchema>;

export const HISTORY_TYPES = [
  'restart-scheduled',
  'restarted',
  'restart-failed',
  'interrupted',
  'cancelled',
  'gave-up',
  're-armed',
  'counter-reset',
  'enabled',
  'disabled',
  'healthy-reset',
  'ignored',
  'resumed',
  'skipped',
  /** Colab or the notebook meant it (a disconnect not answered), or Colab asks what only a person may answer. */
  'left-to-person',
  /** A run (content/run-watch.ts) began; it finished, an error that is not out of memory stopped it, or the person. */
  'run-started',
  'run-finished',
  'run-stopped',
  'run-interrupted',
  /** The guard ended by itself: nothing ran in any tab of the notebook for `params.minutes` (state/idle-end.ts). */
  'guard-ended',
  /** A person at the keyboard was asked before a restart; `params.choice` says what came of it. */
  'asked',
  /** The tab of a run going on closed, was discarded or left the notebook, and no other tab shows it (`why`). */
  'tab-gone',
] as const;

export { DECLINE_REASONS, DECLINED, type DeclineReason } from './declined';

/** How the tab of a run going on can go without its page saying so (a `tab-gone` entry's `why`). */
export const TAB_GONE_WAYS = ['closed', 'discarded', 'navigated'] as const;
export type TabGoneWay = (typeof TAB_GONE_WAYS)[number];

/**
 * Why an entry happened, when its type alone does not say: a declined failure (DECLINED's reasons), a countdown
 * started again, a give-up, a marker restart, a disconnect or dialog left to the person.
 */
export const HISTORY_WHYS = [
  ...DECLINE_REASONS,
  'already-handled',
  'marker-limit',
  'reconnect-not-needed',
  'marker',
  'reconnect',
  'browser-restarted',
  'reloaded',
  'took-over',
  'late',
  'failed-again',
  'unable-to-connect',
  'dialog',
  'disconnect',
  /** A failure reported after the guard ended by itself. */
  'guard-ended',
  /** How a tab-gone entry's tab went: closed, discarded by the browser, or navigated away from the notebook. */
  ...TAB_GONE_WAYS,
] as const;
export type HistoryWhy = (typeof HISTORY_WHYS)[number];

/**
 * How a question to the person at the keyboard ended: Restart now, Not now, no input for minutes (the person went
 * away: the countdown acts), or the tab asking was closed.
 */
export const ASK_CHOICES = ['restart', 'not-now', 'away'] as const;
export const ASK_ENDS = [...ASK_CHOICES, 'closed'] as const;
export type AskChoice = (typeof ASK_CHOICES)[number];

/** What an entry says beyond its type, as data: the pages put it in words (ui/history-text.ts). */
export const HistoryParamsSchema = v.object({
  why: v.optional(v.picklist(HISTORY_WHYS)),
  /** The restart (or reconnect) this is, of `max`; for a give-up, the restarts already made. */
  n: v.optional(Count),
  max: v.optional(Count),
  delaySec: v.optional(Count),
  minutes: v.optional(Count),
  /** Lifetime restarts. */
  total: v.optional(Count),
  tab: v.optional(TabId),
  /** What Colab said (a dialog left to the person), or the line that stopped a run. */
  saw: v.optional(Text(TEXT_LIMITS.detail)),
  /** The cell a run stopped at, as Colab numbers its executions ("[7]"). */
  cell: v.optional(Count),
  /** A dialog left to the person (its DialogKind). */
  dialog: v.optional(Text(TEXT_LIMITS.uiStep)),
  /** Switching off or a disconnect also cancelled a pending restart. */
  cancelled: v.optional(v.boolean()),
  /** An `asked` entry: what the person chose, or how the question ended without a choice. */
  choice: v.optional(v.picklist(ASK_ENDS)),
});
export type HistoryParams = v.InferOutput<typeof HistoryParamsSchema>;

export const HistoryEntrySchema = v.object({
  at: TimeSchema,
  type: v.picklist(HISTORY_TYPES),
  params: v.optional(HistoryParamsSchema),
  /** Only in entries written as sentences by earlier versions that could not be read back as data: shown as is. */
  detail: v.optional(Text(TEXT_LIMITS.detail)),
  verdict: v.optional(VerdictSchema),
  action: v.optional(Action),
  /** A `restart-failed` entry: the step that failed. */
  failed: v.optional(FailedStepSchema),
});
export type HistoryEntry = v.InferOutput<typeof HistoryEntrySchema>;

/** What a page tells of a run: it began, finished, an error stopped it, or the person did. */
export const RUN_EVENTS = ['started', 'finished', 'stopped', 'interrupted'] as const;
export type RunEvent = (typeof RUN_EVENTS)[number];

const NotebookEntries = {
  v: v.literal(CURRENT_VERSION),
  key: NotebookKeySchema,
  title: v.optional(TitleSchema, ''),
  enabled: v.optional(v.boolean(), false),
  overrides: v.optional(v.object({ maxRestarts: v.optional(MaxRestartsSchema) }), {}),
  status: v.optional(StatusSchema, { kind: 'watching' }),
  loopCount: v.optional(Count, 0),
  totalRestarts: v.optional(Count, 0),
  markerDay: v.optional(v.pipe(v.string(), v.regex(/^(?:\d{4}-\d{2}-\d{2})?$/)), ''),
  markerCount: v.optional(Count, 0),
  lastRestartAt: v.optional(TimeSchema),
  lastFailureAt: v.optional(TimeSchema),
  /** When the user or the guard last changed the record (a title aside): what idle records are pruned by. */
  touchedAt: v.optional(TimeSchema),
  /** Since when a page reports that detection may be blind; gone once it sees a cell run again. */
  blindSince: v.optional(TimeSchema),
  /**
   * When a cell was last seen starting or ending in a page on this notebook, and the tabs in which cells are under way
   * now (in browser session `session`: tabs of another session are gone). Absent: nothing known, the guard stays on.
   */
  activity: v.optional(
    v.object({
      at: TimeSchema,
      busyTabs: v.pipe(v.array(TabId), v.maxLength(100)),
      session: v.optional(SessionId),
    }),
  ),
  history: v.optional(v.pipe(v.array(HistoryEntrySchema), v.maxLength(HISTORY_LIMIT)), () => []),
};

export const NotebookRecordSchema = v.object(NotebookEntries);
const NotebookFieldsSchema = v.omit(NotebookRecordSchema, ['key']);
export type NotebookRecord = v.InferOutput<typeof NotebookRecordSchema>;

export const ProblemSchema = v.object({ at: TimeSchema, key: v.string(), message: Text(TEXT_LIMITS.problem) });
export type Problem = v.InferOutput<typeof ProblemSchema>;

/** A write to storage that failed: what the browser said, and what was not saved because of it. */
export const StorageErrorSchema = v.object({
  at: TimeSchema,
  message: Text(TEXT_LIMITS.problem),
  lost: Text(TEXT_LIMITS.detail),
});
export type StorageError = v.InferOutput<typeof StorageErrorSchema>;

export function defaultSettings(): Settings {
  return v.parse(SettingsSchema, { v: CURRENT_VERSION });
}

/** The key is not checked here: reads of a record under an invalid key still need defaults to show. */
export function defaultNotebook(key: string): NotebookRecord {
  return { ...v.parse(NotebookFieldsSchema, { v: CURRENT_VERSION }), key };
}

/**
 * `problem` is set when the stored value could not be used as is; `readOnly` when it was written by a newer version of
 * the extension: the caller must not overwrite it (what this version understands of it is still returned).
 */
export interface ParseResult<T> {
  value: T;
  problem?: string;
  readOnly?: boolean;
}

export function parseSettings(raw: unknown): ParseResult<Settings> {
  return parseRecord('settings', raw, SettingsSchema, SettingsEntries, defaultSettings(), dropNothing);
}

/**
 * The storage key is authoritative for `key`: a record copied under another key takes that key. A record under a key
 * that is not a notebook key (no URL gives it) reads as defaults and is reported.
 */
export function parseNotebook(key: string, raw: unknown): ParseResult<NotebookRecord> {
  const defaults = defaultNotebook(key);
  if (!isNotebookKey(key)) {
    const stored = raw !== undefined && raw !== null;
    return stored ? { value: defaults, problem: 'stored under an invalid notebook key; ignored' } : { value: defaults };
  }
  const withKey = isObject(raw) ? { ...raw, key } : raw;
  return parseRecord('notebook', withKey, NotebookRecordSchema, NotebookEntries, defaults, dropInvalidHistory);
}

/** Keeps the valid entries: one damaged report should not hide the others. */
export function parseProblems(raw: unknown): Problem[] {
  return Array.isArray(raw) ? raw.filter((entry): entry is Problem => v.is(ProblemSchema, entry)) : [];
}

export function parseStorageErrors(raw: unknown): StorageError[] {
  return Array.isArray(raw) ? raw.filter((entry): entry is StorageError => v.is(StorageErrorSchema, entry)) : [];
}

type Salvageable<T> = v.GenericSchema<unknown, T>;
type Prepare = (raw: RawRecord) => { raw: RawRecord; notes: string[] };
type Issues = [v.BaseIssue<unknown>, ...v.BaseIssue<unknown>[]];

export type StrictParse<T> =
  | { ok: true; value: T }
  | Extract<MigrationResult, { ok: false }>
  | { ok: false; reason: 'fields'; migrated: RawRecord; issues: Issues };

/** Brings a raw record to the current version and validates it whole: what storage reads and imports share. */
export function migrateAndParse<T>(kind: RecordKind, raw: RawRecord, schema: Salvageable<T>): StrictParse<T> {
  const migrated = migrate(kind, raw);
  if (!migrated.ok) return migrated;
  const parsed = v.safeParse(schema, migrated.value);
  if (parsed.success) return { ok: true, value: parsed.output };
  return { ok: false, reason: 'fields', migrated: migrated.value, issues: parsed.issues };
}

function parseRecord<T>(
  kind: RecordKind,
  raw: unknown,
  schema: Salvageable<T>,
  entries: v.ObjectEntries,
  defaults: T,
  prepare: Prepare,
): ParseResult<T> {
  if (raw === undefined || raw === null) return { value: defaults };
  if (!isObject(raw)) return { value: defaults, problem: `not a record (${describeType(raw)}); using defaults` };
  const result = migrateAndParse(kind, raw, schema);
  if (result.ok) return { value: result.value };
  switch (result.reason) {
    case 'invalid':
      return { value: defaults, problem: `${result.message}; using defaults` };
    case 'newer': {
      // Read what this version understands, but never overwrite: the newer version may come back (sync, downgrade).
      const { value } = salvage({ ...raw, v: CURRENT_VERSION }, schema, entries, defaults, prepare);
      const problem = `written by a newer version (v${result.version}) of the extension; kept unchanged`;
      return { value, readOnly: true, problem };
    }
    case 'fields': {
      const { value, notes } = salvage(result.migrated, schema, entries, defaults, prepare);
      return { value, problem: `invalid fields reset to defaults: ${notes.join('; ')}` };
    }
  }
}

/** Keeps each field that validates on its own; the others take their defaults (fields are independent: safe). */
function salvage<T>(raw: RawRecord, schema: Salvageable<T>, entries: v.ObjectEntries, defaults: T, prepare: Prepare) {
  const prepared = prepare(raw);
  const notes = [...prepared.notes];
  const kept: RawRecord = {};
  for (const [name, entry] of Object.entries(entries)) {
    const field = v.safeParse(entry, prepared.raw[name]);
    if (field.success) kept[name] = field.output;
    else notes.push(`${name} (${field.issues[0].message})`);
  }
  const whole = v.safeParse(schema, kept);
  if (whole.success) return { value: whole.output, notes };
  // Fields valid alone but not together (e.g. back-off maximum below the base): nothing partial is trustworthy.
  return { value: defaults, notes: [...notes, ...whole.issues.map(describeIssue)] };
}

const dropNothing: Prepare = (raw) => ({ raw, notes: [] });

/** One bad history entry should not cost the whole history. */
const dropInvalidHistory: Prepare = (raw) => {
  if (!Array.isArray(raw.history)) return { raw, notes: [] };
  const valid = raw.history.filter((entry) => v.is(HistoryEntrySchema, entry));
  const dropped = raw.history.length - valid.length;
  const notes = dropped > 0 ? [`history (dropped ${dropped} invalid entries)`] : [];
  if (valid.length > HISTORY_LIMIT) notes.push(`history (kept the newest ${HISTORY_LIMIT} of ${valid.length} entries)`);
  return { raw: { ...raw, history: valid.slice(-HISTORY_LIMIT) }, notes };
};

function describeIssue(issue: v.BaseIssue<unknown>): string {
  const path = v.getDotPath(issue);
  return path ? `${path}: ${issue.message}` : issue.message;
}

function describeType(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `a string: ${JSON.stringify(value.slice(0, 60))}`;
  return `a ${typeof value}`;
}
