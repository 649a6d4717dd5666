import browser from 'webextension-polyfill';
import {
  ALERTS_KEY,
  type AlertDataCategory,
  alertDataCategories,
  configuredReceiver,
  parseAlertsConfig,
} from '../state/alerts';
import { configuredHeartbeat, HEARTBEAT_DATA, HEARTBEAT_KEY, parseHeartbeatConfig } from '../state/heartbeat';
import { giveBackDataConsent, hasDataConsent } from '../ui/data-consent';

/**
 * What the person granted for the URLs they saved (alerts, the heartbeat): one optional host permission each, and in
 * Firefox the consent to the data sent there. What one URL gives back when it goes must not take what the other still
 * uses: the alert URL and the heartbeat may share a site, and both send website activity.
 */

/** Whether a request may go to a site: its host permission, and the consent to the data it carries. */
export async function mayReach(permission: string, data: readonly AlertDataCategory[]): Promise<boolean> {
  if (!(await browser.permissions.contains({ origins: [permission] }))) return false;
  return hasDataConsent([...data]);
}

/** Gives back these sites and data categories, except what the alerts or the heartbeat, as now stored, still use. */
export async function releaseUnused(hosts: readonly string[], data: readonly AlertDataCategory[]): Promise<void> {
  const used = await inUse();
  for (const host of hosts) {
    // A host the extension needs anyway (Colab's) is never given back: removing it fails, and nothing is lost.
    if (!used.hosts.has(host)) await browser.permissions.remove({ origins: [host] }).catch(() => undefined);
  }
  const unused = data.filter((category) => !used.data.has(category));
  if (unused.length > 0) await giveBackDataConsent(unused);
}

async function inUse(): Promise<{ hosts: Set<string>; data: Set<AlertDataCategory> }> {
  const stored = await browser.storage.local.get([ALERTS_KEY, HEARTBEAT_KEY]);
  const alerts = parseAlertsConfig(stored[ALERTS_KEY]);
  const receiver = configuredReceiver(alerts);
  const heartbeat = configuredHeartbeat(parseHeartbeatConfig(stored[HEARTBEAT_KEY]));
  const hosts = new Set<string>();
  const data = new Set<AlertDataCategory>();
  if (receiver) {
    hosts.add(receiver.permission);
    for (const category of alertDataCategories(alerts)) data.add(category);
  }
  if (heartbeat) {
    hosts.add(heartbeat.permission);
    for (const category of HEARTBEAT_DATA) data.add(category);
  }
  return { hosts, data };
}
