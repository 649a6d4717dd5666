import { useEffect, useState } from 'preact/hooks';
import browser from 'webextension-polyfill';
import type { ReplyTo } from '../messaging/protocol';
import type { TabRequest } from '../messaging/tab-request';
import { colabLanguage } from '../site/page-language';
import { watchNotebookOfTab } from '../state/tab-registry';
import { errorText } from '../ui/send';

/**
 * Asks the Colab page in `tabId` (content/colab-page.ts answers): its reply as the protocol map types it, or undefined.
 * Its shape is still checked where it is used: the page may run an older copy of the script.
 */
export function askTab<M extends TabRequest>(tabId: number, message: M): Promise<ReplyTo<M> | undefined> {
  return browser.tabs.sendMessage(tabId, message) as Promise<ReplyTo<M> | undefined>;
}

/** The tab the popup acts on: the one it was opened over, or `?tab=<id>` when opened as a page. */
export type Target =
  | { kind: 'loading' }
  | { kind: 'tab'; tabId: number; url: string | undefined; title: string }
  | { kind: 'error'; message: string };

export function requestedTabId(search: string): number | null | 'invalid' {
  const raw = new URLSearchParams(search).get('tab');
  if (raw === null) return null;
  return /^\d+$/.test(raw) ? Number(raw) : 'invalid';
}

async function findTab(search: string): Promise<browser.Tabs.Tab | undefined> {
  const requested = requestedTabId(search);
  if (requested === 'invalid') throw new Error('?tab= must be a tab id');
  if (requested !== null) return browser.tabs.get(requested);
  const [active] = await browser.tabs.query({ active: true, currentWindow: true });
  return active;
}

/** Follows the tab while the popup is open: a notebook opened in it, or the tab navigating away, shows at once. */
export function useTargetTab(search: string): Target {
  const [target, setTarget] = useState<Target>({ kind: 'loading' });
  useEffect(() => {
    let alive = true;
    let tabId: number | undefined;
    const onUpdated = (id: number, change: browser.Tabs.OnUpdatedChangeInfoType, tab: browser.Tabs.Tab) => {
      if (!alive || id !== tabId || (change.url === undefined && change.title === undefined)) return;
      setTarget({ kind: 'tab', tabId: id, url: tab.url, title: tab.title ?? '' });
    };
    findTab(search).then(
      (tab) => {
        if (!alive) return;
        if (tab?.id === undefined) {
          setTarget({ kind: 'error', message: 'No tab' });
          return;
        }
        tabId = tab.id;
        setTarget({ kind: 'tab', tabId: tab.id, url: tab.url, title: tab.title ?? '' });
      },
      (error: unknown) => alive && setTarget({ kind: 'error', message: errorText(error) }),
    );
    browser.tabs.onUpdated.addListener(onUpdated);
    return () => {
      alive = false;
      browser.tabs.onUpdated.removeListener(onUpdated);
    };
  }, [search]);
  return target;
}

/**
 * Whether the Colab page in `tabId` watches `key` (asked while the guard is on for it): null until it answers or
 * while the guard is off; false when the page answers otherwise, or not at all (it has no content script: an old
 * tab, or one opened before the extension was installed).
 */
export function usePageWatched(tabId: number, key: string, on: boolean): boolean | null {
  const [watched, setWatched] = useState<boolean | null>(null);
  useEffect(() => {
    setWatched(null);
    if (!on) return;
    let alive = true;
    askTab(tabId, { type: 'page-state' })
      .then(isWatching(key), () => false)
      .then((answer) => alive && setWatched(answer));
    return () => {
      alive = false;
    };
  }, [tabId, key, on]);
  return watched;
}

const isWatching = (key: string) => (state: ReplyTo<{ type: 'page-state' }> | undefined) => {
  return state?.key === key && state.watching === true;
};

/**
 * The notebook the tab's page said it shows (the worker's tab registry), followed while the popup is open: a scratch
 * notebook's key exists only there. Undefined until read; null when the page said none (or said nothing yet).
 */
export function useTabNotebook(tabId: number, wanted: boolean): string | null | undefined {
  const [key, setKey] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    setKey(undefined);
    return wanted ? watchNotebookOfTab(tabId, setKey) : undefined;
  }, [tabId, wanted]);
  return key;
}

/**
 * Colab's interface language in the tab (`?hl=`, `<html lang>`), read there with `scripting` (the guard need not be
 * loaded in the page), again when the address changes; null until known, and when it cannot be read.
 */
export function useColabLanguage(tabId: number, url: string | undefined): string | null {
  const [language, setLanguage] = useState<string | null>(null);
  useEffect(() => {
    let alive = true;
    setLanguage(null);
    Promise.resolve()
      .then(() => browser.scripting.executeScript({ target: { tabId }, func: colabLanguage }))
      .then(([injection]) => {
        if (alive && typeof injection?.result === 'string') setLanguage(injection.result);
      })
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, [tabId, url]);
  return language;
}
