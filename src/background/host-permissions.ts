import browser from 'webextension-polyfill';
import { ALERTS_KEY, configuredReceiver, parseAlertsConfig } from '../state/alerts';
import { configuredHeartbeat, HEARTBEAT_KEY, parseHeartbeatConfig } from '../state/heartbeat';

/**
 * The optional host permissions the person granted, one site each, for the URLs they saved (alerts, the heartbeat).
 * One given back when its URL goes must not take the other's: the alert URL and the heartbeat may share a site.
 */
export async function releaseHost(permission: string): Promise<void> {
  if ((await hostsInUse()).has(permission)) return;
  // A host the extension needs anyway (Colab's) is never given back: removing it fails, and nothing is lost.
  await browser.permissions.remove({ origins: [permission] }).catch(() => undefined);
}

async function hostsInUse(): Promise<Set<string>> {
  const stored = await browser.storage.local.get([ALERTS_KEY, HEARTBEAT_KEY]);
  const alerts = configuredReceiver(parseAlertsConfig(stored[ALERTS_KEY]));
  const heartbeat = configuredHeartbeat(parseHeartbeatConfig(stored[HEARTBEAT_KEY]));
  return new Set([alerts?.permission, heartbeat?.permission].filter((host): host is string => host !== undefined));
}
