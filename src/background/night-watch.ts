import browser from 'webextension-polyfill';
import type { AlertTestReply, HeartbeatPatch } from '../messaging/protocol';
import {
  checkHeartbeatUrl,
  configuredHeartbeat,
  failsRun,
  HEARTBEAT_DATA,
  HEARTBEAT_KEY,
  HEARTBEAT_LOG_KEY,
  type HeartbeatBeat,
  type HeartbeatConfig,
  heartbeatStep,
  type PingKind,
  parseHeartbeatConfig,
  parsePings,
  pingUrl,
  withPing,
} from '../state/heartbeat';
import type { CommandRefused, CommandReply, Effect } from '../state/policy';
import {
  guardedTabs,
  NIGHT_WATCH_KEY,
  type NightWatch,
  notebooksGoing,
  parseNightWatch,
  type ShownNotebook,
  wantsKeepAwake,
} from '../state/run-going';
import { NOTEBOOK_PREFIX, SETTINGS_KEY } from '../state/schema';
import { loadNotebook, loadSettings } from '../state/store';
import { registryChanged, tabsByNotebookIn } from '../state/tab-registry';
import { keepAwake, powerApi } from './awake';
import { mayReach, releaseUnused } from './host-permissions';
import { type SendOutcome, sendTo } from './http';
import { browserSession } from './session';

/**
 * What keeps the night going when nobody watches it, derived from the stored records (state/run-going.ts) whenever
 * they, the settings, the heartbeat or the tabs change: the computer asked to stay awake while a guarded run goes on,
 * every tab of a guarded notebook kept from being discarded, and the heartbeat pinged while a run goes on. What it
 * did last is in storage.session (NightWatch), so a worker stopped and started again carries on from there.
 */

const HEARTBEAT_ALARM = 'heartbeat';

let queued: Promise<void> | null = null;
let chain: Promise<void> = Promise.resolve();

/** One review at a time; the calls that come while one waits to start share it (it reads what they changed). */
export function reviewNight(): Promise<void> {
  queued ??= chain.then(() => {
    queued = null;
    return review();
  });
  chain = queued.catch(() => undefined);
  return queued;
}

/** Whether a storage change can change what the night needs. */
export function nightChanged(names: readonly string[], area: string): boolean {
  if (area === 'session') return registryChanged(names);
  return (
    area === 'local' &&
    names.some((name) => name === SETTINGS_KEY || name === HEARTBEAT_KEY || name.startsWith(NOTEBOOK_PREFIX))
  );
}

async function review(): Promise<void> {
  const [items, session, settings, config] = await Promise.all([
    browser.storage.session.get(null),
    browserSession(),
    loadSettings(),
    loadHeartbeatConfig(),
  ]);
  const was = parseNightWatch(items[NIGHT_WATCH_KEY]);
  const shown = await shownNotebooks(items);
  const going = notebooksGoing(shown, session);

  const canKeepAwake = powerApi() !== null;
  const awake = canKeepAwake && wantsKeepAwake(going, settings);
  if (awake !== was.awake) keepAwake(awake);

  const undiscardable = await protectTabs(guardedTabs(shown), was.undiscardable);

  const target = configuredHeartbeat(config);
  const beat: HeartbeatBeat | null =
    going.length > 0 && target ? { url: target.url, everyMinutes: config.everyMinutes } : null;
  await stepHeartbeat(was.beat, beat);

  const next: NightWatch = { going, awake, canKeepAwake, undiscardable, beat };
  if (JSON.stringify(next) !== JSON.stringify(was)) await browser.storage.session.set({ [NIGHT_WATCH_KEY]: next });
}

async function shownNotebooks(items: Record<string, unknown>): Promise<ShownNotebook[]> {
  const byKey = tabsByNotebookIn(items);
  return Promise.all([...byKey].map(async ([key, tabs]) => ({ record: await loadNotebook(key), tabs })));
}

// ---------------------------------------------------------------------------------------------------------------------
// Tabs not to be discarded

/**
 * Makes the tabs of guarded notebooks not auto-discardable, and gives the others back. A tab the person had made so
 * already is theirs: it is neither counted nor given back. Returns the tabs this extension holds now.
 */
async function protectTabs(want: readonly number[], held: readonly number[]): Promise<number[]> {
  const kept = held.filter((tab) => want.includes(tab));
  await Promise.all(held.filter((tab) => !want.includes(tab)).map((tab) => setDiscardable(tab, true)));
  for (const tab of want.filter((id) => !held.includes(id))) {
    if (await takeDiscardable(tab)) kept.push(tab);
  }
  return kept.sort((a, b) => a - b);
}

async function takeDiscardable(tabId: number): Promise<boolean> {
  const tab = await browser.tabs.get(tabId).catch(() => null);
  if (!tab || tab.autoDiscardable === false) return false;
  return setDiscardable(tabId, false);
}

/** False where the browser refuses it (Firefox for Android) or the tab is gone. */
async function setDiscardable(tabId: number, autoDiscardable: boolean): Promise<boolean> {
  try {
    await browser.tabs.update(tabId, { autoDiscardable });
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// The heartbeat

export async function loadHeartbeatConfig(): Promise<HeartbeatConfig> {
  return parseHeartbeatConfig((await browser.storage.local.get(HEARTBEAT_KEY))[HEARTBEAT_KEY]);
}

/** A run began (or the heartbeat changed while one goes on): `start` now, then a ping every period, by an alarm. */
async function stepHeartbeat(was: HeartbeatBeat | null, beat: HeartbeatBeat | null): Promise<void> {
  switch (heartbeatStep(was, beat)) {
    case 'start':
      if (!beat) return;
      await browser.alarms.create(HEARTBEAT_ALARM, {
        delayInMinutes: beat.everyMinutes,
        periodInMinutes: beat.everyMinutes,
      });
      await ping('start');
      return;
    case 'stop':
      await browser.alarms.clear(HEARTBEAT_ALARM);
      return;
    case 'keep':
    case 'idle':
      return;
  }
}

export function isHeartbeatAlarm(alarm: { name: string }): boolean {
  return alarm.name === HEARTBEAT_ALARM;
}

/** The alarm: a ping while a run goes on; an alarm left from a run that ended (a worker stopped meanwhile) goes. */
export async function heartbeatAlarm(): Promise<void> {
  await reviewNight();
  const { beat } = parseNightWatch((await browser.storage.session.get(NIGHT_WATCH_KEY))[NIGHT_WATCH_KEY]);
  if (beat) await ping('ping');
  else await browser.alarms.clear(HEARTBEAT_ALARM);
}

/** A run ended where nobody will bring it back by itself (gave up, stopped, the tab gone): `fail` at once. */
export async function heartbeatAfter(effects: readonly Effect[]): Promise<void> {
  if (failsRun(effects.map((effect) => effect.kind))) await ping('fail');
}

/** One ping of `kind` to the configured heartbeat, noted for the options page. Never throws. */
async function ping(kind: Exclude<PingKind, 'test'>): Promise<void> {
  try {
    const target = configuredHeartbeat(await loadHeartbeatConfig());
    const url = target && pingUrl(target, kind);
    if (!url) return;
    await notePing({ at: Date.now(), kind, outcome: await pingOnce(url, target.permission) });
  } catch {
    // A heartbeat that cannot even be noted must not fail the review or the event that caused it.
  }
}

let noting: Promise<void> = Promise.resolve();

function notePing(entry: Parameters<typeof withPing>[1]): Promise<void> {
  noting = noting.then(async () => {
    const pings = parsePings((await browser.storage.session.get(HEARTBEAT_LOG_KEY))[HEARTBEAT_LOG_KEY]);
    await browser.storage.session.set({ [HEARTBEAT_LOG_KEY]: withPing(pings, entry) });
  });
  return noting;
}

/** "Send a test ping": once, now, to the saved URL; what happened is the answer. */
export async function sendTestPing(): Promise<AlertTestReply | CommandRefused> {
  const target = configuredHeartbeat(await loadHeartbeatConfig());
  const url = target && pingUrl(target, 'test');
  if (!url) return { ok: false, why: { kind: 'heartbeat-no-url' } };
  return { ok: true, result: await pingOnce(url, target.permission) };
}

/** A GET with nothing of the notebook: only with the site granted and, in Firefox, the consent to website activity. */
async function pingOnce(url: string, permission: string): Promise<SendOutcome> {
  if (!(await mayReach(permission, HEARTBEAT_DATA))) return { kind: 'permission' };
  return sendTo(url, { method: 'GET' });
}

/**
 * A change to the heartbeat. A new URL is saved only with its host permission already granted (the options page asks
 * for it first, in the click); the permission of a URL no longer used is given back. The review that follows the
 * change starts or stops the pings.
 */
export async function updateHeartbeat(patch: HeartbeatPatch): Promise<CommandReply> {
  const current = await loadHeartbeatConfig();
  const next = parseHeartbeatConfig({ ...current, ...patch });
  if (patch.everyMinutes !== undefined && next.everyMinutes !== patch.everyMinutes) {
    return { ok: false, why: { kind: 'heartbeat-every-refused' } };
  }
  const checked = next.url === null ? null : checkHeartbeatUrl(next.url);
  if (checked && !checked.ok) return { ok: false, why: { kind: 'heartbeat-url-refused' } };
  const newUrl = patch.url !== undefined && patch.url !== current.url;
  if (checked && newUrl && !(await mayReach(checked.permission, HEARTBEAT_DATA))) {
    return { ok: false, why: { kind: 'permission-missing' } };
  }
  await browser.storage.local.set({ [HEARTBEAT_KEY]: checked ? { ...next, url: checked.url } : next });
  await releaseUnusedBy(current);
  if (newUrl) await browser.storage.session.remove(HEARTBEAT_LOG_KEY);
  return { ok: true };
}

/** "Clear all data": the heartbeat goes too, and its site's permission is given back (unless alerts use it). */
export async function clearHeartbeat(): Promise<void> {
  const before = await loadHeartbeatConfig();
  await browser.storage.local.remove(HEARTBEAT_KEY);
  await browser.storage.session.remove(HEARTBEAT_LOG_KEY);
  await releaseUnusedBy(before);
}

/** What the heartbeat had (its site, the consent) and neither it nor the alerts use now, given back. */
async function releaseUnusedBy(before: HeartbeatConfig): Promise<void> {
  const was = configuredHeartbeat(before);
  if (was) await releaseUnused([was.permission], HEARTBEAT_DATA);
}
