import { t } from '../lib/i18n';
import type { RestartReason, Verdict } from '../state/schema';
import { verdictName } from './verdict-name';

/**
 * The countdown's words, shared by the popup and the in-page notice (which loads only this, not the popup's texts):
 * what was found, what will happen, and the time left in m:ss.
 */

/** What was found, as the countdown names it: the verdict's own words for a failure and a disconnect. */
export function foundText(reason: RestartReason, verdict: Verdict | undefined): string {
  switch (reason) {
    case 'failure':
      return verdict ? verdictName(verdict) : t('timelineFailure');
    case 'crash':
      return t('categoryColabCrash');
    case 'marker':
      return t('countdownMarkerWhat');
    case 'disconnect':
      return verdict ? verdictName(verdict) : t('countdownDisconnectWhat');
  }
}

/**
 * "CUDA out of memory: restart and run all in 0:05"; after Colab's RAM crash "Run all in 0:05" (Colab restarted the
 * session itself); a marker and a disconnect say what they will do.
 */
export function countdownText(reason: RestartReason, what: string, left: string): string {
  switch (reason) {
    case 'failure':
      return t('countdownRestart', what, left);
    case 'crash':
      return t('countdownRunAll', left);
    case 'marker':
      return t('countdownMarker', left);
    case 'disconnect':
      return t('countdownReconnect', what, left);
  }
}

/** Seconds as a countdown shows them: 0:05, 5:00, 1:00:00. */
export function clock(seconds: number): string {
  const whole = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
