import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import browser from 'webextension-polyfill';
import {
  NOTEBOOK_PREFIX,
  type NotebookRecord,
  PROBLEMS_KEY,
  type Problem,
  parseProblems,
  type Settings,
  type StorageError,
} from '../state/schema';
import {
  loadAllNotebooks,
  loadNotebook,
  loadSettings,
  loadStorageErrors,
  watchNotebook,
  watchSettings,
  watchStorageErrors,
} from '../state/store';

/** The current time, refreshed every `intervalMs`: countdowns and "last 12 hours" never go stale. */
export function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

export interface Stored<T> {
  /** undefined until the first read finishes. */
  value: T | undefined;
  /** Reads storage again (after a command, so the page never waits on the change event to show its effect). */
  reload: () => Promise<void>;
}

/**
 * A value read from storage and kept current through storage.onChanged. A read that started before a change event
 * arrived is dropped: the event carries the newer value. `deps` name what `load` and `watch` read (the notebook
 * key): new deps, a new subscription.
 */
function useStored<T>(
  load: () => Promise<T>,
  watch: (callback: (value: T) => void) => () => void,
  deps: unknown[],
): Stored<T> {
  const [value, setValue] = useState<T | undefined>(undefined);
  const generation = useRef(0);
  const active = useRef(true);

  const reload = useCallback(async () => {
    const started = ++generation.current;
    const loaded = await load();
    if (active.current && generation.current === started) setValue(loaded);
  }, deps);

  useEffect(() => {
    active.current = true;
    setValue(undefined);
    const unsubscribe = watch((next) => {
      generation.current++;
      if (active.current) setValue(next);
    });
    void reload();
    return () => {
      active.current = false;
      unsubscribe();
    };
  }, deps);

  return { value, reload };
}

export function useNotebook(key: string): Stored<NotebookRecord> {
  return useStored(
    () => loadNotebook(key),
    (callback) => watchNotebook(key, callback),
    [key],
  );
}

export function useSettings(): Stored<Settings> {
  return useStored(loadSettings, watchSettings, []);
}

/** Writes the browser refused (storage full), until the user dismisses them. */
export function useStorageErrors(): Stored<StorageError[]> {
  return useStored(loadStorageErrors, watchStorageErrors, []);
}

/** The storage problems the store reported (corrupt records that fell back to defaults), kept current. */
export function useProblems(): Problem[] {
  return useLocalKey(PROBLEMS_KEY, parseProblems) ?? [];
}

/**
 * One key of `storage.local` read and kept current (keys written by the service worker alone: the store's problems,
 * the alert settings and their delivery log). undefined until the first read.
 */
export function useLocalKey<T>(key: string, parse: (raw: unknown) => T): T | undefined {
  return useAreaKey('local', key, parse);
}

/** The same for `storage.session`: what the service worker made of the night (background/night-watch.ts). */
export function useSessionKey<T>(key: string, parse: (raw: unknown) => T): T | undefined {
  return useAreaKey('session', key, parse);
}

function useAreaKey<T>(area: 'local' | 'session', key: string, parse: (raw: unknown) => T): T | undefined {
  const [value, setValue] = useState<T | undefined>(undefined);
  useEffect(() => {
    let alive = true;
    let changed = false;
    const listener = (changes: Record<string, browser.Storage.StorageChange>, changedArea: string) => {
      const change = changes[key];
      if (changedArea !== area || !change || !alive) return;
      changed = true;
      setValue(parse(change.newValue));
    };
    browser.storage.onChanged.addListener(listener);
    browser.storage[area].get(key).then(
      (items) => alive && !changed && setValue(parse(items[key])),
      () => undefined,
    );
    return () => {
      alive = false;
      browser.storage.onChanged.removeListener(listener);
    };
  }, [area, key]);
  return value;
}

/** Every stored notebook, kept current: read again whenever a notebook record changes (options page only). */
export function useAllNotebooks(): Stored<NotebookRecord[]> {
  return useStored(loadAllNotebooks, watchAllNotebooks, []);
}

/** Reads all records again on a change to any of them; a read that a newer one overtook is dropped. */
function watchAllNotebooks(callback: (records: NotebookRecord[]) => void): () => void {
  let reads = 0;
  const listener = (changes: Record<string, browser.Storage.StorageChange>, area: string) => {
    if (area !== 'local' || !Object.keys(changes).some((name) => name.startsWith(NOTEBOOK_PREFIX))) return;
    const read = ++reads;
    void loadAllNotebooks().then((records) => read === reads && callback(records));
  };
  browser.storage.onChanged.addListener(listener);
  return () => browser.storage.onChanged.removeListener(listener);
}
