import { type MessageKey, t, tn } from '../lib/i18n';
import { NIGHT_HOURS, NIGHT_MS, type NightMark, nightMark, nightStart } from '../state/night';
import type { HistoryEntry } from '../state/schema';
import { clockTime, nightLine } from './night-text';
import { eventText, formatTime } from './text';

/**
 * The night at a glance: failures, restarts, give-ups and UI problems on a time axis that spans the night the summary
 * line counts (state/night.ts nightStart: from the evening's first Run all or the switch-on, else 12 hours).
 */

const WIDTH = 360;
const HEIGHT = 62;
const LEFT = 10;
const RIGHT = WIDTH - 10;
const AXIS_Y = 40;
/** Half the width of the longest hour label ("12:00 PM", at 12.5 units: theme.css) in viewBox units. */
const EDGE_LABEL_ROOM = 32;
/** The shortest axis: a night begun minutes ago still shows an hour, with its marks apart. */
const MIN_SPAN_MS = 60 * 60_000;
/** Failures on the upper row, what the guard did about them on the lower one: a restart seconds after its failure
 * stays visible instead of covering it. */
const ROW_Y: Record<NightMark, number> = { failure: 12, marker: 12, restart: 27, 'gave-up': 27, problem: 27 };

interface Props {
  history: readonly HistoryEntry[];
  now: number;
  /** Prefix for the ids that tie the title and description to the drawing. */
  id: string;
}

export function Timeline({ history, now, id }: Props) {
  const start = Math.min(nightStart(history, now), now - MIN_SPAN_MS);
  const x = (at: number) => LEFT + ((at - start) / (now - start)) * (RIGHT - LEFT);
  const marks = history.flatMap((entry, index) => {
    const kind = nightMark(entry);
    return kind && entry.at >= start && entry.at <= now ? [{ entry, kind, index }] : [];
  });
  const ticks = localHours(start, now);
  const every = labelEvery(now - start);

  return (
    <figure class="timeline">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        preserveAspectRatio="xMidYMid meet"
      >
        <title id={`${id}-title`}>
          {start === now - NIGHT_MS ? t('timelineTitle', NIGHT_HOURS) : t('timelineTitleSince', formatTime(start, now))}
        </title>
        <desc id={`${id}-desc`}>{nightLine(history, now, { t, tn })}</desc>
        <line class="axis" x1={LEFT} x2={RIGHT} y1={AXIS_Y} y2={AXIS_Y} />
        {ticks.map((hour) => {
          const labelled = new Date(hour).getHours() % every === 0;
          return (
            <g key={hour} class="tick">
              <line x1={x(hour)} x2={x(hour)} y1={AXIS_Y - (labelled ? 4 : 2)} y2={AXIS_Y + (labelled ? 4 : 2)} />
              {labelled && (
                <text x={x(hour)} y={AXIS_Y + 16} text-anchor={labelAnchor(x(hour))}>
                  {clockTime(hour)}
                </text>
              )}
            </g>
          );
        })}
        {marks.map(({ entry, kind, index }) => (
          <g key={`${entry.at}-${index}`} class={`mark mark-${kind}`} data-kind={kind}>
            <title>{`${formatTime(entry.at, now)} ${eventText(entry, history.slice(0, index)).title}`}</title>
            <Shape kind={kind} cx={x(entry.at)} cy={ROW_Y[kind]} />
          </g>
        ))}
      </svg>
      <figcaption>
        <ul class="legend">
          {legendKinds(marks.some((m) => m.kind === 'marker')).map((kind) => (
            <li key={kind}>
              <svg class={`mark mark-${kind}`} viewBox="0 0 12 12" width="12" height="12" aria-hidden="true">
                <Shape kind={kind} cx={6} cy={6} />
              </svg>
              {t(LEGEND[kind])}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}

/**
 * Which hours are labelled, for an axis `span` long: at 12 px, labels three hours apart on a 12-hour axis touch when
 * one at an end grows inwards, so every fourth hour there, every hour on a short night, every eighth on a long one.
 */
function labelEvery(span: number): number {
  const hours = span / (60 * 60_000);
  if (hours <= 4) return 1;
  return hours <= NIGHT_HOURS + 1 ? 4 : 8;
}

/** Hour labels near either end of the axis grow inwards, so "12:00 PM" at the right edge is not cut off. */
function labelAnchor(at: number): 'start' | 'middle' | 'end' {
  if (at < LEFT + EDGE_LABEL_ROOM) return 'start';
  return at > RIGHT - EDGE_LABEL_ROOM ? 'end' : 'middle';
}

/** Whole hours of the local clock: stepping in UTC hours would put them at :30 in a half-hour time zone. */
function localHours(start: number, end: number): number[] {
  const hour = new Date(start);
  hour.setMinutes(0, 0, 0);
  if (hour.getTime() < start) hour.setHours(hour.getHours() + 1);
  const hours: number[] = [];
  for (; hour.getTime() <= end; hour.setHours(hour.getHours() + 1)) hours.push(hour.getTime());
  return hours;
}

function legendKinds(withMarkers: boolean): NightMark[] {
  return withMarkers
    ? ['failure', 'marker', 'restart', 'gave-up', 'problem']
    : ['failure', 'restart', 'gave-up', 'problem'];
}

const LEGEND: Record<NightMark, MessageKey> = {
  failure: 'timelineFailure',
  marker: 'timelineMarker',
  restart: 'timelineRestart',
  'gave-up': 'timelineGaveUp',
  problem: 'timelineProblem',
};

/** Distinct shapes as well as colours, so the marks read without colour too. */
function Shape({ kind, cx, cy }: { kind: NightMark; cx: number; cy: number }) {
  const r = 4.5;
  switch (kind) {
    case 'failure':
    case 'marker':
      return <circle cx={cx} cy={cy} r={r} />;
    case 'restart':
      return <path d={`M${cx - r} ${cy + r}L${cx} ${cy - r}L${cx + r} ${cy + r}Z`} />;
    case 'gave-up':
      return <rect x={cx - r} y={cy - r} width={2 * r} height={2 * r} />;
    case 'problem':
      return <path d={`M${cx} ${cy - r - 1}L${cx + r + 1} ${cy}L${cx} ${cy + r + 1}L${cx - r - 1} ${cy}Z`} />;
  }
}
