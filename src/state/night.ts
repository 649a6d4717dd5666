import { disconnectKindOf } from './disconnect';
import type { HistoryEntry } from './schema';

/**
 * "The night at a glance": what happened to a notebook in the last 12 hours, counted, and as marks for the timeline
 * (ui/night-text.ts says it in words).
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

/** Counted from `since` (the night's start, nightStart) to `now`. */
export function countNight(history: readonly HistoryEntry[], now: number, since = now - NIGHT_MS): NightCounts {
  const counts: NightCounts = { failures: 0, markers: 0, restarts: 0, problems: 0, last: null };
  for (const entry of history) {
    const mark = nightMark(entry);
    if (!mark || entry.at < since || entry.at > now) continue;
    if (mark === 'failure' || mark === 'gave-up') counts.failures++;
    else if (mark === 'marker') counts.markers++;
    else if (mark === 'restart') counts.restarts++;
    else counts.problems++;
    if (!counts.last || entry.at >= counts.last.at) counts.last = { at: entry.at, mark };
  }
  return counts;
}

/** A run under way at the window's edge is followed this far back at most: its end may have gone unrecorded. */
const LONGEST_NIGHT_MS = 2 * NIGHT_MS;

const BEGINS: ReadonlySet<HistoryEntry['type']> = new Set(['run-started', 'enabled']);
const ENDS: ReadonlySet<HistoryEntry['type']> = new Set([
  'run-finished',
  'run-stopped',
  'run-interrupted',
  'gave-up',
  'disabled',
]);

/**
 * When the night began: the evening's first Run all or switching the guard on, within the last 12 hours; or the
 * start of a run still under way 12 hours ago (a long run's own start, up to 24 hours back); else 12 hours ago.
 */
export function nightStart(history: readonly HistoryEntry[], now: number): number {
  const edge = now - NIGHT_MS;
  let first: number | null = null;
  let underWay: number | null = null;
  for (const entry of history) {
    // A switch-on the worker dated a moment after a page's clock last ticked still begins this night.
    if (entry.at > now) {
      if (BEGINS.has(entry.type)) first ??= now;
      continue;
    }
    if (BEGINS.has(entry.type)) {
      if (entry.at >= edge) first ??= entry.at;
      else underWay = entry.at >= now - LONGEST_NIGHT_MS ? entry.at : null;
    } else if (ENDS.has(entry.type) && entry.at < edge) underWay = null;
  }
  return underWay ?? first ?? edge;
}

/** How the newest run of the night ended, if one did. */
export function lastRunEnd(history: readonly HistoryEntry[], now: number, since: number): HistoryEntry | null {
  return (
    history.findLast(
      (entry) =>
        entry.at >= since &&
        entry.at <= now &&
        (entry.type === 'run-finished' || entry.type === 'run-stopped' || entry.type === 'run-interrupted'),
    ) ?? null
  );
}

/** Restarts in the last 12 hours: the badge's number. */
export function restartsTonight(history: readonly HistoryEntry[], now: number): number {
  return countNight(history, now).restarts;
}
