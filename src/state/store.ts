import * as v from 'valibot';
import browser from 'webextension-polyfill';
import { createQueue } from '../lib/queue';
import { megabytes } from '../lib/units';
import { cut } from '../limits';
import { CURRENT_VERSION, isObject, recordVersion } from './migrations';
import {
  cleanTitle,
  createsRecord,
  type PolicyContext,
  type PolicyEvent,
  type Reduction,
  type ReplyFor,
  reduce,
} from './policy';
import { retain } from './retention';
import {
  isNotebookKey,
  NOTEBOOK_PREFIX,
  type NotebookRecord,
  NotebookRecordSchema,
  notebookStorageKey,
  type ParseResult,
  PROBLEMS_KEY,
  PROBLEMS_LIMIT,
  type Problem,
  parseNotebook,
  parseProblems,
  parseSettings,
  parseStorageErrors,
  SETTINGS_KEY,
  type Settings,
  SettingsSchema,
  STORAGE_ERRORS_KEY,
  type StorageError,
  TEXT_LIMITS,
} from './schema';
import { type PatternCheck, parseImport } from './transfer';
import type { Why } from './why';

/**
 * The thin adapter between the pure state modules and `storage.local`. Reads validate and migrate, and never throw on
 * bad data: a corrupt record reads as defaults (for that record alone) and is reported under `problems`.
 * Settings and notebook records are written by one writer, the service worker's (`createNotebookWriter`); `problems`
 * is the exception: any context that reads a corrupt record appends to it.
 */

const local = () => browser.storage.local;

async function readKey(key: string): Promise<unknown> {
  const items = await local().get(key);
  return items[key];
}

// ---------------------------------------------------------------------------------------------------------------------
// Reads (any context)

export async function loadSettings(): Promise<Settings> {
  return (await readReported(SETTINGS_KEY, parseSettings)).value;
}

export async function loadNotebook(key: string): Promise<NotebookRecord> {
  return (await readReported(notebookStorageKey(key), (raw) => parseNotebook(key, raw))).value;
}

/** Every stored notebook, in no particular order. */
export async function loadAllNotebooks(): Promise<NotebookRecord[]> {
  const items = await local().get(null);
  const records: NotebookRecord[] = [];
  for (const [storageKey, raw] of Object.entries(items)) {
    if (!storageKey.startsWith(NOTEBOOK_PREFIX)) continue;
    const key = storageKey.slice(NOTEBOOK_PREFIX.length);
    const parsed = parseNotebook(key, raw);
    if (parsed.problem) await reportQuietly(storageKey, parsed.problem);
    // Reported above; under an invalid key there is no notebook to list (or export: the file would not import).
    if (isNotebookKey(key)) records.push(parsed.value);
  }
  return records;
}

export async function loadProblems(): Promise<Problem[]> {
  return parseProblems(await readKey(PROBLEMS_KEY));
}

/** Writes the browser refused (extension pages only: content scripts cannot read storage.session). */
export async function loadStorageErrors(): Promise<StorageError[]> {
  return parseStorageErrors((await browser.storage.session.get(STORAGE_ERRORS_KEY))[STORAGE_ERRORS_KEY]);
}

async function readReported<T>(storageKey: string, parse: (raw: unknown) => ParseResult<T>): Promise<ParseResult<T>> {
  const parsed = parse(await readKey(storageKey));
  if (parsed.problem) await reportQuietly(storageKey, parsed.problem);
  return parsed;
}

/** A report that cannot be written (storage full) must not also make the record it is about unreadable. */
function reportQuietly(storageKey: string, message: string): Promise<void> {
  return reportProblem(storageKey, message).catch(() => undefined);
}

let problemChain: Promise<unknown> = Promise.resolve();

/**
 * Appends to the capped `problems` list. A problem already listed is not written again: every context reads a corrupt
 * record on every load, and each write would wake every page's storage listener. Serialised within this context; two
 * contexts racing may drop one report, which the next read of the still-corrupt record repeats.
 */
function reportProblem(storageKey: string, message: string): Promise<void> {
  const task = problemChain.then(async () => {
    const stored = cut(message, TEXT_LIMITS.problem);
    const problems = await loadProblems();
    if (problems.some((p) => p.key === storageKey && p.message === stored)) return;
    const next = [...problems, { at: Date.now(), key: storageKey, message: stored }];
    await local().set({ [PROBLEMS_KEY]: next.slice(-PROBLEMS_LIMIT) });
  });
  problemChain = task.catch(() => undefined);
  return task;
}

// ---------------------------------------------------------------------------------------------------------------------
// Watching (pages)

type Changes = Record<string, browser.Storage.StorageChange>;

function watchKey(storageKey: string, onValue: (raw: unknown) => void, storageArea = 'local'): () => void {
  const listener = (changes: Changes, area: string) => {
    const change = changes[storageKey];
    if (area === storageArea && change) onValue(change.newValue);
  };
  browser.storage.onChanged.addListener(listener);
  return () => browser.storage.onChanged.removeListener(listener);
}

/** Calls back with the validated record on every change (defaults once it is removed). Returns the unsubscribe. */
export function watchNotebook(key: string, callback: (record: NotebookRecord) => void): () => void {
  return watchKey(notebookStorageKey(key), (raw) => callback(parseNotebook(key, raw).value));
}

export function watchSettings(callback: (settings: Settings) => void): () => void {
  return watchKey(SETTINGS_KEY, (raw) => callback(parseSettings(raw).value));
}

export function watchStorageErrors(callback: (errors: StorageError[]) => void): () => void {
  return watchKey(STORAGE_ERRORS_KEY, (raw) => callback(parseStorageErrors(raw)), 'session');
}

// ---------------------------------------------------------------------------------------------------------------------
// The writer (service worker only)

/** A record written by a newer version of the extension is never overwritten by this one (only Clear removes it). */
export class ReadOnlyRecordError extends Error {
  constructor(readonly storageKey: string) {
    super(`${storageKey} was written by a newer version of the extension and is kept unchanged. Update the extension.`);
    this.name = 'ReadOnlyRecordError';
  }
}

/** A write the browser refused (most often: the extension's storage is full). Nothing of that write was stored. */
export class StorageWriteError extends Error {
  /** `detail`: the browser's own message; `full`: it says the storage quota is used up. */
  constructor(
    readonly detail: string,
    readonly full: boolean,
  ) {
    super(`Could not save to the extension's storage: ${full ? `it is full (${detail})` : detail}`);
    this.name = 'StorageWriteError';
  }
}

/** A refused write, as the reply says it. */
export function storageRefused(error: StorageWriteError): Why {
  return { kind: 'storage-refused', full: error.full, detail: error.detail };
}

async function write(items: Record<string, unknown>): Promise<void> {
  try {
    await local().set(items);
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    throw new StorageWriteError(text, /quota/i.test(text));
  }
}

export type SettingsUpdate = { ok: true; settings: Settings } | { ok: false; why: Why };
export type ImportOutcome = { ok: true; notebooks: number } | { ok: false; why: Why };
export interface RetentionOutcome {
  removed: number;
  rewritten: number;
}

export interface NotebookWriter {
  /**
   * Applies one policy event to one notebook: read, reduce, write, serialised per notebook. A notebook without a
   * record gets one only from an event that creates it (see createsRecord), starting with `title`.
   */
  update<E extends PolicyEvent>(
    key: string,
    event: E,
    ctx: PolicyContext,
    title?: string,
  ): Promise<Reduction<ReplyFor<E>>>;
  /** Validated as a whole: an invalid patch writes nothing. `categories` merges into the current categories. */
  updateSettings(patch: Record<string, unknown>): Promise<SettingsUpdate>;
  /**
   * Replaces the settings and the notebooks in the file; other notebooks stay. An invalid file changes nothing, and
   * neither does one that would replace a record written by a newer version.
   */
  importData(text: string): Promise<ImportOutcome>;
  /** Removes the settings, the problems and every notebook record (and nothing else). */
  clearAll(): Promise<void>;
  /** Removes one notebook's record (a scratch notebook whose tab left it). */
  forget(key: string): Promise<void>;
  /** Rewrites records stored in an older shape in the current one (after an update); returns how many. */
  migrateStoredData(): Promise<number>;
  /** Applies the retention rules (retention.ts) to every stored notebook record; `shown`: the keys tabs show now. */
  applyRetention(now: number, shown: ReadonlySet<string>): Promise<RetentionOutcome>;
}

/** `checkPatterns`: the pattern engine's check for imported patterns (see `parseImport`). */
export function createNotebookWriter(checkPatterns?: PatternCheck): NotebookWriter {
  // Per storage key, so that concurrent messages about one notebook never lose an update.
  const queue = createQueue<string>();
  return {
    update: (key, event, ctx, title) =>
      queue.run(notebookStorageKey(key), () => applyEvent(key, event, ctx, title ?? '')),
    updateSettings: (patch) => queue.run(SETTINGS_KEY, () => applySettingsPatch(patch)),
    importData: (text) => queue.exclusive(() => applyImport(text, checkPatterns)),
    clearAll: () => queue.exclusive(removeOurKeys),
    forget: (key) => queue.run(notebookStorageKey(key), () => local().remove(notebookStorageKey(key))),
    migrateStoredData: () => queue.exclusive(migrateAll),
    applyRetention: (now, shown) => queue.exclusive(() => applyRetention(now, shown)),
  };
}

async function applyEvent<E extends PolicyEvent>(key: string, event: E, ctx: PolicyContext, title: string) {
  if (!isNotebookKey(key)) throw new Error(`Not a notebook key: ${JSON.stringify(key.slice(0, 100))}`);
  const storageKey = notebookStorageKey(key);
  const raw = await readKey(storageKey);
  const parsed = parseNotebook(key, raw);
  if (parsed.problem) await reportQuietly(storageKey, parsed.problem);
  if (parsed.readOnly) throw new ReadOnlyRecordError(storageKey);
  const stored = raw !== undefined && raw !== null;
  const before = stored ? parsed.value : { ...parsed.value, title: cleanTitle(title) };
  const result = reduce(before, event, ctx);
  // Without a record, only the user's choice writes one: the notebooks opened but never guarded leave no trace.
  if (!stored && !createsRecord(event)) return result;
  // A salvaged record is written back even if unchanged, so its problem is reported once rather than on every read.
  if (result.record !== before || parsed.problem) await writeNotebook(result.record);
  return result;
}

/** Never store what would not read back: a reducer bug must not turn into a corrupt record. */
async function writeNotebook(record: NotebookRecord): Promise<void> {
  const check = v.safeParse(NotebookRecordSchema, record);
  if (!check.success) {
    throw new Error(`Refusing to store an invalid record for ${record.key}: ${check.issues[0].message}`);
  }
  await write({ [notebookStorageKey(record.key)]: record });
}

async function applySettingsPatch(patch: Record<string, unknown>): Promise<SettingsUpdate> {
  const parsed = await readReported(SETTINGS_KEY, parseSettings);
  if (parsed.readOnly) return { ok: false, why: { kind: 'read-only', key: SETTINGS_KEY } };
  const unknown = unknownSettings(patch, parsed.value);
  if (unknown.length > 0) return { ok: false, why: { kind: 'unknown-setting', names: unknown } };
  const merged = { ...parsed.value, ...patch };
  if (isObject(patch.categories)) merged.categories = { ...parsed.value.categories, ...patch.categories };
  const result = v.safeParse(SettingsSchema, merged);
  if (!result.success) {
    const [issue] = result.issues;
    return { ok: false, why: { kind: 'invalid-setting', path: v.getDotPath(issue) ?? '', detail: issue.message } };
  }
  await write({ [SETTINGS_KEY]: result.output });
  return { ok: true, settings: result.output };
}

/** Own names only: `constructor` or `toString` are in every object's prototype chain, and are no settings. */
function unknownSettings(patch: Record<string, unknown>, settings: Settings): string[] {
  const names = Object.keys(patch).filter((name) => name === 'v' || !Object.hasOwn(settings, name));
  if (!isObject(patch.categories)) return names;
  const categories = Object.keys(patch.categories).filter((name) => !Object.hasOwn(settings.categories, name));
  return [...names, ...categories.map((name) => `categories.${name}`)];
}

async function applyImport(text: string, checkPatterns?: PatternCheck): Promise<ImportOutcome> {
  const parsed = parseImport(text, checkPatterns);
  if (!parsed.ok) return parsed;
  const items: Record<string, unknown> = { [SETTINGS_KEY]: parsed.settings };
  for (const record of parsed.notebooks) items[notebookStorageKey(record.key)] = record;
  const newer = await newerRecords(Object.keys(items));
  if (newer.length > 0) {
    return { ok: false, why: { kind: 'import-newer', names: newer.slice(0, 3), more: Math.max(0, newer.length - 3) } };
  }
  const tooLarge = await exceedsQuota(items);
  if (tooLarge) return { ok: false, why: tooLarge };
  await write(items);
  return { ok: true, notebooks: parsed.notebooks.length };
}

/**
 * Whether storing `items` over what is stored would pass the browser's quota, and if so, why. Chrome counts each key's
 * length plus its value's JSON, in bytes, against QUOTA_BYTES; Firefox sets no such quota. The browser refuses an
 * over-quota write whole, so this is for a clear message, not for safety.
 */
async function exceedsQuota(items: Record<string, unknown>): Promise<Why | null> {
  const quota = (local() as { QUOTA_BYTES?: unknown }).QUOTA_BYTES;
  if (typeof quota !== 'number') return null;
  const needed = bytesOf({ ...(await local().get(null)), ...items });
  if (needed <= quota) return null;
  return { kind: 'import-too-large', neededMb: megabytes(needed), quotaMb: megabytes(quota) };
}

const utf8 = new TextEncoder();

export function bytesOf(items: Record<string, unknown>): number {
  let total = 0;
  for (const [key, value] of Object.entries(items)) {
    total += utf8.encode(key).length + utf8.encode(JSON.stringify(value) ?? '').length;
  }
  return total;
}

async function applyRetention(now: number, shown: ReadonlySet<string>): Promise<RetentionOutcome> {
  const items = await local().get(null);
  const removed: string[] = [];
  const rewritten: Record<string, NotebookRecord> = {};
  for (const [storageKey, raw] of Object.entries(items)) {
    if (!storageKey.startsWith(NOTEBOOK_PREFIX)) continue;
    const parsed = parseNotebook(storageKey.slice(NOTEBOOK_PREFIX.length), raw);
    // Damaged or newer records stay as they are, for the user to see among the problems.
    if (parsed.problem) continue;
    const kept = retain(parsed.value, now, shown);
    if (kept.kind === 'remove') removed.push(storageKey);
    if (kept.kind === 'rewrite') rewritten[storageKey] = kept.record;
  }
  if (removed.length > 0) await local().remove(removed);
  if (Object.keys(rewritten).length > 0) await write(rewritten);
  return { removed: removed.length, rewritten: Object.keys(rewritten).length };
}

function isOurKey(storageKey: string): boolean {
  return storageKey === SETTINGS_KEY || storageKey === PROBLEMS_KEY || storageKey.startsWith(NOTEBOOK_PREFIX);
}

async function removeOurKeys(): Promise<void> {
  const keys = Object.keys(await local().get(null)).filter(isOurKey);
  if (keys.length > 0) await local().remove(keys);
}

async function migrateAll(): Promise<number> {
  const items = await local().get(null);
  const rewritten: Record<string, unknown> = {};
  for (const [storageKey, raw] of Object.entries(items)) {
    if (!isOlderVersion(raw)) continue;
    const parsed = parseStored(storageKey, raw);
    if (!parsed) continue;
    if (parsed.problem) await reportQuietly(storageKey, parsed.problem);
    if (parsed.rewrite) rewritten[storageKey] = parsed.value;
  }
  if (Object.keys(rewritten).length > 0) await write(rewritten);
  return Object.keys(rewritten).length;
}

async function newerRecords(storageKeys: string[]): Promise<string[]> {
  const stored = await local().get(storageKeys);
  return storageKeys.filter((key) => (storedVersion(stored[key]) ?? 0) > CURRENT_VERSION);
}

function isOlderVersion(raw: unknown): boolean {
  return (storedVersion(raw) ?? CURRENT_VERSION) < CURRENT_VERSION;
}

function storedVersion(raw: unknown): number | null {
  return isObject(raw) ? recordVersion(raw) : null;
}

/** Null for keys that are not ours. `rewrite` is false for a record that must stay as stored (an invalid key). */
function parseStored(
  storageKey: string,
  raw: unknown,
): (ParseResult<Settings | NotebookRecord> & { rewrite: boolean }) | null {
  if (storageKey === SETTINGS_KEY) return { ...parseSettings(raw), rewrite: true };
  if (!storageKey.startsWith(NOTEBOOK_PREFIX)) return null;
  const key = storageKey.slice(NOTEBOOK_PREFIX.length);
  return { ...parseNotebook(key, raw), rewrite: isNotebookKey(key) };
}
