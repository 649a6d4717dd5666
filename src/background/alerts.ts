import browser from 'webextension-polyfill';
import { t } from '../lib/i18n';
import { createQueue } from '../lib/queue';
import type { AlertsPatch, AlertTestReply } from '../messaging/protocol';
import {
  ALERT_LOG_KEY,
  type AlertKind,
  type AlertLog,
  type AlertRequest,
  afterFailure,
  afterSuccess,
  dueAlerts,
  nextDue,
  type PendingAlert,
  parseAlertLog,
  queueAlert,
  withoutAlert,
} from '../state/alert-delivery';
import { type AlertWords, alertRequest } from '../state/alert-payload';
import {
  ALERTS_KEY,
  type AlertEvent,
  type AlertsConfig,
  checkAlertUrl,
  configuredReceiver,
  parseAlertsConfig,
  shouldAlert,
} from '../state/alerts';
import type { CommandReply } from '../state/policy';
import { type Effect, effectiveMaxRestarts } from '../state/policy';
import type { NotebookRecord, Settings } from '../state/schema';
import { releaseHost } from './host-permissions';
import { type SendOutcome, sendTo } from './http';
import { notificationText } from './notifications';

/**
 * Alerts to the URL the person chose, sent from the service worker. Nothing here is awaited by the guard: a restart
 * never waits for a receiver. Each alert is stored before its first try and tried again after a failure (the delays
 * of state/alert-delivery.ts), by a timer while the worker lives and by an alarm after it was stopped.
 */

const RETRY_ALARM = 'alert-retry';

const writes = createQueue<string>();
/** The alerts being sent by this worker now: a second look at the log must not send them twice. */
const inFlight = new Set<string>();
let timer: ReturnType<typeof setTimeout> | undefined;

export async function loadAlertsConfig(): Promise<AlertsConfig> {
  return parseAlertsConfig((await browser.storage.local.get(ALERTS_KEY))[ALERTS_KEY]);
}

async function loadLog(): Promise<AlertLog> {
  return parseAlertLog((await browser.storage.local.get(ALERT_LOG_KEY))[ALERT_LOG_KEY]);
}

function updateLog(change: (log: AlertLog) => AlertLog): Promise<AlertLog> {
  return writes.run(ALERT_LOG_KEY, async () => {
    const next = change(await loadLog());
    await browser.storage.local.set({ [ALERT_LOG_KEY]: next });
    return next;
  });
}

type AlertableEffect = Effect & { kind: AlertEvent };

/** The policy's effects that the person chose to be alerted of, queued and sent. Never throws. */
export async function alertEffects(effects: Effect[], record: NotebookRecord, settings: Settings): Promise<void> {
  // Most events have no effect: their settings are not even read.
  if (effects.length === 0) return;
  try {
    const config = await loadAlertsConfig();
    const receiver = configuredReceiver(config);
    const chosen = effects.filter((effect): effect is AlertableEffect => shouldAlert(config, effect.kind));
    if (!receiver || chosen.length === 0) return;
    const now = Date.now();
    const restarts = { used: record.loopCount, limit: effectiveMaxRestarts(record, settings) };
    await updateLog((log) =>
      chosen.reduce((queued, effect) => {
        const words = effectWords(effect, config, restarts, now);
        const request = alertRequest(receiver.kind, receiver.url, words);
        return queueAlert(queued, { id: crypto.randomUUID(), event: effect.kind, dueAt: now, request });
      }, log),
    );
    await deliverDue();
  } catch {
    // An alert that could not even be queued must not fail the event that caused it.
  }
}

/** The notification's words; the notebook's name only if the person allowed it to leave the browser. */
function effectWords(
  effect: AlertableEffect,
  config: AlertsConfig,
  restarts: AlertWords['restarts'],
  at: number,
): AlertWords {
  const notebook = config.includeTitle ? effect.title : null;
  const { title, message } = notificationText({ ...effect, title: notebook ?? t('alertSomeNotebook') });
  return { event: effect.kind, at, title, message, notebook, restarts };
}

/** Sends every alert that is due, then waits for the next one. */
export async function deliverDue(): Promise<void> {
  const log = await loadLog();
  const due = dueAlerts(log, Date.now()).filter((alert) => !inFlight.has(alert.id));
  await Promise.all(due.map(deliver));
  scheduleNext(await loadLog());
}

async function deliver(alert: PendingAlert): Promise<void> {
  inFlight.add(alert.id);
  try {
    const config = await loadAlertsConfig();
    // The URL changed or went since it was queued: the alert was for a receiver the person no longer wants.
    if (configuredReceiver(config)?.url !== alert.request.url) {
      await updateLog((log) => withoutAlert(log, alert.id));
      return;
    }
    const outcome = await send(alert.request);
    await updateLog((log) =>
      outcome.kind === 'sent' ? afterSuccess(log, alert.id) : afterFailure(log, alert.id, outcome, Date.now()),
    );
  } finally {
    inFlight.delete(alert.id);
  }
}

function scheduleNext(log: AlertLog): void {
  clearTimeout(timer);
  const due = nextDue(log);
  if (due === null) {
    void browser.alarms.clear(RETRY_ALARM);
    return;
  }
  // The timer serves a worker still running; the alarm one that was stopped (alarms fire 30 s late at the soonest).
  timer = setTimeout(() => void deliverDue(), Math.max(0, due - Date.now()));
  void browser.alarms.create(RETRY_ALARM, { when: Math.max(due, Date.now() + 30_000) });
}

export function isRetryAlarm(alarm: { name: string }): boolean {
  return alarm.name === RETRY_ALARM;
}

/** One POST, as the receiver's kind wants it. Needs the host permission the options page asked for. */
function send(request: AlertRequest): Promise<SendOutcome> {
  return sendTo(request.url, { method: 'POST', headers: request.headers, body: request.body });
}

/** "Send a test alert": once, now, to the saved URL; what happened is the answer (a failure is not retried). */
export async function sendTestAlert(): Promise<AlertTestReply | { ok: false; message: string }> {
  const config = await loadAlertsConfig();
  const receiver = configuredReceiver(config);
  if (!receiver) return { ok: false, message: t('alertsNoUrl') };
  const words: AlertWords = {
    event: 'test' satisfies AlertKind,
    at: Date.now(),
    title: t('alertTestTitle'),
    message: t('alertTestBody'),
    notebook: null,
    restarts: { used: 0, limit: 0 },
  };
  return { ok: true, result: await send(alertRequest(receiver.kind, receiver.url, words)) };
}

/**
 * A change to the alert settings. A new URL is saved only with its host permission already granted (the options page
 * asks for it first), so nothing is saved half; the permission of a URL no longer used is given back.
 */
export async function updateAlerts(patch: AlertsPatch): Promise<CommandReply> {
  const current = await loadAlertsConfig();
  const next: AlertsConfig = {
    ...current,
    ...patch,
    events: { ...current.events, ...patch.events },
  };
  const receiver = next.url === null ? null : checkAlertUrl(next.url, next.kind);
  if (receiver && !receiver.ok) return { ok: false, message: t('alertsUrlRefused') };
  // Checked for a new URL only: a lost permission must not also keep the events or the offer from being saved.
  const newUrl = patch.url !== undefined && patch.url !== current.url;
  if (receiver && newUrl && !(await browser.permissions.contains({ origins: [receiver.permission] }))) {
    return { ok: false, message: t('alertsPermissionMissing') };
  }
  const stored: AlertsConfig = receiver ? { ...next, url: receiver.url } : next;
  await browser.storage.local.set({ [ALERTS_KEY]: stored });
  const before = configuredReceiver(current);
  if (before && before.permission !== (receiver?.permission ?? null)) await releaseHost(before.permission);
  if (stored.url !== current.url) await updateLog((log) => ({ ...log, pending: [], failures: [] }));
  return { ok: true };
}

/** "Clear all data": the alert settings and their log go too, and the URL's permission is given back. */
export async function clearAlerts(): Promise<void> {
  const receiver = configuredReceiver(await loadAlertsConfig());
  await writes.run(ALERT_LOG_KEY, () => browser.storage.local.remove([ALERTS_KEY, ALERT_LOG_KEY]));
  if (receiver) await releaseHost(receiver.permission);
}
