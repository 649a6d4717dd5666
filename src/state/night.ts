import type { MessageKey } from '../lib/i18n';
import { disconnectKindOf } from './disconnect';
import type { HistoryEntry } from './schema';

/**
 * "The night at a glance": what happened to a notebook in the last 12 hours, in words ("Last 12 hours: 1 failure,
 * 1 restart, last at 03:14") and as marks for the timeline. Pure: the words come from the caller's translator, so the
 * popup passes `t` and the tests read messages.json.
 */

/** Long enough for an overnight run, short enough to start fresh the next evening: badge, line and timeline. */
export const NIGHT_HOURS = 12;
export const NIGHT_MS = NIGHT_HOURS * 60 * 60_000;

/** What a history entry counts as in the summary: a failure, a restart marker, a restart, a give-up, a UI problem. */
export type NightMark = 'failure' | 'marker' | 'restart' | 'gave-up' | 'problem';

export function nightMark(entry: HistoryEntry): NightMark | null {
  switch (entry.type) {
    case 'restart-scheduled':
      return entry.verdict?.rule === 'restart-marker' ? 'marker' : 'failure';
    // An interrupted restart's outcome is unknown; it counts as a restart, as the crash loop counts it.
    case 'restarted':
    case 'interrupted':
      return 'restart';
    case 'gave-up':
      return 'gave-up';
    // Colab unable to connect (an outage) is no UI problem: its attempts show as the countdowns they started.
    case 'restart-failed':
      return disconnectKindOf(entry.verdict) === 'unable-to-connect' ? null : 'problem';
    default:
      return null;
  }
}

export interface NightCounts {
  /** Failures that started a countdown, and the one the guard gave up on. */
  failures: number;
  markers: number;
  restarts: number;
  problems: number;
  /** The newest counted entry: it decides how the line ends ("last at", "gave up at"). */
  last: { at: number; mark: NightMark } | null;
}

export function countNight(history: readonly HistoryEntry[], now: number): NightCounts {
  const counts: NightCounts = { failures: 0, markers: 0, restarts: 0, problems: 0, last: null };
  for (const entry of history) {
    const mark = nightMark(entry);
    if (!mark || entry.at < now - NIGHT_MS || entry.at > now) continue;
    if (mark === 'failure' || mark === 'gave-up') counts.failures++;
    else if (mark === 'marker') counts.markers++;
    else if (mark === 'restart') counts.restarts++;
    else counts.problems++;
    if (!counts.last || entry.at >= counts.last.at) counts.last = { at: entry.at, mark };
  }
  return counts;
}

/** Restarts in the last 12 hours: the badge's number. */
export function restartsTonight(history: readonly HistoryEntry[], now: number): number {
  return countNight(history, now).restarts;
}

export type Translate = (key: MessageKey, ...substitutions: (string | number)[]) => string;

/** "03:14" or "3:14 AM", as the user's locale writes a clock time (`locale` for tests). */
export function clockTime(at: number, locale?: string): string {
  return new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' }).format(at);
}

type Plural = { none: MessageKey; one: MessageKey; many: MessageKey };

const FAILURES: Plural = { none: 'nightFailuresNone', one: 'nightFailuresOne', many: 'nightFailuresMany' };
const RESTARTS: Plural = { none: 'nightRestartsNone', one: 'nightRestartsOne', many: 'nightRestartsMany' };
const MARKERS: Plural = { none: 'nightMarkersNone', one: 'nightMarkersOne', many: 'nightMarkersMany' };
const PROBLEMS: Plural = { none: 'nightProblemsNone', one: 'nightProblemsOne', many: 'nightProblemsMany' };

/** English has one singular; a locale with more plural forms would add keys here (chrome.i18n has no plurals). */
function plural(t: Translate, forms: Plural, count: number): string {
  if (count === 0) return t(forms.none);
  return count === 1 ? t(forms.one) : t(forms.many, count);
}

const LAST: Record<NightMark, MessageKey> = {
  failure: 'nightLastAt',
  marker: 'nightLastAt',
  restart: 'nightLastAt',
  'gave-up': 'nightGaveUpAt',
  problem: 'nightProblemAt',
};

/**
 * "Last 12 hours: 1 failure, 1 restart, last at 03:14"; "…, gave up at 04:02" when the guard gave up; markers and
 * UI problems only when there were some.
 */
export function nightLine(history: readonly HistoryEntry[], now: number, t: Translate, locale?: string): string {
  const counts = countNight(history, now);
  const parts = [plural(t, FAILURES, counts.failures), plural(t, RESTARTS, counts.restarts)];
  if (counts.markers > 0) parts.push(plural(t, MARKERS, counts.markers));
  // One UI problem that is also the last event is said once, at the end ("Colab UI problem at 03:14").
  const problemLast = counts.last?.mark === 'problem' && counts.problems === 1;
  if (counts.problems > 0 && !problemLast) parts.push(plural(t, PROBLEMS, counts.problems));
  if (counts.last) parts.push(t(LAST[counts.last.mark], clockTime(counts.last.at, locale)));
  return t('nightLine', NIGHT_HOURS, parts.join(', '));
}
