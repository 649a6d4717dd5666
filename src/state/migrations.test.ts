import { describe, expect, it } from 'vitest';
import { migrate } from './migrations';
import { parseNotebook, parseSettings } from './schema';

/**
 * Old records read by this version: nothing of what they hold is lost, and damage in them is left behind, never
 * carried over or thrown (docs/settings.md: stored data is typed and versioned; a corrupt record is kept and reported).
 */
const KEY = 'drive:1AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const AT = 1_700_000_000_000;

/** A v3 notebook record whose only history entry is `entry`, or whose status is `status`. */
const v3 = (extra: Record<string, unknown>) => ({
  v: 3,
  key: KEY,
  title: 't',
  enabled: true,
  overrides: {},
  status: { kind: 'watching' },
  loopCount: 0,
  totalRestarts: 0,
  history: [],
  ...extra,
});
const failedEntry = (detail: unknown) => ({ at: AT, type: 'restart-failed', detail });
const migratedHistory = (history: unknown[]) => {
  const result = migrate('notebook', v3({ history }));
  if (!result.ok) throw new Error(`not migrated: ${JSON.stringify(result)}`);
  return result.value.history;
};
const failedOf = (detail: string) => (migratedHistory([failedEntry(detail)]) as { failed?: unknown }[])[0]?.failed;

describe('the first version (v0) of a notebook record', () => {
  it('keeps the log entries it understands and drops damaged ones', () => {
    const log = [null, 'garbage', { t: 1 }, { t: 2, what: ['restart'] }, { t: 3, what: 'restart', text: 42 }];
    const { value, problem } = parseNotebook(KEY, { key: KEY, active: true, log });
    expect(problem).toBeUndefined();
    expect(value.history).toEqual([{ at: 3, type: 'restarted' }]);
  });

  it('a limit that is no number is no limit of its own; damaged marker counts start from zero', () => {
    const { value, problem } = parseNotebook(KEY, { key: KEY, active: true, maxRestarts: '5', markersToday: null });
    expect(problem).toBeUndefined();
    expect(value.overrides).toEqual({});
    expect(value).toMatchObject({ markerDay: '', markerCount: 0 });
  });
});

describe('a version 3 notebook record', () => {
  it('keeps a status other than a UI problem as it was, and reads one without its step as an unknown step', () => {
    const watching = migrate('notebook', v3({ status: { kind: 'watching' } }));
    expect(watching).toMatchObject({ ok: true, value: { status: { kind: 'watching' } } });
    expect(watching.ok && watching.value.status).toEqual({ kind: 'watching' });
    expect(migrate('notebook', v3({ status: undefined }))).toMatchObject({ ok: true });
    const bare = migrate('notebook', v3({ status: { kind: 'ui-problem', at: AT } }));
    expect(bare.ok && bare.value.status).toEqual({
      kind: 'ui-problem',
      at: AT,
      failed: { step: 'unknown', reason: '', saw: '' },
    });
  });

  it('leaves entries that are no failed step as text alone', () => {
    const kept = [
      null,
      { at: AT, type: 'restart-failed' },
      failedEntry(['verify: no-run-started']),
      { at: AT, type: 'cancelled', detail: 'verify: no-run-started' },
      failedEntry('Step 2 verify: no-run-started'),
    ];
    expect(migratedHistory(kept)).toEqual(kept);
  });

  it('reads a dialog a precheck met only in that form, keeping whatever else the text said', () => {
    expect(failedOf('precheck: dialog-open: usage-limit')).toEqual({
      step: 'precheck',
      reason: 'usage-limit',
      saw: '',
    });
    expect(failedOf('precheck: dialog-open: usage-limit (and more)')).toEqual({
      step: 'precheck',
      reason: 'dialog-open',
      saw: 'usage-limit (and more)',
    });
    expect(failedOf('precheck: no-notebook dialog-open: usage-limit')).toEqual({
      step: 'precheck',
      reason: 'no-notebook',
      saw: 'dialog-open: usage-limit',
    });
    expect(failedOf('open-menu: dialog-open: x; saw: y')).toEqual({
      step: 'open-menu',
      reason: 'dialog-open',
      saw: 'x; saw: y',
    });
  });

  it('drops only the separator between the reason and what was seen', () => {
    expect(failedOf('verify: no-run-started;1 cells')).toEqual({
      step: 'verify',
      reason: 'no-run-started',
      saw: '1 cells',
    });
  });
});

describe('version 4 records (before keep-awake and the tab-gone entry)', () => {
  const v4Settings = { v: 4, maxRestarts: 5, askAtKeyboard: false };

  it('keeps the computer awake for settings stored before the switch existed, and keeps every other setting', () => {
    const { value, problem } = parseSettings(v4Settings);
    expect(problem).toBeUndefined();
    expect(value).toMatchObject({ v: 5, maxRestarts: 5, askAtKeyboard: false, keepAwake: true });
  });

  it('keeps a notebook record whole, its history included', () => {
    const history = [{ at: AT, type: 'run-started' }];
    const { value, problem } = parseNotebook(KEY, { ...v3({ history }), v: 4 });
    expect(problem).toBeUndefined();
    expect(value).toMatchObject({ v: 5, key: KEY, title: 't', enabled: true, history });
  });

  it('reads the tab-gone entry of a v5 record', () => {
    const gone = { at: AT, type: 'tab-gone', params: { why: 'discarded' } };
    expect(parseNotebook(KEY, { ...v3({ history: [gone] }), v: 5 }).value.history).toEqual([gone]);
  });
});

describe('versions it cannot read, and a migration that fails', () => {
  it('says which version it could not read', () => {
    for (const v of [0.5, -1, '2']) {
      expect(migrate('notebook', v3({ v }))).toEqual({
        ok: false,
        reason: 'invalid',
        message: `unreadable version ${JSON.stringify(v)}`,
      });
    }
  });

  it('reports a migration that throws as an invalid record, saying where', () => {
    const damaged = {
      v: 3,
      get status(): unknown {
        throw new Error('unreadable');
      },
    };
    expect(migrate('notebook', damaged)).toEqual({
      ok: false,
      reason: 'invalid',
      message: 'migration from version 3 failed: Error: unreadable',
    });
  });
});
