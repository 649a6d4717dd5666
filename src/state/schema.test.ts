import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { CURRENT_VERSION, migrate } from './migrations';
import {
  defaultNotebook,
  defaultSettings,
  type NotebookRecord,
  NotebookRecordSchema,
  parseNotebook,
  parseProblems,
  parseSettings,
  parseStorageErrors,
  SettingsSchema,
} from './schema';

/** README: "the last 200 events per notebook". */
const HISTORY_LIMIT = 200;

const KEY = 'drive:1AbCdEfGhIjKlMnOpQrStUvWxYz012345';

function storedRecord(overrides: Partial<NotebookRecord> = {}): NotebookRecord {
  return {
    ...defaultNotebook(KEY),
    title: 'train.ipynb',
    enabled: true,
    loopCount: 2,
    totalRestarts: 9,
    lastRestartAt: 1_700_000_000_000,
    history: [{ at: 1_700_000_000_000, type: 'restarted', detail: 'Restart 2 of 3' }],
    ...overrides,
  };
}

describe('defaults', () => {
  it('has the documented settings', () => {
    expect(defaultSettings()).toEqual({
      v: CURRENT_VERSION,
      maxRestarts: 3,
      backoffBaseSec: 5,
      backoffMaxSec: 300,
      healthyMinutes: 30,
      markerDailyLimit: 100,
      categories: {
        'gpu-oom': true,
        'tf-oom': true,
        'jax-oom': true,
        'host-ram': true,
        'colab-crash': true,
        'colab-crash-unknown': false,
        'gpu-fault': false,
      },
      reconnectOnDisconnect: false,
      failurePatterns: [],
      markerPatterns: [],
      notifications: false,
      statusApi: true,
      guardNeverEnds: false,
      askAtKeyboard: true,
      keepAwake: true,
    });
  });

  it('starts a notebook switched off and watching', () => {
    expect(defaultNotebook(KEY)).toEqual({
      v: CURRENT_VERSION,
      key: KEY,
      title: '',
      enabled: false,
      overrides: {},
      status: { kind: 'watching' },
      loopCount: 0,
      totalRestarts: 0,
      markerDay: '',
      markerCount: 0,
      history: [],
    });
  });

  it('gives fresh objects each time', () => {
    const a = defaultSettings();
    a.failurePatterns.push('x');
    a.categories['gpu-oom'] = false;
    expect(defaultSettings().failurePatterns).toEqual([]);
    expect(defaultSettings().categories['gpu-oom']).toBe(true);
    const n = defaultNotebook(KEY);
    n.history.push({ at: 1, type: 'enabled' });
    expect(defaultNotebook(KEY).history).toEqual([]);
  });
});

describe('parseSettings', () => {
  it('returns defaults without a problem when nothing is stored', () => {
    expect(parseSettings(undefined)).toEqual({ value: defaultSettings() });
  });

  it('reads a valid record unchanged', () => {
    const stored = { ...defaultSettings(), maxRestarts: 7, failurePatterns: ['Killed'] };
    expect(parseSettings(stored)).toEqual({ value: stored });
  });

  it('fills fields missing from an older or partial record with defaults, silently', () => {
    expect(parseSettings({ v: 1, maxRestarts: 5 })).toEqual({ value: { ...defaultSettings(), maxRestarts: 5 } });
  });

  it('keeps valid fields and resets invalid ones, naming them', () => {
    const result = parseSettings({
      ...defaultSettings(),
      maxRestarts: 'three',
      healthyMinutes: 45,
      backoffBaseSec: -1,
    });
    expect(result.value).toEqual({ ...defaultSettings(), healthyMinutes: 45 });
    expect(result.problem).toMatch(/maxRestarts/);
    expect(result.problem).toMatch(/backoffBaseSec/);
    expect(result.problem).not.toMatch(/healthyMinutes/);
  });

  it('refuses a back-off maximum below the base', () => {
    expect(v.safeParse(SettingsSchema, { ...defaultSettings(), backoffBaseSec: 60, backoffMaxSec: 30 }).success).toBe(
      false,
    );
    const result = parseSettings({ ...defaultSettings(), backoffBaseSec: 60, backoffMaxSec: 30 });
    expect(result.value).toEqual(defaultSettings());
    expect(result.problem).toMatch(/backoffMaxSec/);
  });

  it.each([['{"v":1,"maxRestarts":'], [42], [[1, 2]], [true]])('falls back to defaults for a non-record %j', (raw) => {
    const result = parseSettings(raw);
    expect(result.value).toEqual(defaultSettings());
    expect(result.problem).toMatch(/not a record/);
  });

  it('migrates v0 settings', () => {
    const v0 = {
      maxRetries: 4,
      backoffSeconds: 10,
      backoffCapSeconds: 120,
      resetAfterMinutes: 60,
      patterns: ['Killed'],
      crashToast: false,
    };
    expect(parseSettings(v0)).toEqual({
      value: {
        ...defaultSettings(),
        maxRestarts: 4,
        backoffBaseSec: 10,
        backoffMaxSec: 120,
        healthyMinutes: 60,
        failurePatterns: ['Killed'],
        categories: { ...defaultSettings().categories, 'colab-crash': false },
      },
    });
  });

  it('migrates v1 settings: the crash-notice switch becomes the RAM-crash category', () => {
    const v1 = { v: 1, maxRestarts: 5, crashToast: false, categories: { 'gpu-fault': true } };
    expect(parseSettings(v1)).toEqual({
      value: {
        ...defaultSettings(),
        maxRestarts: 5,
        categories: { ...defaultSettings().categories, 'gpu-fault': true, 'colab-crash': false },
      },
    });
    const kept = parseSettings({ v: 1, crashToast: true }).value;
    expect(kept.categories).toEqual(defaultSettings().categories);
    expect(kept).not.toHaveProperty('crashToast');
  });

  it('reads settings from a newer version read-only', () => {
    const result = parseSettings({ ...defaultSettings(), v: CURRENT_VERSION + 1, maxRestarts: 6, newThing: { a: 1 } });
    expect(result.readOnly).toBe(true);
    expect(result.value.maxRestarts).toBe(6);
    expect(result.problem).toMatch(new RegExp(`newer version \\(v${CURRENT_VERSION + 1}\\)`));
  });
});

describe('parseNotebook', () => {
  it('returns defaults for a notebook never seen', () => {
    expect(parseNotebook(KEY, undefined)).toEqual({ value: defaultNotebook(KEY) });
  });

  it('reads a valid record unchanged', () => {
    expect(parseNotebook(KEY, storedRecord())).toEqual({ value: storedRecord() });
  });

  it('takes the key from storage, not from the record', () => {
    expect(parseNotebook(KEY, { ...storedRecord(), key: 'drive:other' }).value.key).toBe(KEY);
  });

  it('reads every status kind', () => {
    const verdict = {
      category: 'gpu-oom' as const,
      rule: 'torch-cuda-oom',
      description: 'CUDA out of memory',
      line: 'torch.OutOfMemoryError',
    };
    const statuses: NotebookRecord['status'][] = [
      { kind: 'watching' },
      {
        kind: 'pending',
        reason: 'failure',
        action: 'restart-and-run-all',
        restartAt: 5,
        attempt: 'a1',
        ownerTab: 3,
        detectedAt: 1,
        verdict,
      },
      { kind: 'restarting', reason: 'crash', action: 'run-all', attempt: 'a1', ownerTab: 3, startedAt: 6 },
      { kind: 'gave-up', at: 7, restarts: 3 },
      {
        kind: 'ui-problem',
        at: 8,
        failed: { step: 'open-menu', reason: 'menubar-missing', saw: 'Runtime menu not found' },
      },
    ];
    for (const status of statuses)
      expect(parseNotebook(KEY, storedRecord({ status }))).toEqual({ value: storedRecord({ status }) });
  });

  it('reads a title stored with control or bidirectional characters without them', () => {
    expect(parseNotebook(KEY, { ...storedRecord(), title: '\u202Egnp\u0000.ipynb' })).toEqual({
      value: { ...storedRecord(), title: 'gnp.ipynb' },
    });
  });

  it('treats a key with a bidirectional override as no notebook key', () => {
    expect(parseNotebook('drive:a\u202Eb', storedRecord())).toMatchObject({
      problem: expect.stringMatching(/invalid/),
    });
  });

  it('salvages the fields that validate and reports the others', () => {
    const result = parseNotebook(KEY, { ...storedRecord(), loopCount: -3, status: { kind: 'exploded' } });
    expect(result.value).toEqual({ ...storedRecord(), loopCount: 0, status: { kind: 'watching' } });
    expect(result.problem).toMatch(/loopCount/);
    expect(result.problem).toMatch(/status/);
  });

  it('drops only the invalid history entries', () => {
    const good = { at: 5, type: 'cancelled' as const };
    const result = parseNotebook(KEY, {
      ...storedRecord(),
      history: [good, { at: 'yesterday', type: 'cancelled' }, { at: 6, type: 'exploded' }],
    });
    expect(result.value.history).toEqual([good]);
    expect(result.problem).toMatch(/dropped 2 invalid entries/);
  });

  it('keeps only the newest entries of an over-long history', () => {
    const history = Array.from({ length: HISTORY_LIMIT + 5 }, (_, i) => ({ at: i, type: 'cancelled' as const }));
    const result = parseNotebook(KEY, { ...storedRecord(), history });
    expect(result.value.history).toHaveLength(HISTORY_LIMIT);
    expect(result.value.history[0]?.at).toBe(5);
    expect(result.problem).toMatch(/history \(kept the newest 200 of 205 entries\)/);
  });

  it.each([['{"v":1,"key":"drive:'], [null], [0], [['a']]])('never throws on %j', (raw) => {
    const result = parseNotebook(KEY, raw);
    expect(result.value).toEqual(defaultNotebook(KEY));
  });

  it.each([
    ['a control character', 'github:\nowner/r/main/nb'],
    ['an over-long key', `url:${'x'.repeat(2100)}`],
    ['an unknown kind', 'elsewhere:nb'],
  ])('reads a record under an invalid key (%s) as defaults and reports it, without throwing', (_, key) => {
    expect(parseNotebook(key, undefined)).toEqual({ value: defaultNotebook(key) });
    const result = parseNotebook(key, storedRecord());
    expect(result.value).toEqual(defaultNotebook(key));
    expect(result.problem).toMatch(/invalid notebook key/);
  });

  it('reports an unreadable version', () => {
    const result = parseNotebook(KEY, { ...storedRecord(), v: 'one' });
    expect(result.value).toEqual(defaultNotebook(KEY));
    expect(result.problem).toMatch(/unreadable version "one"/);
  });

  it('reports `v: null` as an unreadable version instead of migrating the record as v0', () => {
    const result = parseNotebook(KEY, { ...storedRecord(), v: null });
    expect(result.value).toEqual(defaultNotebook(KEY));
    expect(result.problem).toMatch(/unreadable version null/);
  });

  it('reads a record from a newer version read-only, keeping what it understands', () => {
    const newer = { ...storedRecord(), v: CURRENT_VERSION + 1, status: { kind: 'hibernating' }, shinyNewField: [1] };
    const result = parseNotebook(KEY, newer);
    expect(result.readOnly).toBe(true);
    expect(result.problem).toMatch(/newer version/);
    expect(result.value).toEqual({ ...storedRecord(), status: { kind: 'watching' } });
  });
});

describe('migrations', () => {
  const v0Record = {
    key: KEY,
    name: 'train.ipynb',
    active: true,
    maxRestarts: 5,
    state: 'idle',
    restarts: 2,
    lifetimeRestarts: 11,
    lastRestart: 1_700_000_000_000,
    markersToday: { day: '2024-11-14', count: 4 },
    log: [
      { t: 1_699_999_000_000, what: 'detect', text: 'CUDA out of memory' },
      { t: 1_700_000_000_000, what: 'restart', text: 'restarted (2/5)' },
      { t: 1_700_000_100_000, what: 'cancel' },
      'garbage',
    ],
  };

  it('brings a v0 pre-release notebook record to the current shape without losing counters', () => {
    expect(parseNotebook(KEY, v0Record)).toEqual({
      value: {
        v: CURRENT_VERSION,
        key: KEY,
        title: 'train.ipynb',
        enabled: true,
        overrides: { maxRestarts: 5 },
        status: { kind: 'watching' },
        loopCount: 2,
        totalRestarts: 11,
        markerDay: '2024-11-14',
        markerCount: 4,
        lastRestartAt: 1_700_000_000_000,
        history: [
          { at: 1_700_000_000_000, type: 'restarted', detail: 'restarted (2/5)' },
          { at: 1_700_000_100_000, type: 'cancelled' },
        ],
      },
    });
  });

  it('keeps a v0 "stopped" notebook stopped', () => {
    const status = parseNotebook(KEY, { ...v0Record, state: 'stopped', restarts: 5 }).value.status;
    expect(status).toEqual({ kind: 'gave-up', at: 1_700_000_000_000, restarts: 5 });
  });

  it('migrates a minimal v0 record', () => {
    expect(parseNotebook(KEY, { restarts: 1 })).toEqual({
      value: { ...defaultNotebook(KEY), loopCount: 1, totalRestarts: 1 },
    });
  });

  it('keeps the newest entries of a v0 log longer than the history, silently', () => {
    const log = Array.from({ length: HISTORY_LIMIT + 50 }, (_, i) => ({ t: i, what: 'cancel' }));
    const result = parseNotebook(KEY, { ...v0Record, log });
    expect(result.problem).toBeUndefined();
    expect(result.value.history).toHaveLength(HISTORY_LIMIT);
    expect(result.value.history[0]?.at).toBe(50);
  });

  it('produces records that pass the current schema', () => {
    const migrated = migrate('notebook', v0Record);
    expect(migrated.ok && v.is(NotebookRecordSchema, migrated.value)).toBe(true);
  });

  it('reports which version it migrated from, and leaves current records alone', () => {
    expect(migrate('notebook', v0Record)).toMatchObject({ ok: true, from: 0 });
    const current = storedRecord();
    expect(migrate('notebook', current)).toEqual({ ok: true, from: CURRENT_VERSION, value: current });
  });

  it('v2 records read as they were: v3 only added the history type "left-to-person"', () => {
    const v2 = { ...storedRecord(), v: 2 };
    expect(parseNotebook(KEY, v2)).toEqual({ value: storedRecord() });
    expect(parseSettings({ v: 2, maxRestarts: 6 })).toEqual({ value: { ...defaultSettings(), maxRestarts: 6 } });
    const left = { at: 1_700_000_100_000, type: 'left-to-person' as const, detail: 'dialog-open: drive-permission' };
    expect(parseNotebook(KEY, storedRecord({ history: [left] })).value.history).toEqual([left]);
  });

  it('v3 failed steps, kept as text, read as data with nothing lost', () => {
    const at = 1_700_000_200_000;
    const scheduled = { at: at - 5000, type: 'restart-scheduled' as const, action: 'restart-and-run-all' as const };
    const v3 = {
      ...storedRecord(),
      v: 3,
      status: {
        kind: 'ui-problem',
        at,
        step: 'open-menu',
        detail: 'header-collapsed; toolbar fallback: toolbar-missing; saw: no menu bar',
      },
      history: [
        scheduled,
        {
          at: at - 3000,
          type: 'restart-failed',
          detail: 'precheck: dialog-open: usage-limit; saw: You cannot currently connect',
        },
        { at: at - 2000, type: 'restart-failed', detail: 'exception: TypeError: menu is null' },
        { at: at - 1000, type: 'restart-failed', detail: 'a-step-from-before: it saw this' },
        { at, type: 'restart-failed', detail: 'verify: no-run-started (dialog: confirmed); saw: 1 cells' },
      ],
    };
    const { value, problem } = parseNotebook(KEY, v3);
    expect(problem).toBeUndefined();
    expect(value.status).toEqual({
      kind: 'ui-problem',
      at,
      failed: {
        step: 'open-menu',
        reason: 'header-collapsed',
        saw: 'toolbar fallback: toolbar-missing; saw: no menu bar',
      },
    });
    expect(value.history).toEqual([
      scheduled,
      {
        at: at - 3000,
        type: 'restart-failed',
        failed: { step: 'precheck', reason: 'usage-limit', saw: 'You cannot currently connect' },
      },
      {
        at: at - 2000,
        type: 'restart-failed',
        failed: { step: 'exception', reason: '', saw: 'TypeError: menu is null' },
      },
      // Not a step this version knows: kept as it was written.
      { at: at - 1000, type: 'restart-failed', detail: 'a-step-from-before: it saw this' },
      {
        at,
        type: 'restart-failed',
        failed: { step: 'verify', reason: 'no-run-started', saw: '(dialog: confirmed); saw: 1 cells' },
      },
    ]);
    const unknown = { ...v3, status: { kind: 'ui-problem', at, step: 'a-step-from-before', detail: 'x'.repeat(1000) } };
    expect(parseNotebook(KEY, unknown).value.status).toEqual({
      kind: 'ui-problem',
      at,
      failed: { step: 'unknown', reason: 'a-step-from-before', saw: 'x'.repeat(1000) },
    });
  });

  it('refuses versions it cannot read', () => {
    expect(migrate('settings', { v: 99 })).toEqual({ ok: false, reason: 'newer', version: 99 });
    expect(migrate('settings', { v: -1 })).toMatchObject({ ok: false, reason: 'invalid' });
    expect(migrate('settings', { v: 0.5 })).toMatchObject({ ok: false, reason: 'invalid' });
    expect(migrate('settings', { v: null })).toEqual({
      ok: false,
      reason: 'invalid',
      message: 'unreadable version null',
    });
  });
});

describe('parseProblems', () => {
  it('reads a valid list and drops anything else', () => {
    const problems = [{ at: 1, key: 'nb:drive:x', message: 'bad' }];
    expect(parseProblems(problems)).toEqual(problems);
    expect(parseProblems('nope')).toEqual([]);
    expect(parseProblems(undefined)).toEqual([]);
  });

  it('keeps the valid entries of a list with a damaged one', () => {
    const good = { at: 1, key: 'nb:drive:x', message: 'bad' };
    expect(parseProblems([good, { at: 'noon' }, null, { ...good, at: 2 }])).toEqual([good, { ...good, at: 2 }]);
  });
});

describe('the settings README allows (its Settings table): each bound taken, one step beyond refused', () => {
  // The countdowns' order aside (its own test below): the first as short, the longest as long as allowed.
  const loose = { ...defaultSettings(), backoffBaseSec: 1, backoffMaxSec: 86_400 };
  const valid = (patch: Record<string, unknown>) => v.is(SettingsSchema, { ...loose, ...patch });

  it.each([
    ['maxRestarts', 0, 1000],
    ['backoffBaseSec', 1, 3600],
    ['backoffMaxSec', 1, 86_400],
    ['healthyMinutes', 1, 10_080],
    ['markerDailyLimit', 0, 10_000],
  ])('%s: %i to %i, whole numbers', (name, min, max) => {
    expect(valid({ [name]: min })).toBe(true);
    expect(valid({ [name]: max })).toBe(true);
    expect(valid({ [name]: min - 1 })).toBe(false);
    expect(valid({ [name]: max + 1 })).toBe(false);
    expect(valid({ [name]: min + 0.5 })).toBe(false);
  });

  it('the longest countdown not below the first', () => {
    expect(valid({ backoffBaseSec: 60, backoffMaxSec: 60 })).toBe(true);
    expect(valid({ backoffBaseSec: 60, backoffMaxSec: 59 })).toBe(false);
    expect(valid({ backoffBaseSec: 1, backoffMaxSec: 1 })).toBe(true);
  });

  it('up to 100 patterns of each kind, 500 characters each', () => {
    const many = (n: number, chars = 10) => Array.from({ length: n }, (_, i) => `${i}`.padEnd(chars, 'x'));
    for (const kind of ['failurePatterns', 'markerPatterns']) {
      expect(valid({ [kind]: many(100, 500) })).toBe(true);
      expect(valid({ [kind]: many(101) })).toBe(false);
      expect(valid({ [kind]: many(1, 501) })).toBe(false);
    }
  });
});

describe('what a damaged record is reported as', () => {
  it('nothing stored, as undefined or null, is no problem', () => {
    expect(parseSettings(null)).toEqual({ value: defaultSettings() });
    expect(parseNotebook('not a key', null)).toEqual({ value: defaultNotebook('not a key') });
  });

  it('says what was stored instead of a record, quoting at most 60 characters of a string', () => {
    expect(parseSettings([1]).problem).toBe('not a record (an array); using defaults');
    expect(parseSettings(true).problem).toBe('not a record (a boolean); using defaults');
    expect(parseSettings('x'.repeat(100)).problem).toBe(`not a record (a string: "${'x'.repeat(60)}"); using defaults`);
  });

  it('names each field reset, and only those: no note for a history kept whole', () => {
    const settings = parseSettings({ ...defaultSettings(), maxRestarts: -1, notifications: 'yes' });
    expect(settings.problem).toMatch(
      /^invalid fields reset to defaults: maxRestarts \([^;]+\); notifications \([^;]+\)$/,
    );
    const full = Array.from({ length: 200 }, (_, i) => ({ at: 1_700_000_000_000 + i, type: 'enabled' as const }));
    const notebook = parseNotebook(KEY, { ...storedRecord(), history: full, loopCount: -1 });
    expect(notebook.problem).toMatch(/^invalid fields reset to defaults: loopCount \([^;]+\)$/);
    expect(notebook.value.history).toHaveLength(200);
    const noHistory = parseNotebook(KEY, { ...storedRecord(), history: 'lost', loopCount: -1 });
    expect(noHistory.problem).toMatch(/^invalid fields reset to defaults: loopCount \([^;]+\); history \([^;]+\)$/);
  });

  it("keeps the valid entries of the browser's list of refused writes", () => {
    const good = { at: 1, message: 'full', lost: 'nb:drive:x' };
    expect(parseStorageErrors([good, { at: 'noon' }, null])).toEqual([good]);
    expect(parseStorageErrors('nope')).toEqual([]);
  });
});
