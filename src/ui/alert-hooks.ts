import { useEffect, useState } from 'preact/hooks';
import browser from 'webextension-polyfill';
import { ALERT_LOG_KEY, type AlertLog, parseAlertLog } from '../state/alert-delivery';
import { ALERTS_KEY, type AlertsConfig, parseAlertsConfig } from '../state/alerts';

/**
 * One key of `storage.local` read and kept current (the alert settings and their delivery log live under keys of
 * their own, written by the service worker alone). undefined until the first read.
 */
function useLocalKey<T>(key: string, parse: (raw: unknown) => T): T | undefined {
  const [value, setValue] = useState<T | undefined>(undefined);
  useEffect(() => {
    let alive = true;
    let changed = false;
    const listener = (changes: Record<string, browser.Storage.StorageChange>, area: string) => {
      const change = changes[key];
      if (area !== 'local' || !change || !alive) return;
      changed = true;
      setValue(parse(change.newValue));
    };
    browser.storage.onChanged.addListener(listener);
    browser.storage.local.get(key).then(
      (items) => alive && !changed && setValue(parse(items[key])),
      () => undefined,
    );
    return () => {
      alive = false;
      browser.storage.onChanged.removeListener(listener);
    };
  }, [key]);
  return value;
}

export function useAlertsConfig(): AlertsConfig | undefined {
  return useLocalKey(ALERTS_KEY, parseAlertsConfig);
}

export function useAlertLog(): AlertLog | undefined {
  return useLocalKey(ALERT_LOG_KEY, parseAlertLog);
}
