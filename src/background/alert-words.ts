import { t, tn } from '../lib/i18n';
import { redactSecrets } from '../lib/redact';
import { type AlertWords, exceptionType } from '../state/alert-payload';
import type { AlertEvent, AlertsConfig } from '../state/alerts';
import { notebookAddress } from '../state/notebook-address';
import type { NotifyEffect } from '../state/policy';
import { notificationText } from './notifications';

/**
 * An alert in words a person can act on from the phone: what happened and what the guard did (the notification's
 * words), what happens next, how many like it were held back, and, when the person allows the notebook's name, a link
 * that opens it. Everything but the link has its secrets taken out (lib/redact.ts); the link is the notebook's own
 * address, sent only with the person's leave.
 */

export type AlertableEffect = NotifyEffect & { kind: AlertEvent };

export interface AlertFacts {
  at: number;
  /** The crash loop's restarts used and the notebook's limit when it happened. */
  restarts: { used: number; limit: number };
  /** How many alerts like it were held back since the last one sent. */
  heldBack: number;
}

export function alertWords(
  effect: AlertableEffect,
  config: Pick<AlertsConfig, 'includeTitle' | 'includeErrorLine'>,
  facts: AlertFacts,
): AlertWords {
  const notebook = config.includeTitle ? redactSecrets(effect.title) : null;
  const shown = config.includeErrorLine ? effect : withErrorTypeOnly(effect);
  const { title, message } = notificationText({ ...shown, title: notebook ?? t('alertSomeNotebook') });
  const address = config.includeTitle ? notebookAddress(effect.key) : null;
  const { heldBack } = facts;
  return {
    event: effect.kind,
    at: facts.at,
    title: redactSecrets(title),
    message: redactSecrets(message),
    next: nextWords(effect, facts.restarts),
    heldBack: { count: heldBack, text: heldBack > 0 ? tn('alertHeldBack', heldBack, heldBack) : '' },
    link: address === null ? null : { url: address, label: t('alertOpenNotebook') },
    notebook,
    restarts: facts.restarts,
  };
}

/** A stopped run's line cut to the exception's type ("an error" when the line names none): the cell stays. */
function withErrorTypeOnly(effect: AlertableEffect): AlertableEffect {
  const saw = effect.entry.params?.saw;
  if (effect.kind !== 'run-stopped' || !saw) return effect;
  const params = { ...effect.entry.params, saw: exceptionType(saw) ?? t('alertErrorSomeType') };
  return { ...effect, entry: { ...effect.entry, params } };
}

/** What happens next: restarts left, or what the notebook waits for. */
function nextWords(effect: AlertableEffect, restarts: AlertFacts['restarts']): string {
  switch (effect.kind) {
    case 'restarted':
      return restartsLeft(effect, restarts);
    case 'gave-up':
      return t('alertNextGaveUp');
    case 'ui-problem':
      return t('alertNextUiProblem');
    case 'left-to-person':
      return t('alertNextLeft');
    case 'run-stopped':
      return t('alertNextRunStopped');
    case 'run-finished':
      return t('alertNextWatching');
    case 'tab-gone':
      return t('alertNextTabGone');
  }
}

/** "2 of 3 restarts left": the restart's own count where it has one (a marker restart takes no slot of the loop). */
function restartsLeft(effect: AlertableEffect, restarts: AlertFacts['restarts']): string {
  const p = effect.entry.params ?? {};
  if (p.why === 'marker') return t('alertNextWatching');
  const limit = p.max ?? restarts.limit;
  const left = Math.max(0, limit - (p.n ?? restarts.used));
  return left === 0 ? t('alertNextLastRestart') : tn('alertNextRestartsLeft', limit, left, limit);
}
