import { redactSecrets } from '../lib/redact';
import type { CheckUiReply } from '../messaging/protocol';
import type { AlertLog } from '../state/alert-delivery';
import { ALERT_EVENTS, type AlertsConfig, checkAlertUrl } from '../state/alerts';
import { failedStepText } from '../state/failed-step';
import type { HistoryEntry, NotebookRecord, Settings } from '../state/schema';

/**
 * "Copy diagnostics": what a bug report needs, as plain text in English (the maintainers read it, whatever the UI's
 * language): versions, settings, how alerts are set up (never where they go, nor their secrets), Colab's UI check with
 * what its selectors found, each notebook's state, and the last events with every internal id the everyday view leaves
 * out (rule, step, tab). Notebooks are numbered, never named, and no notebook text goes in beyond failure lines; the
 * whole text has query strings and token-like strings taken out (lib/redact.ts), as alerts have.
 */

/** How many events a report carries, newest last. */
export const DIAGNOSTIC_EVENTS = 50;

export interface DiagnosticsInput {
  extensionVersion: string;
  browser: string;
  uiLanguage: string;
  settings: Settings;
  /** The alert settings and their delivery log; absent where they could not be read. */
  alerts?: { config: AlertsConfig; log: AlertLog };
  notebooks: readonly NotebookRecord[];
  /** The popup tab's UI check (the dry run), or 'no-answer' when its page did not answer; absent in the options. */
  check?: CheckUiReply | 'no-answer';
  now: number;
}

export function diagnosticsText(input: DiagnosticsInput): string {
  const labels = new Map(input.notebooks.map((record, i) => [record.key, `nb${i + 1}`]));
  const text = [
    'Colab OOM Guard diagnostics',
    `Generated: ${iso(input.now)}`,
    `Extension: ${input.extensionVersion}`,
    `Browser: ${input.browser}`,
    `Browser language: ${input.uiLanguage}`,
    '',
    `Settings: ${JSON.stringify(input.settings)}`,
    ...(input.alerts ? [alertsLine(input.alerts.config, input.alerts.log)] : []),
    '',
    ...checkLines(input.check),
    `Notebooks: ${input.notebooks.length}`,
    ...input.notebooks.map((record) => notebookLine(labels.get(record.key) ?? '?', record)),
    '',
    `Last ${DIAGNOSTIC_EVENTS} events (oldest first):`,
    ...lastEvents(input.notebooks, labels).map(({ label, entry }) => eventLine(label, entry)),
    ...captureLines(input),
  ].join('\n');
  return redactSecrets(text);
}

/** "Alerts: telegram, token set, chat set; events gave-up, run-stopped; name off, error line off; 1 waiting; …". */
export function alertsLine(config: AlertsConfig, log: AlertLog): string {
  if (config.url === null) return 'Alerts: none';
  const checked = checkAlertUrl(config.url, config.kind);
  const receiver = checked.ok ? checked.kind : `unusable URL (${checked.problem})`;
  const secrets = [config.token === null ? 'no token' : 'token set', ...(config.chatId === null ? [] : ['chat set'])];
  const events = ALERT_EVENTS.filter((event) => config.events[event]);
  const failures = log.failures.map(({ error, final }) => `${failureWords(error)}${final ? ' (final)' : ''}`);
  return [
    `Alerts: ${receiver}${config.kind === 'auto' ? '' : ' (chosen)'}, ${secrets.join(', ')}`,
    `events ${events.join(', ') || 'none'}`,
    `name ${config.includeTitle ? 'on' : 'off'}, error line ${config.includeErrorLine ? 'on' : 'off'}`,
    `${log.pending.length} waiting${log.pausedUntil === undefined ? '' : ` until ${iso(log.pausedUntil)}`}`,
    `last failures: ${failures.join(', ') || 'none'}`,
  ].join('; ');
}

function failureWords(error: AlertLog['failures'][number]['error']): string {
  switch (error.kind) {
    case 'http':
      return `http ${error.status}${error.waitSec === undefined ? '' : ` (wait ${error.waitSec} s)`}`;
    case 'network':
      return `network (${error.message})`;
    default:
      return error.kind;
  }
}

/**
 * What the guard met in the Colab tab's page (the check's Runtime menu, the dialogs and notices of its last actions),
 * as one line of JSON: saved as a file in test/fixtures/captures/, it is replayed by the unit tests.
 */
function captureLines({ check, extensionVersion, now }: DiagnosticsInput): string[] {
  const captures = typeof check === 'object' ? (check.captures ?? []) : [];
  if (!captures.length) return [];
  const source = `Copy diagnostics, Colab OOM Guard ${extensionVersion}, ${iso(now)}`;
  return [
    '',
    `What the guard met in Colab's page (${captures.length}; structure only: tags, attributes, the labels of ` +
      'buttons and menu items, no notebook text):',
    JSON.stringify({ source, captures }),
  ];
}

function checkLines(check: DiagnosticsInput['check']): string[] {
  if (check === undefined) return [];
  if (check === 'no-answer') return ['Colab UI check: the page did not answer (reload the Colab tab)', ''];
  const language = `Colab interface language: ${check.language || 'unknown'}`;
  if (check.ready) return [`Colab UI check: ready; ${check.detail}`, language, ''];
  const { step, reason, saw } = check.failed;
  return [`Colab UI check: not ready at step ${step} (${reason}); saw: ${saw}`, language, ''];
}

/** "nb1 (drive): on, pending (failure, restart-and-run-all, rule torch-cuda-oom); crash loop 1, lifetime 4" */
function notebookLine(label: string, record: NotebookRecord): string {
  const kind = record.key.slice(0, record.key.indexOf(':'));
  const { status } = record;
  const detail: string[] = [];
  if (status.kind === 'pending' || status.kind === 'restarting') {
    detail.push(status.reason, status.action, `tab ${status.ownerTab}`);
  }
  if (status.kind === 'pending') detail.push(`rule ${status.verdict.rule}`);
  if (status.kind === 'pending' && status.askedAt !== undefined) detail.push(`asked at ${iso(status.askedAt)}`);
  if (status.kind === 'ui-problem') detail.push(`step ${failedStepText(status.failed)}`);
  const state = detail.length ? `${status.kind} (${detail.join(', ')})` : status.kind;
  const blind = record.blindSince === undefined ? '' : `; blind since ${iso(record.blindSince)}`;
  const limit = record.overrides.maxRestarts === undefined ? '' : ` of its own ${record.overrides.maxRestarts}`;
  return (
    `${label} (${kind}): ${record.enabled ? 'on' : 'off'}, ${state}; crash loop ${record.loopCount}${limit}, ` +
    `lifetime ${record.totalRestarts}${blind}`
  );
}

function lastEvents(notebooks: readonly NotebookRecord[], labels: Map<string, string>) {
  const all = notebooks.flatMap((record) =>
    record.history.map((entry) => ({ label: labels.get(record.key) ?? '?', entry })),
  );
  return all.sort((a, b) => a.entry.at - b.entry.at).slice(-DIAGNOSTIC_EVENTS);
}

/** One event with its data as stored: "2026-11-28T03:10:00.000Z nb1 restart-scheduled n=1 max=3 delaySec=5 …". */
function eventLine(label: string, entry: HistoryEntry): string {
  const fields = Object.entries(entry.params ?? {})
    .filter(([key]) => key !== 'saw')
    .map(([key, value]) => `${key}=${value}`);
  if (entry.action) fields.push(`action=${entry.action}`);
  if (entry.verdict) fields.push(`category=${entry.verdict.category}`, `rule=${entry.verdict.rule}`);
  if (entry.failed) fields.push(`step=${entry.failed.step}`, `reason=${entry.failed.reason}`);
  const lines = [`${iso(entry.at)} ${label} ${entry.type}${fields.length ? ` ${fields.join(' ')}` : ''}`];
  // The failure line, what Colab said or a step saw: the only text from the page a report carries.
  const said = entry.verdict?.line || entry.params?.saw || entry.failed?.saw || entry.detail;
  if (said) lines.push(`  ${said}`);
  return lines.join('\n');
}

function iso(at: number): string {
  return new Date(at).toISOString();
}
