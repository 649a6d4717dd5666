import { t, tn } from '../lib/i18n';
import { nightStart } from '../state/night';
import type { NotebookRecord } from '../state/schema';
import { nightLine } from './night-text';
import { eventText, formatTime } from './text';

/**
 * "Copy night log": a notebook's night as plain text to paste into a message, in the history's own words. The night
 * is the one the status box and the timeline show (state/night.ts nightStart); times carry the day when not today.
 */
export function nightLogText(record: NotebookRecord, name: string, now: number, state: string): string {
  const { history } = record;
  const since = nightStart(history, now);
  const lines = [t('nightLogHeading', name, formatTime(since, now)), nightLine(history, now, { t, tn }), state, ''];
  const before = lines.length;
  history.forEach((entry, index) => {
    if (entry.at < since || entry.at > now) return;
    const text = eventText(entry, history.slice(0, index));
    lines.push(`${formatTime(entry.at, now)}  ${text.title}`);
    for (const more of [text.detail, text.verdict]) if (more) lines.push(`    ${more}`);
  });
  if (lines.length === before) lines.push(t('nightLogEmpty'));
  return lines.join('\n');
}
