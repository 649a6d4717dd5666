import * as v from 'valibot';
import type { Refusal } from '../detector';
import { IMPORT_MAX_NOTEBOOKS } from '../limits';
import { CURRENT_VERSION, isObject, type RecordKind } from './migrations';
import { migrateAndParse, type NotebookRecord, NotebookRecordSchema, type Settings, SettingsSchema } from './schema';
import { isScratchKey } from './scratch';
import type { Why } from './why';

/** Export files: settings and every notebook record, in the current storage shapes. */

export const EXPORT_FORMAT = 'colab-oom-guard';

export interface ExportFile {
  format: typeof EXPORT_FORMAT;
  version: number;
  exportedAt: string;
  settings: Settings;
  notebooks: NotebookRecord[];
}

export function exportData(
  settings: Settings,
  records: readonly NotebookRecord[],
  now: number = Date.now(),
): ExportFile {
  // Sorted here, not by the caller: the same data always gives the same file. A scratch notebook lives in one tab of
  // this browser only: it is not exported.
  const notebooks = records.filter((r) => !isScratchKey(r.key)).sort((a, b) => a.key.localeCompare(b.key));
  const exportedAt = new Date(now).toISOString();
  return { format: EXPORT_FORMAT, version: CURRENT_VERSION, exportedAt, settings, notebooks };
}

export type ImportResult = { ok: true; settings: Settings; notebooks: NotebookRecord[] } | Failed;
type Failed = { ok: false; why: Why };

/** Why the settings' patterns are refused, or null: the first refused pattern, by the pattern engine's rules. */
export type PatternCheck = (settings: {
  failurePatterns: readonly string[];
  markerPatterns: readonly string[];
}) => Why | null;

/** The pattern engine's check (`refusedPattern` in detector/patterns.ts, which only the service worker loads). */
export function checkingPatterns(
  refused: (settings: Parameters<PatternCheck>[0]) => { path: string; refusal: Refusal } | null,
): PatternCheck {
  return (settings) => {
    const found = refused(settings);
    return found && { kind: 'pattern-refused', path: `settings.${found.path}`, refusal: found.refusal };
  };
}

/**
 * Strict, unlike reads from storage: a file with any invalid field is refused as a whole, so a bad import changes
 * nothing. Files from older versions go through the same migrations as stored records. `checkPatterns` is passed in
 * by the service worker, so that pages, which read storage through the same modules, never load the engine; without
 * it a file with patterns cannot be checked, and is refused.
 */
export function parseImport(text: string, checkPatterns: PatternCheck = uncheckable): ImportResult {
  const json = parseJson(text);
  if (!json.ok) return json;
  const file = json.value;
  if (!isObject(file) || file.format !== EXPORT_FORMAT) {
    return fail({ kind: 'not-an-export' });
  }
  const versionProblem = checkVersion(file.version);
  if (versionProblem) return fail(versionProblem);
  if (!Array.isArray(file.notebooks)) return fail({ kind: 'expected-list', path: 'notebooks' });
  if (file.notebooks.length > IMPORT_MAX_NOTEBOOKS) {
    return fail({ kind: 'too-many-notebooks', count: file.notebooks.length, max: IMPORT_MAX_NOTEBOOKS });
  }

  const settings = parseWithMigration('settings', file.settings, SettingsSchema, 'settings');
  if (!settings.ok) return settings;
  const refused = checkPatterns(settings.value);
  if (refused) return fail(refused);
  const notebooks: NotebookRecord[] = [];
  for (const [index, raw] of file.notebooks.entries()) {
    const record = parseWithMigration('notebook', raw, NotebookRecordSchema, `notebooks.${index}`);
    if (!record.ok) return record;
    // A scratch notebook belongs to a tab of the browser that had it (exports leave them out): nothing to import.
    if (isScratchKey(record.value.key)) continue;
    if (notebooks.some((n) => n.key === record.value.key)) {
      return fail({ kind: 'duplicate-key', path: `notebooks.${index}.key`, key: record.value.key });
    }
    notebooks.push(withoutTransientStatus(record.value));
  }
  return { ok: true, settings: settings.value, notebooks };
}

/** The one place where imported patterns are checked: by the same rules as patterns typed in the options page. */

function parseJson(text: string): { ok: true; value: unknown } | Failed {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return fail({ kind: 'not-json', detail: error instanceof Error ? error.message : String(error) });
  }
}

/** `found`: the version field as the file spells it (JSON), empty when there is none. */
function checkVersion(version: unknown): Why | null {
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 0) {
    return { kind: 'no-version', found: JSON.stringify(version) ?? '' };
  }
  if (version > CURRENT_VERSION) return { kind: 'export-newer', version, current: CURRENT_VERSION };
  return null;
}

/** Older files stored each record in its own older shape; the file's `version` is informative, each `v` decides. */
function parseWithMigration<T>(
  kind: RecordKind,
  raw: unknown,
  schema: v.GenericSchema<unknown, T>,
  path: string,
): { ok: true; value: T } | Failed {
  if (!isObject(raw)) return fail({ kind: 'expected-object', path });
  const result = migrateAndParse(kind, raw, schema);
  if (result.ok) return result;
  switch (result.reason) {
    case 'newer':
      return fail({ kind: 'newer-record', path: `${path}.v`, version: result.version });
    case 'invalid':
      return fail({ kind: 'invalid-field', path: `${path}.v`, detail: result.message });
    case 'fields': {
      const [issue] = result.issues;
      const inner = v.getDotPath(issue);
      return fail({ kind: 'invalid-field', path: inner ? `${path}.${inner}` : path, detail: issue.message });
    }
  }
}

/** A countdown or restart in progress belongs to tabs of the browser that exported it; here it would never finish. */
function withoutTransientStatus(record: NotebookRecord): NotebookRecord {
  const { kind } = record.status;
  return kind === 'pending' || kind === 'restarting' ? { ...record, status: { kind: 'watching' } } : record;
}

function uncheckable(settings: Parameters<PatternCheck>[0]): ReturnType<PatternCheck> {
  const patterns = settings.failurePatterns.length + settings.markerPatterns.length;
  return patterns > 0 ? { kind: 'patterns-unchecked' } : null;
}

function fail(why: Why): Failed {
  return { ok: false, why };
}

/**
 * One notebook's export, to keep or share its history: the whole export's shape with that notebook alone (and the
 * settings it ran under), so the same import reads it back.
 */
export function exportNotebook(settings: Settings, record: NotebookRecord, now: number = Date.now()): ExportFile {
  return exportData(settings, [record], now);
}

/** "colab-oom-guard-train-resnet-2026-11-28.json": the notebook's name as a file name can hold it, then the day. */
export function exportFileName(name: string, exportedAt: string): string {
  const slug = name
    .normalize('NFKD')
    // Accents split off by NFKD go: "Übung" is "ubung", not "u-bung".
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/\.ipynb$/, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return `colab-oom-guard-${slug || 'notebook'}-${exportedAt.slice(0, 10)}.json`;
}
