import type { MessageKey } from '../lib/i18n';
import { countNight, lastRunEnd, NIGHT_HOURS, NIGHT_MS, type NightMark, nightStart } from '../state/night';
import type { HistoryEntry } from '../state/schema';

/**
 * The night in words ("Last 12 hours: 1 failure, 1 restart, last at 03:14"). The words come from the caller's
 * translator, so the popup passes `t` and the tests read messages.json.
 */

export type Translate = (key: MessageKey, ...substitutions: (string | number)[]) => string;
/** `tn` (lib/i18n.ts): the plural form of a counted message for `count`. */
export type TranslateCounted = (key: MessageKey, count: number, ...substitutions: (string | number)[]) => string;

/** "03:14" or "3:14 AM", as the user's locale writes a clock time (`locale` for tests). */
export function clockTime(at: number, locale?: string): string {
  return new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' }).format(at);
}

type Plural = { none: MessageKey; counted: MessageKey };

const FAILURES: Plural = { none: 'nightFailuresNone', counted: 'nightFailures' };
const RESTARTS: Plural = { none: 'nightRestartsNone', counted: 'nightRestarts' };
const MARKERS: Plural = { none: 'nightMarkersNone', counted: 'nightMarkers' };
const PROBLEMS: Plural = { none: 'nightProblemsNone', counted: 'nightProblems' };

/** "no failures" has words of its own in every language; other counts take their language's plural form. */
function plural(words: NightWords, forms: Plural, count: number): string {
  return count === 0 ? words.t(forms.none) : words.tn(forms.counted, count, count);
}

/** The translators the line is said with: the pages pass `t` and `tn`, the tests read messages.json. */
export type NightWords = { t: Translate; tn: TranslateCounted };

const LAST: Record<NightMark, MessageKey> = {
  failure: 'nightLastAt',
  marker: 'nightLastAt',
  restart: 'nightLastAt',
  'gave-up': 'nightGaveUpAt',
  problem: 'nightProblemAt',
};

const RUN_END: Partial<Record<HistoryEntry['type'], MessageKey>> = {
  'run-finished': 'nightRunFinishedAt',
  'run-stopped': 'nightRunStoppedAt',
  'run-interrupted': 'nightRunInterruptedAt',
};

/**
 * "Since 22:04: 1 failure, 1 restart, last at 03:14, run finished at 06:12" (the night from its first Run all or the
 * switch-on, state/night.ts nightStart; "Last 12 hours" when none); "…, gave up at 04:02" when the guard gave up;
 * markers and UI problems only when there were some; how the newest run ended, when it did. A run an error stopped
 * comes first ("Since 13:32: run stopped by an error at 13:32 (not out of memory), no restarts"), never beside "no
 * failures".
 */
export function nightLine(history: readonly HistoryEntry[], now: number, words: NightWords, locale?: string): string {
  const { t } = words;
  const since = nightStart(history, now);
  const counts = countNight(history, now, since);
  const ended = lastRunEnd(history, now, since);
  const endKey = ended && RUN_END[ended.type];
  const endWords = ended && endKey ? t(endKey, clockTime(ended.at, locale)) : null;
  // A run an error stopped is the night's news: said first, and never beside "no failures".
  const stopped = ended?.type === 'run-stopped' && endWords !== null;
  const parts = stopped ? [endWords] : [];
  if (!stopped || counts.failures > 0) parts.push(plural(words, FAILURES, counts.failures));
  parts.push(plural(words, RESTARTS, counts.restarts));
  if (counts.markers > 0) parts.push(plural(words, MARKERS, counts.markers));
  // One UI problem that is also the last event is said once, at the end ("Colab UI problem at 03:14").
  const problemLast = counts.last?.mark === 'problem' && counts.problems === 1;
  if (counts.problems > 0 && !problemLast) parts.push(plural(words, PROBLEMS, counts.problems));
  if (counts.last) parts.push(t(LAST[counts.last.mark], clockTime(counts.last.at, locale)));
  if (endWords !== null && !stopped) parts.push(endWords);
  // Each language joins the parts its own way ("、" in Japanese): a message that joins two, folded over the list.
  const list = parts.reduce((joined, part) => t('nightJoin', joined, part));
  if (since === now - NIGHT_MS) return t('nightLine', NIGHT_HOURS, list);
  return t('nightSince', clockTime(since, locale), list);
}
