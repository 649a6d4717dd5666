import { describe, expect, it } from 'vitest';
import { refusedPattern } from '../detector/patterns';
import { CURRENT_VERSION } from './migrations';
import { defaultNotebook, defaultSettings, type NotebookRecord } from './schema';
import { checkingPatterns, EXPORT_FORMAT, exportData, parseImport } from './transfer';

/** README: an import holds "at most 20 MB and 1000 notebooks". */
const IMPORT_MAX_NOTEBOOKS = 1000;

const verdict = {
  category: 'gpu-oom' as const,
  rule: 'torch-cuda-oom',
  description: 'CUDA out of memory',
  line: 'OutOfMemoryError',
};

function records(): NotebookRecord[] {
  return [
    { ...defaultNotebook('github:o/r/main/nb'), enabled: true, totalRestarts: 4 },
    {
      ...defaultNotebook('drive:abc'),
      title: 'train',
      overrides: { maxRestarts: 6 },
      history: [
        { at: 10, type: 'restart-scheduled', verdict, action: 'restart-and-run-all', detail: 'Restart 1 of 6 in 5 s' },
      ],
    },
  ];
}

function exported(): string {
  return JSON.stringify(exportData({ ...defaultSettings(), maxRestarts: 5 }, records(), Date.UTC(2025, 0, 2, 3, 4, 5)));
}

describe('exportData', () => {
  it('writes a tagged, versioned, JSON-serialisable file with the notebooks sorted by key', () => {
    const file = exportData(defaultSettings(), records(), Date.UTC(2025, 0, 2, 3, 4, 5));
    expect(file).toMatchObject({
      format: EXPORT_FORMAT,
      version: CURRENT_VERSION,
      exportedAt: '2025-01-02T03:04:05.000Z',
    });
    expect(file.notebooks.map((n) => n.key)).toEqual(['drive:abc', 'github:o/r/main/nb']);
    expect(JSON.parse(JSON.stringify(file))).toEqual(file);
  });

  it('leaves out scratch notebooks: each lived in one tab of this browser', () => {
    const scratch = { ...defaultNotebook('scratch:3-abc'), enabled: true };
    const file = exportData(defaultSettings(), [...records(), scratch]);
    expect(file.notebooks.map((n) => n.key)).toEqual(['drive:abc', 'github:o/r/main/nb']);
  });
});

describe('parseImport', () => {
  it('round-trips an export', () => {
    const result = parseImport(exported());
    expect(result).toEqual({
      ok: true,
      settings: { ...defaultSettings(), maxRestarts: 5 },
      notebooks: [records()[1], records()[0]],
    });
  });

  it('skips scratch notebooks in a file (exports leave them out): their tabs are elsewhere', () => {
    const file = JSON.parse(exported());
    file.notebooks.push({ ...defaultNotebook('scratch:3-abc'), enabled: true });
    const result = parseImport(JSON.stringify(file));
    expect(result.ok && result.notebooks.map((n) => n.key)).toEqual(['drive:abc', 'github:o/r/main/nb']);
  });

  it('drops countdowns and restarts in progress, which belonged to the exporting browser', () => {
    const file = JSON.parse(exported());
    file.notebooks[0].status = {
      kind: 'pending',
      reason: 'failure',
      action: 'restart-and-run-all',
      restartAt: 5,
      attempt: 'a',
      ownerTab: 1,
      detectedAt: 1,
      verdict,
    };
    file.notebooks[1].status = { kind: 'gave-up', at: 3, restarts: 3 };
    const result = parseImport(JSON.stringify(file));
    expect(result.ok && result.notebooks.map((n) => n.status.kind)).toEqual(['watching', 'gave-up']);
  });

  it('removes control and bidirectional characters from titles', () => {
    const text = exported().replace('"title":"train"', '"title":"\\u202etrain\\u0007"');
    expect(text).toContain('\\u202etrain');
    const result = parseImport(text);
    expect(result.ok && result.notebooks.find((n) => n.key === 'drive:abc')?.title).toBe('train');
  });

  it('imports an export from the v0 pre-release through the migrations', () => {
    const v0 = {
      format: EXPORT_FORMAT,
      version: 0,
      settings: { maxRetries: 2 },
      notebooks: [{ key: 'drive:abc', active: true, restarts: 1 }],
    };
    const result = parseImport(JSON.stringify(v0));
    expect(result).toEqual({
      ok: true,
      settings: { ...defaultSettings(), maxRestarts: 2 },
      notebooks: [{ ...defaultNotebook('drive:abc'), enabled: true, loopCount: 1, totalRestarts: 1 }],
    });
  });

  it('refuses a pattern the options page would refuse, naming it and saying why', () => {
    const file = JSON.parse(exported());
    file.settings.markerPatterns = ['^RESTART$', '^(?=.*done)restart'];
    const result = parseImport(JSON.stringify(file), checkingPatterns(refusedPattern));
    expect(!result.ok && result.why).toEqual({
      kind: 'pattern-refused',
      path: 'settings.markerPatterns.1',
      refusal: { key: 'patternLookahead', subs: expect.any(Array) },
    });
    file.settings.markerPatterns = ['^RESTART$', '(a|aa)+$'];
    expect(parseImport(JSON.stringify(file), checkingPatterns(refusedPattern)).ok).toBe(true);
    // Without the engine (pages do not load it) patterns cannot be checked: refused, never taken unchecked.
    expect(parseImport(JSON.stringify(file))).toEqual({ ok: false, why: { kind: 'patterns-unchecked' } });
  });

  // biome-ignore lint/suspicious/noExplicitAny: each case damages the parsed export file in its own way
  function withFile(edit: (file: Record<string, any>) => void): string {
    const file = JSON.parse(exported());
    edit(file);
    return JSON.stringify(file);
  }

  const field = (path: string, detail: RegExp) => ({
    kind: 'invalid-field',
    path,
    detail: expect.stringMatching(detail),
  });
  it.each<[string, string, Record<string, unknown>]>([
    ['not JSON', '{"format": "colab-oom-guard", ', { kind: 'not-json', detail: expect.any(String) }],
    ['empty', '', { kind: 'not-json', detail: expect.any(String) }],
    ['JSON but not an object', '[1,2,3]', { kind: 'not-an-export' }],
    ['another format', withFile((f) => (f.format = 'something-else')), { kind: 'not-an-export' }],
    ['no version', withFile((f) => delete f.version), { kind: 'no-version', found: '' }],
    ['a text version', withFile((f) => (f.version = '1')), { kind: 'no-version', found: '"1"' }],
    [
      'a newer version',
      withFile((f) => (f.version = CURRENT_VERSION + 1)),
      { kind: 'export-newer', version: CURRENT_VERSION + 1, current: CURRENT_VERSION },
    ],
    ['no notebook list', withFile((f) => (f.notebooks = {})), { kind: 'expected-list', path: 'notebooks' }],
    ['bad setting', withFile((f) => (f.settings.maxRestarts = 'x')), field('settings.maxRestarts', /^Invalid type/)],
    [
      'bad back-off pair',
      withFile((f) => (f.settings.backoffMaxSec = 1)),
      field('settings.backoffMaxSec', /^The longest back-off/),
    ],
    ['settings missing', withFile((f) => delete f.settings), { kind: 'expected-object', path: 'settings' }],
    [
      'bad nested field',
      withFile((f) => (f.notebooks[0].history[0].at = 'noon')),
      field('notebooks.0.history.0.at', /^Invalid type/),
    ],
    ['bad key', withFile((f) => (f.notebooks[1].key = 'nope')), field('notebooks.1.key', /^Invalid notebook key/)],
    [
      'duplicate key',
      withFile((f) => (f.notebooks[1].key = f.notebooks[0].key)),
      { kind: 'duplicate-key', path: 'notebooks.1.key', key: 'drive:abc' },
    ],
    [
      'newer record',
      withFile((f) => (f.notebooks[0].v = 9)),
      { kind: 'newer-record', path: 'notebooks.0.v', version: 9 },
    ],
    [
      'a key with a bidirectional override',
      withFile((f) => (f.notebooks[1].key = 'drive:abc\u202Edef')),
      field('notebooks.1.key', /^A notebook key must not contain control or bidirectional characters/),
    ],
    [
      'more notebooks than an import takes',
      withFile((f) => (f.notebooks = Array.from({ length: IMPORT_MAX_NOTEBOOKS + 1 }, () => ({})))),
      { kind: 'too-many-notebooks', count: 1001, max: 1000 },
    ],
  ])('refuses %s, saying why', (_name, text, why) => {
    const result = parseImport(text);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.why).toEqual(why);
  });
});

describe('imports at their edges', () => {
  const file = () => JSON.parse(exported()) as { version: unknown; notebooks: Record<string, unknown>[] };
  const importing = (change: (f: ReturnType<typeof file>) => void) => {
    const f = file();
    change(f);
    return parseImport(JSON.stringify(f));
  };

  it('takes a file of exactly 1000 notebooks', () => {
    const result = importing((f) => {
      f.notebooks = Array.from({ length: 1000 }, (_, i) => ({ ...f.notebooks[1], key: `drive:n${i}` }));
    });
    expect(result).toMatchObject({ ok: true });
  });

  it('refuses a version that is below zero or no whole number', () => {
    for (const version of [-1, 2.5]) {
      expect(importing((f) => (f.version = version))).toEqual({
        ok: false,
        why: { kind: 'no-version', found: String(version) },
      });
    }
  });

  it('names a notebook whose version cannot be read, and never carries a restart under way into this browser', () => {
    expect(importing((f) => (f.notebooks[0] = { ...f.notebooks[0], v: -1 }))).toEqual({
      ok: false,
      why: { kind: 'invalid-field', path: 'notebooks.0.v', detail: 'unreadable version -1' },
    });
    const restarting = importing((f) => {
      f.notebooks[0] = {
        ...f.notebooks[0],
        status: {
          kind: 'restarting',
          reason: 'failure',
          action: 'restart-and-run-all',
          attempt: 'a',
          ownerTab: 1,
          startedAt: 10,
        },
      };
    });
    expect(restarting.ok && restarting.notebooks.map((n) => n.status)).toEqual([
      { kind: 'watching' },
      { kind: 'watching' },
    ]);
  });
});
