import { fakeBrowser } from '@webext-core/fake-browser';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { englishWhy } from '../../test/support/why';
import { CURRENT_VERSION } from './migrations';
import { type PolicyContext, type PolicyEvent, reduce } from './policy';
import { defaultNotebook, defaultSettings, type NotebookRecord, PROBLEMS_LIMIT, TEXT_LIMITS } from './schema';
import {
  bytesOf,
  createNotebookWriter,
  loadAllNotebooks,
  loadNotebook,
  loadProblems,
  loadSettings,
  loadStorageErrors,
  ReadOnlyRecordError,
  StorageWriteError,
  watchNotebook,
  watchSettings,
  watchStorageErrors,
} from './store';
import { exportData } from './transfer';

/** README: history "each kept at most 90 days"; a notebook switched off "is removed after 90 days without activity". */
const RETENTION_MS = 90 * 24 * 60 * 60_000;

vi.mock('webextension-polyfill', async () => ({ default: (await import('@webext-core/fake-browser')).fakeBrowser }));

const KEY = 'drive:1AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const OTHER = 'github:o/r/main/nb';
const T0 = new Date(2025, 2, 10, 12, 0, 0).getTime();
const TAB = 7;

const storage = fakeBrowser.storage.local;
const verdict = {
  category: 'gpu-oom' as const,
  rule: 'torch-cuda-oom',
  description: 'CUDA out of memory',
  line: 'OutOfMemoryError',
};

const SESSION = 'session-1';
let attempts = 0;
function ctx(now = T0): PolicyContext {
  return { now, settings: defaultSettings(), session: SESSION, newAttemptId: () => `attempt-${++attempts}` };
}

function stored(key: string, overrides: Partial<NotebookRecord> = {}): NotebookRecord {
  return { ...defaultNotebook(key), enabled: true, title: key, ...overrides };
}

/** loadAllNotebooks gives no particular order. */
function byKey(records: NotebookRecord[]): NotebookRecord[] {
  return [...records].sort((a, b) => a.key.localeCompare(b.key));
}

async function dump(): Promise<Record<string, unknown>> {
  return storage.get(null);
}

beforeEach(() => {
  // reset() clears every fake storage area and removes all listeners.
  fakeBrowser.reset();
  attempts = 0;
});

describe('reads', () => {
  it('give defaults when nothing is stored, without reporting problems', async () => {
    expect(await loadSettings()).toEqual(defaultSettings());
    expect(await loadNotebook(KEY)).toEqual(defaultNotebook(KEY));
    expect(await loadAllNotebooks()).toEqual([]);
    expect(await loadProblems()).toEqual([]);
  });

  it('a corrupt record falls back to defaults alone, leaves the others intact, and is reported', async () => {
    await storage.set({
      [`nb:${KEY}`]: '{"v":1,"key":"drive:1AbC',
      [`nb:${OTHER}`]: stored(OTHER, { loopCount: 2, totalRestarts: 5 }),
      settings: { ...defaultSettings(), maxRestarts: 6 },
    });
    expect(await loadNotebook(KEY)).toEqual(defaultNotebook(KEY));
    expect(await loadNotebook(OTHER)).toEqual(stored(OTHER, { loopCount: 2, totalRestarts: 5 }));
    expect(await loadSettings()).toMatchObject({ maxRestarts: 6 });
    expect(byKey(await loadAllNotebooks())).toEqual([
      defaultNotebook(KEY),
      stored(OTHER, { loopCount: 2, totalRestarts: 5 }),
    ]);

    const problems = await loadProblems();
    expect(problems).toEqual([
      { at: expect.any(Number), key: `nb:${KEY}`, message: expect.stringMatching(/not a record \(a string/) },
    ]);
  });

  it('report a repeated problem once, and cap the list', async () => {
    await storage.set({ settings: 'garbage' });
    await loadSettings();
    await loadSettings();
    expect(await loadProblems()).toHaveLength(1);

    for (let i = 0; i < PROBLEMS_LIMIT + 10; i++) await storage.set({ [`nb:drive:n${i}`]: i });
    await loadAllNotebooks();
    const problems = await loadProblems();
    expect(problems).toHaveLength(PROBLEMS_LIMIT);
    expect(problems.at(-1)?.key).toBe(`nb:drive:n${PROBLEMS_LIMIT + 9}`);
  });

  it('report a corrupt record once: reading it again writes nothing', async () => {
    await storage.set({ settings: { ...defaultSettings(), maxRestarts: -1 } });
    const set = vi.spyOn(storage, 'set');
    for (let i = 0; i < 3; i++) expect(await loadSettings()).toEqual(defaultSettings());
    expect(set).toHaveBeenCalledOnce();
    expect(await loadProblems()).toHaveLength(1);
  });

  it('report a problem longer than a stored message once', async () => {
    await storage.set({ settings: { ...defaultSettings(), v: 'x'.repeat(3000) } });
    await loadSettings();
    await loadSettings();
    const problems = await loadProblems();
    expect(problems).toHaveLength(1);
    expect(problems[0]?.message).toHaveLength(TEXT_LIMITS.problem);
  });

  it('keep the valid reports when one in the stored list is damaged', async () => {
    const kept = { at: T0, key: `nb:${OTHER}`, message: 'earlier' };
    await storage.set({ problems: [kept, { at: 'noon', key: 5 }], settings: 'garbage' });
    expect(await loadProblems()).toEqual([kept]);
    await loadSettings();
    expect(await loadProblems()).toEqual([
      kept,
      { at: expect.any(Number), key: 'settings', message: expect.stringMatching(/not a record/) },
    ]);
  });

  it('migrate a v0 record on read', async () => {
    await storage.set({ [`nb:${KEY}`]: { key: KEY, name: 'train', active: true, restarts: 2, lifetimeRestarts: 7 } });
    expect(await loadNotebook(KEY)).toEqual({
      ...defaultNotebook(KEY),
      title: 'train',
      enabled: true,
      loopCount: 2,
      totalRestarts: 7,
    });
    expect(await loadProblems()).toEqual([]);
  });

  it('a record under an invalid notebook key reads as defaults, is reported, and is left out of the list', async () => {
    const bad = 'github:\nowner/r/main/nb';
    await storage.set({ [`nb:${bad}`]: stored(OTHER), [`nb:${OTHER}`]: stored(OTHER) });
    expect(await loadNotebook(bad)).toEqual(defaultNotebook(bad));
    expect(await loadAllNotebooks()).toEqual([stored(OTHER)]);
    expect(await loadProblems()).toEqual([
      { at: expect.any(Number), key: `nb:${bad}`, message: expect.stringMatching(/invalid notebook key/) },
    ]);
  });

  it('skip keys that are not ours', async () => {
    await storage.set({ frameTokens: { a: 1 }, [`nb:${OTHER}`]: stored(OTHER) });
    expect((await loadAllNotebooks()).map((n) => n.key)).toEqual([OTHER]);
  });
});

describe('the writer', () => {
  it('applies an event and stores the result', async () => {
    const writer = createNotebookWriter();
    await storage.set({ [`nb:${KEY}`]: stored(KEY) });
    const result = await writer.update(
      KEY,
      { type: 'failure', tabId: TAB, detectedAt: T0, startedAt: T0, verdict, source: 'error-output' },
      ctx(),
    );
    expect(result.reply).toEqual({ outcome: 'scheduled', restartAt: T0 + 5000, attempt: 'attempt-1' });
    expect(await loadNotebook(KEY)).toEqual(result.record);
  });

  it('writes nothing when nothing changes', async () => {
    const writer = createNotebookWriter();
    const set = vi.spyOn(storage, 'set');
    const result = await writer.update(
      KEY,
      { type: 'failure', tabId: TAB, detectedAt: T0, startedAt: T0, verdict, source: 'error-output' },
      ctx(),
    );
    expect(result.reply).toMatchObject({ outcome: 'off' });
    expect(set).not.toHaveBeenCalled();
    expect(await dump()).toEqual({});
  });

  it('types the reply by event', async () => {
    const writer = createNotebookWriter();
    const { reply } = await writer.update(KEY, { type: 'claim', tabId: TAB, attempt: 'x' }, ctx());
    // A ClaimReply: `granted` is known to the compiler here.
    expect(reply.granted).toBe(false);
  });

  /** Storage answers after a varying number of turns, so unserialised read-modify-writes would overwrite each other. */
  function addStorageJitter() {
    let seed = 7;
    const jitter = async () => {
      seed = (seed * 31 + 11) % 97;
      for (let turns = seed % 6; turns > 0; turns--) await Promise.resolve();
    };
    const realGet = storage.get.bind(storage) as (keys: unknown) => Promise<Record<string, unknown>>;
    const realSet = storage.set.bind(storage);
    vi.spyOn(storage, 'get').mockImplementation(async (keys?: unknown) => {
      await jitter();
      return realGet(keys);
    });
    vi.spyOn(storage, 'set').mockImplementation(async (items: Record<string, unknown>) => {
      await jitter();
      return realSet(items);
    });
  }

  /** The popup toggles the guard and cancels; the page reports failures and titles. */
  function interleavedEvents(): PolicyEvent[] {
    return Array.from({ length: 40 }, (_, i): PolicyEvent[] => [
      { type: 'set-enabled', enabled: i % 2 === 0 },
      { type: 'failure', tabId: TAB, detectedAt: T0 + i, startedAt: T0 + i, verdict, source: 'error-output' },
      { type: 'set-title', title: `title ${i}` },
      { type: 'cancel' },
    ]).flat();
  }

  const eventCtx = (i: number): PolicyContext => ({ ...ctx(T0 + 1000 + i), newAttemptId: () => `attempt-${i}` });

  it('loses no update when popup and page messages interleave on one notebook', async () => {
    addStorageJitter();
    const events = interleavedEvents();
    const writer = createNotebookWriter();
    await Promise.all([
      ...events.map((event, i) => writer.update(KEY, event, eventCtx(i))),
      writer.update(OTHER, { type: 'set-enabled', enabled: true }, ctx()),
    ]);

    // The same events applied one after another, in the order they were sent.
    const expected = events.reduce(
      (record, event, i) => reduce(record, event, eventCtx(i)).record,
      defaultNotebook(KEY),
    );
    const actual = await loadNotebook(KEY);
    expect(actual).toEqual(expected);
    expect(actual.history.filter((h) => h.type === 'enabled' || h.type === 'disabled')).toHaveLength(40);
    expect(actual.history.filter((h) => h.type === 'restart-scheduled')).toHaveLength(20);
    expect(actual.history.filter((h) => h.type === 'cancelled')).toHaveLength(20);
    expect(actual.title).toBe('title 39');
    expect((await loadNotebook(OTHER)).enabled).toBe(true);
  });

  it('(control) the same messages as naive concurrent read-modify-writes do lose updates', async () => {
    addStorageJitter();
    await Promise.all(
      interleavedEvents().map(async (event, i) => {
        const record = await loadNotebook(KEY);
        await storage.set({ [`nb:${KEY}`]: reduce(record, event, eventCtx(i)).record });
      }),
    );
    expect((await loadNotebook(KEY)).history.length).toBeLessThan(80);
  });

  it('grants one claim when two tabs claim at once', async () => {
    const writer = createNotebookWriter();
    const scheduled = await writer
      .update(KEY, { type: 'set-enabled', enabled: true }, ctx())
      .then(() =>
        writer.update(
          KEY,
          { type: 'failure', tabId: TAB, detectedAt: T0, startedAt: T0, verdict, source: 'error-output' },
          ctx(),
        ),
      );
    const { reply } = scheduled;
    if (reply.outcome !== 'scheduled') throw new Error('not scheduled');
    const claims = await Promise.all(
      [TAB, TAB, 8, TAB].map((tabId) =>
        writer.update(KEY, { type: 'claim', tabId, attempt: reply.attempt }, ctx(reply.restartAt)),
      ),
    );
    expect(claims.map((c) => c.reply.granted)).toEqual([true, false, false, false]);
  });

  it('writes a salvaged record back so it is reported once', async () => {
    await storage.set({ [`nb:${KEY}`]: { ...stored(KEY), loopCount: 'two' } });
    const writer = createNotebookWriter();
    await writer.update(KEY, { type: 'cancel' }, ctx());
    expect((await storage.get(`nb:${KEY}`))[`nb:${KEY}`]).toEqual({ ...stored(KEY), loopCount: 0 });
    expect(await loadProblems()).toHaveLength(1);
  });

  it('never overwrites a record from a newer version', async () => {
    const newer = { ...stored(KEY), v: CURRENT_VERSION + 1, status: { kind: 'future' } };
    await storage.set({ [`nb:${KEY}`]: newer });
    const writer = createNotebookWriter();
    await expect(writer.update(KEY, { type: 'set-enabled', enabled: false }, ctx())).rejects.toBeInstanceOf(
      ReadOnlyRecordError,
    );
    expect((await storage.get(`nb:${KEY}`))[`nb:${KEY}`]).toEqual(newer);
    expect(await loadNotebook(KEY)).toMatchObject({ enabled: true, status: { kind: 'watching' } });
    expect((await loadProblems())[0]?.message).toMatch(new RegExp(`newer version \\(v${CURRENT_VERSION + 1}\\)`));
    // The queue survives the failure.
    expect((await writer.update(OTHER, { type: 'set-enabled', enabled: true }, ctx())).reply).toEqual({ ok: true });
  });

  it('migrates every older record in place', async () => {
    await storage.set({
      settings: { maxRetries: 5 },
      [`nb:${KEY}`]: { key: KEY, active: true, restarts: 1 },
      [`nb:${OTHER}`]: stored(OTHER),
      frameTokens: { v: 0 },
    });
    const writer = createNotebookWriter();
    expect(await writer.migrateStoredData()).toBe(2);
    const all = await dump();
    expect(all.settings).toEqual({ ...defaultSettings(), maxRestarts: 5 });
    expect(all[`nb:${KEY}`]).toEqual({ ...defaultNotebook(KEY), enabled: true, loopCount: 1, totalRestarts: 1 });
    expect(all[`nb:${OTHER}`]).toEqual(stored(OTHER));
    expect(all.frameTokens).toEqual({ v: 0 });
    expect(await writer.migrateStoredData()).toBe(0);
  });

  it('migration leaves a record with `v: null` as stored (unreadable, not v0)', async () => {
    const damaged = { ...stored(KEY, { loopCount: 2 }), v: null };
    await storage.set({ [`nb:${KEY}`]: damaged });
    expect(await createNotebookWriter().migrateStoredData()).toBe(0);
    expect((await dump())[`nb:${KEY}`]).toEqual(damaged);
  });

  it(
    'migration leaves a record under an invalid notebook key as stored, reports it, and migrates the ' + 'rest',
    async () => {
      const bad = `url:${'x'.repeat(2100)}`;
      const v0 = { key: KEY, active: true, restarts: 1 };
      await storage.set({ [`nb:${bad}`]: v0, [`nb:${KEY}`]: v0 });
      const writer = createNotebookWriter();
      expect(await writer.migrateStoredData()).toBe(1);
      expect((await dump())[`nb:${bad}`]).toEqual(v0);
      expect(await loadProblems()).toMatchObject([
        { key: `nb:${bad}`, message: expect.stringMatching(/invalid notebook key/) },
      ]);
    },
  );

  it('refuses an event for an invalid notebook key and stores nothing', async () => {
    const writer = createNotebookWriter();
    await expect(
      writer.update('github:\nowner/r/main/nb', { type: 'set-enabled', enabled: true }, ctx()),
    ).rejects.toThrow(/Not a notebook key/);
    expect(await dump()).toEqual({});
  });
});

describe('records only for notebooks the user chose', () => {
  const failure: PolicyEvent = {
    type: 'failure',
    tabId: TAB,
    detectedAt: T0,
    startedAt: T0,
    verdict,
    source: 'error-output',
  };

  it('no event but switching on or a limit of its own creates a record', async () => {
    const writer = createNotebookWriter();
    const events: PolicyEvent[] = [
      { type: 'set-title', title: 'seen.ipynb' },
      { type: 'adopt', tabId: TAB, ownerAlive: false },
      { type: 'set-enabled', enabled: false },
      failure,
      { type: 'cancel' },
    ];
    for (const event of events) await writer.update(KEY, event, ctx(), 'seen.ipynb');
    expect(await dump()).toEqual({});
    await writer.update(OTHER, { type: 'set-max-restarts', value: 6 }, ctx(), 'other.ipynb');
    await writer.update(KEY, { type: 'set-enabled', enabled: true }, ctx(), '\u202Eseen.ipynb');
    expect(await loadNotebook(KEY)).toMatchObject({ enabled: true, title: 'seen.ipynb', touchedAt: T0 });
    expect(await loadNotebook(OTHER)).toMatchObject({
      enabled: false,
      title: 'other.ipynb',
      overrides: { maxRestarts: 6 },
    });
  });

  it('once a record exists, every event updates it', async () => {
    const writer = createNotebookWriter();
    await writer.update(KEY, { type: 'set-enabled', enabled: true }, ctx());
    await writer.update(KEY, { type: 'set-title', title: 'named later' }, ctx());
    await writer.update(KEY, failure, ctx());
    expect(await loadNotebook(KEY)).toMatchObject({ title: 'named later', status: { kind: 'pending' } });
  });
});

describe('retention', () => {
  const DAY = 24 * 60 * 60_000;
  const now = T0 + 200 * DAY;

  it('removes records off and idle for 90 days and blank ones, trims old history, keeps the rest', async () => {
    const old = now - RETENTION_MS - DAY;
    const recent = now - DAY;
    await storage.set({
      [`nb:${KEY}`]: stored(KEY, { enabled: false, history: [{ at: old, type: 'disabled' }] }),
      [`nb:${OTHER}`]: stored(OTHER, {
        history: [
          { at: old, type: 'enabled' },
          { at: recent, type: 'cancelled' },
        ],
      }),
      'nb:drive:blank': { ...defaultNotebook('drive:blank'), title: 'opened once by an old version' },
      'nb:drive:offRecent': stored('drive:offRecent', {
        enabled: false,
        touchedAt: recent,
        overrides: { maxRestarts: 2 },
      }),
      'nb:drive:undated': stored('drive:undated'),
      'nb:drive:damaged': { v: 2, key: 'drive:damaged', enabled: 'yes' },
      settings: defaultSettings(),
    });
    expect(await createNotebookWriter().applyRetention(now, new Set())).toEqual({ removed: 2, rewritten: 2 });
    const after = await dump();
    expect(Object.keys(after).sort()).toEqual(
      ['nb:drive:damaged', 'nb:drive:offRecent', 'nb:drive:undated', `nb:${OTHER}`, 'settings'].sort(),
    );
    expect((await loadNotebook(OTHER)).history.map((e) => e.type)).toEqual(['cancelled']);
    // Nothing dated in it: its idle time starts now.
    expect((await loadNotebook('drive:undated')).touchedAt).toBe(now);
  });

  it('keeps a notebook switched on however long it has been idle', async () => {
    await storage.set({ [`nb:${KEY}`]: stored(KEY, { touchedAt: now - 3 * RETENTION_MS }) });
    expect(await createNotebookWriter().applyRetention(now, new Set())).toEqual({ removed: 0, rewritten: 0 });
    expect(Object.keys(await dump())).toEqual([`nb:${KEY}`]);
  });

  it('removes the records of scratch notebooks no tab shows, and the retired notebooks:empty, even on', async () => {
    await storage.set({
      'nb:scratch:3-abc': stored('scratch:3-abc', { touchedAt: now }),
      'nb:scratch:4-def': stored('scratch:4-def', { touchedAt: now }),
      'nb:notebooks:empty': stored('notebooks:empty', { touchedAt: now }),
    });
    const shown = new Set(['scratch:4-def', 'drive:other']);
    expect(await createNotebookWriter().applyRetention(now, shown)).toEqual({ removed: 2, rewritten: 0 });
    expect(Object.keys(await dump())).toEqual(['nb:scratch:4-def']);
  });
});

describe('forgetting a notebook', () => {
  it("removes that notebook's record and nothing else", async () => {
    await storage.set({ [`nb:${KEY}`]: stored(KEY), 'nb:scratch:3-abc': stored('scratch:3-abc') });
    await createNotebookWriter().forget('scratch:3-abc');
    expect(Object.keys(await dump())).toEqual([`nb:${KEY}`]);
  });
});

describe('a write the browser refuses', () => {
  it('throws a StorageWriteError that says the storage is full, and a damaged record still reads', async () => {
    vi.spyOn(storage, 'set').mockRejectedValue(new Error('Resource::kQuotaBytes quota exceeded'));
    const writer = createNotebookWriter();
    const error = await writer.update(KEY, { type: 'set-enabled', enabled: true }, ctx()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageWriteError);
    expect((error as Error).message).toBe(
      "Could not save to the extension's storage: it is full (Resource::kQuotaBytes quota exceeded)",
    );
    vi.mocked(storage.set).mockRestore();
    await storage.set({ [`nb:${OTHER}`]: 'garbage' });
    vi.spyOn(storage, 'set').mockRejectedValue(new Error('Resource::kQuotaBytes quota exceeded'));
    // Its problem cannot be written to the list, but the read gives the defaults all the same.
    expect(await loadNotebook(OTHER)).toEqual(defaultNotebook(OTHER));
    vi.mocked(storage.set).mockRestore();
  });
});

describe('settings updates', () => {
  it('store a valid patch, merging categories', async () => {
    const writer = createNotebookWriter();
    const result = await writer.updateSettings({ maxRestarts: 5, categories: { 'gpu-fault': true } });
    const expected = {
      ...defaultSettings(),
      maxRestarts: 5,
      categories: { ...defaultSettings().categories, 'gpu-fault': true },
    };
    expect(result).toEqual({ ok: true, settings: expected });
    expect(await loadSettings()).toEqual(expected);
  });

  it.each<[Record<string, unknown>, RegExp]>([
    [{ maxRestarts: -1 }, /Invalid setting maxRestarts/],
    [{ backoffBaseSec: 600 }, /Invalid setting backoffMaxSec: The longest back-off/],
    [{ categories: { 'gpu-oom': 'yes' } }, /Invalid setting categories\.gpu-oom/],
    [{ colour: 'blue' }, /Unknown setting: colour/],
    [{ v: 3 }, /Unknown setting: v/],
    [{ constructor: 1 }, /Unknown setting: constructor/],
    [{ toString: 'x' }, /Unknown setting: toString/],
    [JSON.parse('{"__proto__": {"maxRestarts": 9}}'), /Unknown setting: __proto__/],
    [{ categories: { 'gpu-oom': false, 'cpu-oom': true } }, /Unknown setting: categories\.cpu-oom/],
    [{ categories: { hasOwnProperty: true } }, /Unknown setting: categories\.hasOwnProperty/],
  ])('refuse %j and write nothing', async (patch, message) => {
    const writer = createNotebookWriter();
    const result = await writer.updateSettings(patch);
    expect(result.ok).toBe(false);
    expect(!result.ok && englishWhy(result.why)).toMatch(message);
    expect(await dump()).toEqual({});
  });
});

describe('import and clear', () => {
  it('an invalid import changes nothing', async () => {
    await storage.set({ settings: defaultSettings(), [`nb:${KEY}`]: stored(KEY) });
    const before = await dump();
    const writer = createNotebookWriter();
    const file = exportData(defaultSettings(), [
      stored(KEY, { loopCount: 1 }),
      { ...stored(OTHER), totalRestarts: -4 },
    ]);
    expect(await writer.importData(JSON.stringify(file))).toEqual({
      ok: false,
      why: expect.objectContaining({ kind: 'invalid-field', path: 'notebooks.1.totalRestarts' }),
    });
    expect(await writer.importData('nope')).toMatchObject({ ok: false });
    expect(await dump()).toEqual(before);
  });

  it('a valid import replaces the settings and the notebooks it holds, keeping the others', async () => {
    const third = 'gist:0123456789abcdef0123';
    await storage.set({ [`nb:${KEY}`]: stored(KEY), [`nb:${third}`]: stored(third) });
    const writer = createNotebookWriter();
    const settings = { ...defaultSettings(), maxRestarts: 9 };
    const file = exportData(settings, [stored(KEY, { loopCount: 2 }), stored(OTHER)]);
    expect(await writer.importData(JSON.stringify(file))).toEqual({ ok: true, notebooks: 2 });
    expect(await loadSettings()).toEqual(settings);
    expect(byKey(await loadAllNotebooks()).map((n) => [n.key, n.loopCount])).toEqual([
      [KEY, 2],
      [third, 0],
      [OTHER, 0],
    ]);
  });

  it('an import that would replace a record from a newer version changes nothing', async () => {
    const newer = { ...stored(KEY), v: CURRENT_VERSION + 1 };
    await storage.set({ [`nb:${KEY}`]: newer, [`nb:${OTHER}`]: stored(OTHER) });
    const before = await dump();
    const writer = createNotebookWriter();
    const file = exportData({ ...defaultSettings(), maxRestarts: 9 }, [
      stored(KEY, { loopCount: 2 }),
      stored(OTHER, { loopCount: 1 }),
    ]);
    expect(await writer.importData(JSON.stringify(file))).toEqual({
      ok: false,
      why: { kind: 'import-newer', names: [`nb:${KEY}`], more: 0 },
    });
    expect(await dump()).toEqual(before);

    // A newer record the file does not hold is no obstacle, and stays as it is.
    const withoutIt = exportData(defaultSettings(), [stored(OTHER, { loopCount: 1 })]);
    expect(await writer.importData(JSON.stringify(withoutIt))).toEqual({ ok: true, notebooks: 1 });
    expect((await dump())[`nb:${KEY}`]).toEqual(newer);
  });

  it('an import waits for updates already queued, and updates after it see its data', async () => {
    const writer = createNotebookWriter();
    const file = exportData(defaultSettings(), [stored(KEY, { title: 'imported' })]);
    const before = writer.update(KEY, { type: 'set-title', title: 'before' }, ctx());
    const imported = writer.importData(JSON.stringify(file));
    const after = writer.update(KEY, { type: 'set-enabled', enabled: false }, ctx());
    await Promise.all([before, imported, after]);
    expect(await loadNotebook(KEY)).toMatchObject({ title: 'imported', enabled: false });
  });

  it('an import that would pass the storage quota is refused with a message and changes nothing', async () => {
    await storage.set({ [`nb:${KEY}`]: stored(KEY), filler: 'x'.repeat(5000) });
    const before = await dump();
    const file = exportData(defaultSettings(), [
      stored(OTHER, { history: Array.from({ length: 20 }, (_, i) => ({ at: T0 + i, type: 'enabled' as const })) }),
    ]);
    const items = { ...before, settings: defaultSettings(), [`nb:${OTHER}`]: file.notebooks[0] };
    Object.assign(storage, { QUOTA_BYTES: bytesOf(items) - 1 });
    try {
      const writer = createNotebookWriter();
      expect(await writer.importData(JSON.stringify(file))).toEqual({
        ok: false,
        why: { kind: 'import-too-large', neededMb: '0.0', quotaMb: '0.0' },
      });
      expect(await dump()).toEqual(before);
      Object.assign(storage, { QUOTA_BYTES: bytesOf(items) });
      expect(await writer.importData(JSON.stringify(file))).toEqual({ ok: true, notebooks: 1 });
    } finally {
      Reflect.deleteProperty(storage, 'QUOTA_BYTES');
    }
  });

  it('counts storage bytes as Chrome does: key plus JSON, in UTF-8', () => {
    expect(bytesOf({ a: 'é' })).toBe(1 + 4);
    expect(bytesOf({ nb: { x: [1, 2] } })).toBe(2 + '{"x":[1,2]}'.length);
  });

  it('clearAll removes our keys only', async () => {
    await storage.set({ settings: defaultSettings(), problems: [], [`nb:${KEY}`]: stored(KEY), frameTokens: { a: 1 } });
    await createNotebookWriter().clearAll();
    expect(await dump()).toEqual({ frameTokens: { a: 1 } });
  });
});

describe('watchers', () => {
  it('deliver validated values for their key only, until unsubscribed', async () => {
    const seen: NotebookRecord[] = [];
    const stop = watchNotebook(KEY, (record) => seen.push(record));
    await storage.set({ [`nb:${OTHER}`]: stored(OTHER) });
    await storage.set({ [`nb:${KEY}`]: stored(KEY, { loopCount: 1 }) });
    await storage.set({ [`nb:${KEY}`]: { ...stored(KEY), loopCount: 'bad' } });
    await storage.remove(`nb:${KEY}`);
    stop();
    await storage.set({ [`nb:${KEY}`]: stored(KEY, { loopCount: 3 }) });
    expect(seen.map((r) => r.loopCount)).toEqual([1, 0, 0]);
    expect(seen[2]).toEqual(defaultNotebook(KEY));
  });

  it('ignore other storage areas', async () => {
    const seen: unknown[] = [];
    watchSettings((settings) => seen.push(settings));
    await fakeBrowser.storage.session.set({ settings: { ...defaultSettings(), maxRestarts: 1 } });
    await storage.set({ settings: { ...defaultSettings(), maxRestarts: 2 } });
    expect(seen).toEqual([{ ...defaultSettings(), maxRestarts: 2 }]);
  });
});

describe('what the store leaves, says and refuses at its edges', () => {
  const failureAt = (detectedAt: number): PolicyEvent => ({
    type: 'failure',
    tabId: TAB,
    detectedAt,
    startedAt: detectedAt,
    verdict,
    source: 'error-output',
  });
  const writes = () => {
    const set = vi.spyOn(storage, 'set');
    const remove = vi.spyOn(storage, 'remove');
    return () => [...set.mock.calls, ...remove.mock.calls];
  };

  it('writes nothing when retention, clearing or migrating finds nothing to do', async () => {
    await storage.set({ [`nb:${KEY}`]: stored(KEY, { touchedAt: T0 }), frameTokens: { a: 1 } });
    const calls = writes();
    const writer = createNotebookWriter();
    expect(await writer.applyRetention(T0 + 1000, new Set())).toEqual({ removed: 0, rewritten: 0 });
    expect(await writer.migrateStoredData()).toBe(0);
    expect(calls()).toEqual([]);
  });

  it('clearing with nothing of ours stored removes nothing', async () => {
    await storage.set({ frameTokens: { a: 1 } });
    const calls = writes();
    await createNotebookWriter().clearAll();
    expect(calls()).toEqual([]);
  });

  it("leaves another's versioned key alone when migrating, and reports no problem for it", async () => {
    await storage.set({ frameTokens: { v: 0, a: 1 } });
    expect(await createNotebookWriter().migrateStoredData()).toBe(0);
    expect(await dump()).toEqual({ frameTokens: { v: 0, a: 1 } });
  });

  it('lists two different problems of one record, each once', async () => {
    await storage.set({ [`nb:${KEY}`]: 'garbage' });
    await loadNotebook(KEY);
    await storage.set({ [`nb:${KEY}`]: 42 });
    await loadNotebook(KEY);
    await loadNotebook(KEY);
    expect((await loadProblems()).map((p) => p.key)).toEqual([`nb:${KEY}`, `nb:${KEY}`]);
  });

  it('a record from a newer version refuses an event with an error that names it', async () => {
    await storage.set({ [`nb:${KEY}`]: { ...stored(KEY), v: CURRENT_VERSION + 1 } });
    const error = await createNotebookWriter()
      .update(KEY, { type: 'cancel' }, ctx())
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'ReadOnlyRecordError',
      message: `nb:${KEY} was written by a newer version of the extension and is kept unchanged. Update the extension.`,
    });
    vi.spyOn(storage, 'set').mockRejectedValue(new Error('disk on fire'));
    const refused = await createNotebookWriter()
      .update(OTHER, { type: 'set-enabled', enabled: true }, ctx())
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ name: 'StorageWriteError' });
  });

  it('never stores a record that would not read back', async () => {
    await storage.set({ [`nb:${KEY}`]: stored(KEY) });
    const before = await dump();
    const error = await createNotebookWriter()
      .update(KEY, failureAt(-5), ctx())
      .catch((e: unknown) => e);
    expect(String(error)).toMatch(new RegExp(`^Error: Refusing to store an invalid record for ${KEY}: \\S`));
    expect(await dump()).toEqual(before);
  });

  it('a notebook switched on without a title is stored with none; a long bad key is quoted short', async () => {
    const { record } = await createNotebookWriter().update(KEY, { type: 'set-enabled', enabled: true }, ctx());
    expect(record.title).toBe('');
    const error = await createNotebookWriter()
      .update(`x${'y'.repeat(5000)}`, { type: 'cancel' }, ctx())
      .catch((e: unknown) => e);
    expect(String(error).length).toBeLessThan(200);
  });

  it('a notebook stored as null, or not stored, gets no record from an event that does not create one', async () => {
    // Chrome keeps a null value; the fake browser drops it, so the read says it.
    vi.spyOn(storage, 'get').mockResolvedValueOnce({ [`nb:${KEY}`]: null } as never);
    const set = vi.spyOn(storage, 'set');
    const writer = createNotebookWriter();
    await writer.update(KEY, { type: 'set-title', title: 'train.ipynb' }, ctx());
    await writer.update(OTHER, { type: 'set-title', title: 'train.ipynb' }, ctx());
    expect(set.mock.calls.flatMap(([items]) => Object.keys(items))).not.toContain(`nb:${KEY}`);
    expect(Object.keys(await dump())).not.toContain(`nb:${OTHER}`);
  });

  it('settings of a newer version are kept, the update says why; unknown names all listed', async () => {
    const writer = createNotebookWriter();
    expect(await writer.updateSettings({ colour: 'blue', size: 2 })).toEqual({
      ok: false,
      why: { kind: 'unknown-setting', names: ['colour', 'size'] },
    });
    await storage.set({ settings: { ...defaultSettings(), v: CURRENT_VERSION + 1 } });
    const result = await writer.updateSettings({ maxRestarts: 4 });
    expect(result).toEqual({ ok: false, why: { kind: 'read-only', key: 'settings' } });
    expect((await dump()).settings).toEqual({ ...defaultSettings(), v: CURRENT_VERSION + 1 });
  });

  it('a category patch keeps the other categories as stored', async () => {
    const writer = createNotebookWriter();
    await writer.updateSettings({ categories: { 'gpu-fault': true } });
    const { settings } = (await writer.updateSettings({ categories: { 'gpu-oom': false } })) as { settings: unknown };
    expect(settings).toMatchObject({ categories: { 'gpu-fault': true, 'gpu-oom': false } });
  });

  it('an import over records of a newer version names up to three of them, then how many more', async () => {
    const keys = ['drive:a1', 'drive:a2', 'drive:a3', 'drive:a4', 'drive:a5'];
    const newer = (key: string) => ({ ...stored(key), v: CURRENT_VERSION + 1 });
    const importing = async (count: number) => {
      fakeBrowser.reset();
      await storage.set(Object.fromEntries(keys.slice(0, count).map((key) => [`nb:${key}`, newer(key)])));
      const file = exportData(
        defaultSettings(),
        keys.map((key) => stored(key)),
      );
      const result = await createNotebookWriter().importData(JSON.stringify(file));
      return result.ok ? '' : englishWhy(result.why);
    };
    expect(await importing(2)).toContain('(nb:drive:a1, nb:drive:a2).');
    expect(await importing(3)).toContain('(nb:drive:a1, nb:drive:a2, nb:drive:a3).');
    expect(await importing(5)).toContain('(nb:drive:a1, nb:drive:a2, nb:drive:a3 and 2 more).');
  });

  it('an import where the browser sets no quota (Firefox) is not measured against one', async () => {
    const quota = Object.getOwnPropertyDescriptor(storage, 'QUOTA_BYTES');
    Reflect.deleteProperty(storage, 'QUOTA_BYTES');
    try {
      const file = exportData(defaultSettings(), [stored(OTHER)]);
      expect(await createNotebookWriter().importData(JSON.stringify(file))).toEqual({ ok: true, notebooks: 1 });
    } finally {
      if (quota) Object.defineProperty(storage, 'QUOTA_BYTES', quota);
    }
  });

  it('an import over the quota says what to do', async () => {
    Object.assign(storage, { QUOTA_BYTES: 10 });
    try {
      const file = exportData(defaultSettings(), [stored(OTHER)]);
      const result = await createNotebookWriter().importData(JSON.stringify(file));
      expect(!result.ok && englishWhy(result.why)).toMatch(
        /Import a file with fewer notebooks, or clear data first\.$/,
      );
    } finally {
      Object.assign(storage, { QUOTA_BYTES: 10485760 });
    }
  });

  it('counts a value JSON cannot write as its key alone', () => {
    expect(bytesOf({ ab: undefined })).toBe(2);
  });

  it("reads and watches the browser's refused writes in session storage only", async () => {
    const errors = [{ at: T0, message: 'full', lost: 'nb:x' }];
    await fakeBrowser.storage.session.set({ storageErrors: errors });
    expect(await loadStorageErrors()).toEqual(errors);
    const seen: unknown[] = [];
    const stop = watchStorageErrors((list) => seen.push(list));
    await storage.set({ storageErrors: [{ at: T0, message: 'elsewhere', lost: '' }] });
    await fakeBrowser.storage.session.set({ storageErrors: [] });
    stop();
    expect(seen).toEqual([[]]);
  });
});
