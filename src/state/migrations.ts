/**
 * Stored shapes change between releases; each record carries its version in `v` and is brought up to
 * `CURRENT_VERSION` on read (and written back in the current shape on the next write), so an extension updated
 * overnight keeps its counters and history. A migration takes the raw record of version N and returns version N+1;
 * it never validates: the schema does that afterwards.
 */

import { cut, HISTORY_LIMIT, TEXT_LIMITS } from '../limits';
import { type FailedStep, UI_STEPS, type UiStep } from './failed-step';
import { entryV3toV4 } from './history-sentences';

export const CURRENT_VERSION = 5;

export type RawRecord = Record<string, unknown>;
type Migration = (raw: RawRecord) => RawRecord;
export type RecordKind = 'settings' | 'notebook';

export type MigrationResult =
  | { ok: true; value: RawRecord; from: number }
  | { ok: false; reason: 'newer'; version: number }
  | { ok: false; reason: 'invalid'; message: string };

/**
 * v0: the pre-release builds (0.0.x) stored no `v`, kept the loop counter as `restarts`, the lifetime total as
 * `lifetimeRestarts`, the switch as `active`, markers as `markersToday: { day, count }`, and a `log` of
 * `{ t, what, text }`.
 * Their transient states (a countdown in progress) are dropped: the tabs that ran them are gone after an update.
 */
function notebookV0toV1(raw: RawRecord): RawRecord {
  const markers = isObject(raw.markersToday) ? raw.markersToday : {};
  const log = Array.isArray(raw.log) ? raw.log : [];
  return {
    v: 1,
    key: raw.key,
    title: raw.name ?? '',
    enabled: raw.active === true,
    overrides: typeof raw.maxRestarts === 'number' ? { maxRestarts: raw.maxRestarts } : {},
    status:
      raw.state === 'stopped'
        ? { kind: 'gave-up', at: raw.lastRestart ?? 0, restarts: raw.restarts ?? 0 }
        : { kind: 'watching' },
    loopCount: raw.restarts ?? 0,
    totalRestarts: raw.lifetimeRestarts ?? raw.restarts ?? 0,
    markerDay: markers.day ?? '',
    markerCount: markers.count ?? 0,
    ...(raw.lastRestart === undefined ? {} : { lastRestartAt: raw.lastRestart }),
    // The old log had no cap; the newest entries are the ones worth keeping.
    history: log.flatMap(historyV0toV1).slice(-HISTORY_LIMIT),
  };
}

const V0_LOG_TYPES: Readonly<Record<string, string>> = {
  restart: 'restarted',
  'gave-up': 'gave-up',
  cancel: 'cancelled',
};

/** v0 also logged plain detections; those carry nothing the v1 history needs, so they are dropped. */
function historyV0toV1(entry: unknown): RawRecord[] {
  if (!isObject(entry) || typeof entry.what !== 'string') return [];
  const type = V0_LOG_TYPES[entry.what];
  if (type === undefined) return [];
  return [{ at: entry.t, type, ...(typeof entry.text === 'string' ? { detail: entry.text } : {}) }];
}

/** v0 settings: `maxRetries`, `backoffSeconds`, `backoffCapSeconds`, `resetAfterMinutes`, `patterns`. */
function settingsV0toV1(raw: RawRecord): RawRecord {
  const { maxRetries, backoffSeconds, backoffCapSeconds, resetAfterMinutes, patterns, ...rest } = raw;
  return {
    ...rest,
    v: 1,
    maxRestarts: maxRetries,
    backoffBaseSec: backoffSeconds,
    backoffMaxSec: backoffCapSeconds,
    healthyMinutes: resetAfterMinutes,
    failurePatterns: patterns,
  };
}

/**
 * v1 had a second switch for Colab's crash notice, `crashToast`, beside the 'colab-crash' category that governs the
 * same notice: one switch now, off when either was off. v2 also adds the 'colab-crash-unknown' category, off by
 * default (the schema fills it in).
 */
function settingsV1toV2(raw: RawRecord): RawRecord {
  const { crashToast, ...rest } = raw;
  const categories = isObject(raw.categories) ? raw.categories : {};
  if (crashToast !== false) return { ...rest, v: 2 };
  return { ...rest, v: 2, categories: { ...categories, 'colab-crash': false } };
}

/**
 * Records that did not change shape. v3 added the history type 'left-to-person' (settings are unchanged): its new
 * version keeps an older extension from rewriting a history it cannot read whole. v4 changed notebooks only. v5 added
 * the history type 'tab-gone' and the setting `keepAwake` (on unless stored off): an older extension rewriting either
 * would drop what it cannot read.
 */
function sameShape(version: number): Migration {
  return (raw) => ({ ...raw, v: version });
}

/**
 * v4 keeps history entries' details as parameters, not English sentences (history-sentences.ts reads them back), and a
 * failed step as data. v3 kept a failed step as text: a `ui-problem` status's `step` and `detail`
 * (`<reason>[…]; saw: <what it saw>`, a precheck's `dialog-open: <kind>; saw: …`), and a `restart-failed` entry's
 * detail `<step>: <that detail>`. v4 keeps it as data, `failed: { step, reason, saw }`. What the text held beyond the
 * reason stays in `saw`: nothing is lost.
 */
function notebookV3toV4(raw: RawRecord): RawRecord {
  const status = isObject(raw.status) && raw.status.kind === 'ui-problem' ? statusV3toV4(raw.status) : raw.status;
  const history = Array.isArray(raw.history)
    ? raw.history.map((entry) => entryV3toV4(historyV3toV4(entry)))
    : raw.history;
  return { ...raw, v: 4, status, history };
}

function statusV3toV4(status: RawRecord): RawRecord {
  const { step, detail, ...rest } = status;
  return { ...rest, failed: failedStepV3(String(step ?? ''), String(detail ?? '')) };
}

function historyV3toV4(entry: unknown): unknown {
  if (!isObject(entry) || entry.type !== 'restart-failed' || typeof entry.detail !== 'string') return entry;
  const [, step, detail] = /^([a-z][a-z-]*): ([\s\S]*)$/.exec(entry.detail) ?? [];
  if (step === undefined || detail === undefined || !isUiStep(step)) return entry;
  const { detail: _, ...rest } = entry;
  return { ...rest, failed: failedStepV3(step, detail) };
}

function failedStepV3(step: string, detail: string): FailedStep {
  // A step this version does not know keeps its name as the reason.
  if (!isUiStep(step)) return { step: 'unknown', reason: step, saw: detail };
  const dialog = step === 'precheck' ? /^dialog-open: ([a-z-]+)(?:; saw: ([\s\S]*))?$/.exec(detail) : null;
  if (dialog) return { step, reason: dialog[1] ?? '', saw: dialog[2] ?? '' };
  const reason = /^[a-z][a-z-]*/.exec(detail)?.[0] ?? '';
  const saw = detail.slice(reason.length).replace(/^(?:; saw: |[;:]? ?)/, '');
  return { step, reason: cut(reason, TEXT_LIMITS.uiStep), saw };
}

function isUiStep(step: string): step is UiStep {
  return (UI_STEPS as readonly string[]).includes(step);
}

const MIGRATIONS: Readonly<Record<RecordKind, Readonly<Record<number, Migration>>>> = {
  notebook: { 0: notebookV0toV1, 1: sameShape(2), 2: sameShape(3), 3: notebookV3toV4, 4: sameShape(5) },
  settings: { 0: settingsV0toV1, 1: settingsV1toV2, 2: sameShape(3), 3: sameShape(4), 4: sameShape(5) },
};

/**
 * The version a raw record was written by, or null when unreadable. Only a record without `v` is v0 (the pre-release
 * builds wrote none): `v: null` is damage, not an old record.
 */
export function recordVersion(raw: RawRecord): number | null {
  const version = Object.hasOwn(raw, 'v') ? raw.v : 0;
  return typeof version === 'number' && Number.isInteger(version) && version >= 0 ? version : null;
}

/** Brings a raw record to `CURRENT_VERSION`. */
export function migrate(kind: RecordKind, raw: RawRecord): MigrationResult {
  const from = recordVersion(raw);
  if (from === null) return { ok: false, reason: 'invalid', message: `unreadable version ${JSON.stringify(raw.v)}` };
  if (from > CURRENT_VERSION) return { ok: false, reason: 'newer', version: from };
  let value = raw;
  for (let version = from; version < CURRENT_VERSION; version++) {
    const step = MIGRATIONS[kind][version];
    if (!step) return { ok: false, reason: 'invalid', message: `no migration from version ${version}` };
    try {
      value = step(value);
    } catch (error) {
      return { ok: false, reason: 'invalid', message: `migration from version ${version} failed: ${String(error)}` };
    }
  }
  return { ok: true, value, from };
}

export function isObject(value: unknown): value is RawRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
