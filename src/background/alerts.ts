import browser from 'webextension-polyfill';
import { t } from '../lib/i18n';
import { createQueue } from '../lib/queue';
import type { AlertsPatch, AlertTestReply } from '../messaging/protocol';
import {
  ALERT_LOG_KEY,
  type AlertKind,
  type AlertLog,
  type AlertRequest,
  admitAlert,
  afterFailure,
  afterSuccess,
  dueAlerts,
  nextDue,
  type PendingAlert,
  parseAlertLog,
  queueAlert,
  withoutAlert,
} from '../state/alert-delivery';
import { type AlertWords, alertRequest, authorized } from '../state/alert-payload';
import {
  ALERT_DATA,
  ALERT_NAME_DATA,
  ALERTS_KEY,
  type AlertsConfig,
  alertDataCategories,
  checkAlertUrl,
  configuredReceiver,
  parseAlertsConfig,
  type Receiver,
  secretProblem,
  shouldAlert,
  TOKEN_KINDS,
} from '../state/alerts';
import type { CommandRefused, CommandReply } from '../state/policy';
import { type Effect, effectiveMaxRestarts } from '../state/policy';
import type { NotebookRecord, Settings } from '../state/schema';
import { type AlertableEffect, alertWords } from './alert-words';
import { mayReach, releaseUnused } from './host-permissions';
import { type SendOutcome, sendTo } from './http';

/**
 * Alerts to the URL the person chose, sent from the service worker. Nothing here is awaited by the guard: a restart
 * never waits for a receiver. Each alert is stored before its first try and tried again after a failure (the delays
 * of state/alert-delivery.ts, or longer when the receiver asks), by a timer while the worker lives and by an alarm
 * after it was stopped. One alert per event kind per notebook goes in 5 minutes; the next says how many were held.
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

/**
 * The policy's effects that the person chose to be alerted of, queued and sent; one held back when one like it went
 * less than 5 minutes ago. Never throws.
 */
export async function alertEffects(effects: Effect[], record: NotebookRecord, settings: Settings): Promise<void> {
  // Most events have no effect: their settings are not even read.
  if (effects.length === 0) return;
  try {
    const config = await loadAlertsConfig();
    const receiver = configuredReceiver(config);
    const chosen = effects.filter((effect): effect is AlertableEffect => shouldAlert(config, effect.kind));
    if (!receiver || chosen.length === 0) return;
    const at = Date.now();
    const restarts = { used: record.loopCount, limit: effectiveMaxRestarts(record, settings) };
    await updateLog((log) =>
      chosen.reduce((queued, effect) => {
        const admitted = admitAlert(queued, effect.key, effect.kind, at);
        if (!admitted.send) return admitted.log;
        const words = alertWords(effect, config, { at, restarts, heldBack: admitted.heldBack });
        const alert = {
          id: crypto.randomUUID(),
          event: effect.kind,
          dueAt: at,
          request: alertRequest(receiver, words),
        };
        return queueAlert(admitted.log, alert);
      }, log),
    );
    await deliverDue();
  } catch {
    // An alert that could not even be queued must not fail the event that caused it.
  }
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
    const receiver = configuredReceiver(config);
    // The URL changed or went since it was queued: the alert was for a receiver the person no longer wants.
    if (!receiver || receiver.url !== alert.request.url) {
      await updateLog((log) => withoutAlert(log, alert.id));
      return;
    }
    const outcome = await send(alert.request, receiver, config);
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

/**
 * One POST, as the receiver's kind wants it, with its secrets. Needs the host permission the options page asked for
 * (and, in Firefox, the consent to the data it sends).
 */
async function send(request: AlertRequest, receiver: Receiver, config: AlertsConfig): Promise<SendOutcome> {
  if (!(await allowed(receiver, config))) return { kind: 'permission' };
  const { url, headers, body } = authorized(request, receiver);
  return sendTo(url, { method: 'POST', headers, body });
}

function allowed(receiver: Receiver, config: AlertsConfig): Promise<boolean> {
  return mayReach(receiver.permission, alertDataCategories(config));
}

/** "Send a test alert": once, now, to the saved URL; what happened is the answer (a failure is not retried). */
export async function sendTestAlert(): Promise<AlertTestReply | CommandRefused> {
  const config = await loadAlertsConfig();
  const receiver = configuredReceiver(config);
  if (!receiver) return { ok: false, why: { kind: 'alerts-no-url' } };
  const words: AlertWords = {
    event: 'test' satisfies AlertKind,
    at: Date.now(),
    title: t('alertTestTitle'),
    message: t('alertTestBody'),
    next: '',
    heldBack: { count: 0, text: '' },
    link: null,
    notebook: null,
    restarts: { used: 0, limit: 0 },
  };
  return { ok: true, result: await send(alertRequest(receiver, words), receiver, config) };
}

/**
 * A change to the alert settings. A new URL is saved only with its host permission already granted (the options page
 * asks for it first), so nothing is saved half; the permission of a URL no longer used is given back. A token belongs
 * to the host it was typed for: a URL on another host drops the saved one unless a new one comes with it.
 */
export async function updateAlerts(patch: AlertsPatch): Promise<CommandReply> {
  const current = await loadAlertsConfig();
  const next: AlertsConfig = { ...current, ...patch, events: { ...current.events, ...patch.events } };
  const checked = next.url === null ? null : checkAlertUrl(next.url, next.kind);
  if (checked && !checked.ok) return { ok: false, why: { kind: 'alerts-url-refused' } };
  const before = current.url === null ? null : checkAlertUrl(current.url, current.kind);
  const sameHost = before?.ok === true && before.permission === checked?.permission;
  const token = patch.token !== undefined ? patch.token : sameHost ? current.token : null;
  const stored: AlertsConfig = {
    ...next,
    url: checked?.url ?? null,
    token: checked && TOKEN_KINDS.includes(checked.kind) ? token : null,
    chatId: checked?.kind === 'telegram' ? next.chatId : null,
  };
  const secret = checked && secretProblem(checked.kind, stored.token, stored.chatId);
  if (secret) return { ok: false, why: { kind: 'alerts-secret', secret } };
  // Checked for what newly leaves the browser only: a lost permission must not keep the events from being saved.
  const receiver = configuredReceiver(stored);
  const newlySent = patch.url !== undefined && patch.url !== current.url;
  const nameNewlySent = stored.includeTitle && !current.includeTitle;
  if (receiver && (newlySent || nameNewlySent) && !(await allowed(receiver, stored))) {
    return { ok: false, why: { kind: newlySent ? 'permission-missing' : 'consent-refused' } };
  }
  await browser.storage.local.set({ [ALERTS_KEY]: stored });
  await giveBackUnused(current);
  if (stored.url !== current.url || stored.kind !== current.kind || stored.chatId !== current.chatId) {
    await updateLog((log) => ({ ...log, pending: [], failures: [] }));
  }
  return { ok: true };
}

/**
 * What the old settings needed and the stored ones (or the heartbeat) do not: the URL's host, the consent to the data
 * alerts send, the consent to send the notebook's name.
 */
async function giveBackUnused(before: AlertsConfig): Promise<void> {
  if (before.url === null) return;
  const was = checkAlertUrl(before.url, before.kind);
  await releaseUnused(was.ok ? [was.permission] : [], [...ALERT_DATA, ALERT_NAME_DATA]);
}

/** "Clear all data": the alert settings and their log go too, and the URL's permission is given back. */
export async function clearAlerts(): Promise<void> {
  const config = await loadAlertsConfig();
  await writes.run(ALERT_LOG_KEY, () => browser.storage.local.remove([ALERTS_KEY, ALERT_LOG_KEY]));
  await giveBackUnused(config);
}
