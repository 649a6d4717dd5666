import { useEffect, useState } from 'preact/hooks';
import browser from 'webextension-polyfill';
import { errorText } from '../ui/send';

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
