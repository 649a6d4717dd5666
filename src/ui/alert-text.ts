import { type MessageKey, t } from '../lib/i18n';
import type { AlertKind, DeliveryError } from '../state/alert-delivery';
import type { ReceiverKind, SecretProblem, UrlProblem } from '../state/alerts';

/** The words of the alert settings and their results, shared by the options page and the popup. */

const EVENT_LABELS: Record<AlertKind, MessageKey> = {
  'gave-up': 'alertEventGaveUp',
  'run-stopped': 'alertEventRunStopped',
  'ui-problem': 'alertEventUiProblem',
  'left-to-person': 'alertEventLeft',
  restarted: 'alertEventRestarted',
  'run-finished': 'alertEventRunFinished',
  'tab-gone': 'alertEventTabGone',
  test: 'alertEventTest',
};

export function alertEventLabel(event: AlertKind): string {
  return t(EVENT_LABELS[event]);
}

const RECEIVER_NAMES: Record<ReceiverKind, MessageKey> = {
  ntfy: 'alertKindNtfy',
  telegram: 'alertKindTelegram',
  slack: 'alertKindSlack',
  discord: 'alertKindDiscord',
  json: 'alertKindJson',
};

export function receiverName(kind: ReceiverKind): string {
  return t(RECEIVER_NAMES[kind]);
}

const URL_PROBLEMS: Record<UrlProblem, MessageKey> = {
  empty: 'alertUrlEmpty',
  'not-a-url': 'alertUrlInvalid',
  'too-long': 'alertUrlTooLong',
  'not-https': 'alertUrlHttps',
  credentials: 'alertUrlCredentials',
  'slack-path': 'alertUrlSlack',
  'discord-path': 'alertUrlDiscord',
  'ntfy-topic': 'alertUrlNtfy',
  'telegram-path': 'alertUrlTelegram',
};

export function urlProblemText(problem: UrlProblem): string {
  return t(URL_PROBLEMS[problem]);
}

/** The same problems of a heartbeat URL: an empty field and plain http are said for a heartbeat, not an alert. */
export function heartbeatUrlProblemText(problem: UrlProblem): string {
  if (problem === 'empty') return t('heartbeatUrlEmpty');
  if (problem === 'not-https') return t('heartbeatUrlHttps');
  return urlProblemText(problem);
}

const SECRET_PROBLEMS: Record<SecretProblem, MessageKey> = {
  'telegram-token': 'alertSecretTelegramToken',
  'telegram-chat': 'alertSecretTelegramChat',
  'token-chars': 'alertSecretTokenChars',
};

export function secretProblemText(problem: SecretProblem): string {
  return t(SECRET_PROBLEMS[problem]);
}

export function deliveryErrorText(error: DeliveryError): string {
  switch (error.kind) {
    case 'http':
      if (error.waitSec !== undefined) return t('alertErrorHttpWait', error.status, error.waitSec);
      return error.detail ? t('alertErrorHttpDetail', error.status, error.detail) : t('alertErrorHttp', error.status);
    case 'network':
      return t('alertErrorNetwork', error.message);
    case 'timeout':
      return t('alertErrorTimeout');
    case 'permission':
      return t('alertErrorPermission');
    case 'redirect':
      return t('alertErrorRedirect');
  }
}
