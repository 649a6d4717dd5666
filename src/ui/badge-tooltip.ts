import { t } from '../lib/i18n';
import { BLIND_AFTER_MS } from '../limits';
import type { NotebookRecord, Settings } from '../state/schema';
import { statusLines } from './status-lines';
import { describeStatus } from './status-view';
import { statusText } from './text';

/**
 * The toolbar icon's tooltip says what the popup's status box says: "Colab OOM Guard: Watching", then what happened
 * to the night's run and what the next failure brings, a line each. A countdown is named without its seconds: the
 * tooltip is not rewritten every second.
 */
export function badgeTooltip(record: NotebookRecord | null, settings: Settings, now: number): string {
  if (!record) return t('badgeTooltip', t('badgeNoNotebook'));
  const view = describeStatus(record, settings, now);
  const lines = [t('badgeTooltip', statusText(view, record).announcement)];
  if (view.state === 'watching' && record.blindSince !== undefined) {
    lines.push(t('popupBlind', BLIND_AFTER_MS / 60_000));
  }
  const { happened, next } = statusLines(record, view, settings, now);
  for (const line of [happened, next]) if (line) lines.push(line);
  return lines.join('\n');
}
