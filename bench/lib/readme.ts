/**
 * The Performance table (docs/performance.md), rewritten from the published bench results between the `bench:start`
 * and `bench:end` markers, so the figures there are always the latest ones with the machine they came from.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import {
  type BenchResults,
  judge,
  type Percentiles,
  type SizeEntry,
  type StreamSummary,
  type Verdict,
} from './criteria';
import { measuredLine, measuredParts } from './merge';
import { isTenthFramed, type ScaleSummary, sameCase, tenthOf } from './scale';

export type { BenchResults } from './criteria';

const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';
const ms = (n: number) => `${n.toFixed(0)} ms`;
const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;
const signedMs = (n: number) => `${n >= 0 ? '+' : '−'}${Math.abs(n).toFixed(0)} ms`;

/** The target, and "not met" when a verdict of `id` on it (its case named by `about`, if given) was missed. */
function targetCell(verdicts: Verdict[], target: string, id: string, about?: string): string {
  const mine = verdicts.filter((v) => v.id === id && (!about || v.target.includes(about)));
  return mine.some((v) => v.pass === false) ? `${target} (**not met**)` : target;
}

function rows(r: BenchResults): string[][] | null {
  const size = (what: string) => r.sizes?.find((s) => s.what === what);
  const stream = (name: string) => r.stream?.summary.find((s) => s.case === name);
  const [page, lazy, frame, popup, engine] = [
    'content script: Colab page (top frame)',
    'lazy: the guard, imported when switched on',
    'content script: output frames',
    'popup (html + scripts + css)',
    'lazy: the pattern engine, imported where there are patterns',
  ].map(size);
  const [s3, s30, s100, bar] = ['line by line (3k)', '30k lines', '100k lines', 'progress bar'].map(stream);
  const scale = (cells: number, frames = tenthOf(cells)) =>
    r.scale?.summary.find((s) => sameCase(s, { cells, frames }));
  const before = (s: ScaleSummary) => r.scale?.before?.summary.find((b) => sameCase(b, s));
  // The sizes compared with each other have a frame in every tenth cell; a size with more frames is a row of its own.
  const sizes = (r.scale?.summary ?? []).filter(isTenthFramed);
  const n1000 = scale(1000);
  const framed1000 = scale(1000, 300);
  if (!r.reaction || !page || !lazy || !frame || !popup || !engine || !r.memory) return null;
  if (!s3 || !s30 || !s100 || !bar || !n1000 || !framed1000 || sizes.length < 2) return null;
  const verdicts = judge(r);
  const target = (text: string, id: string, about?: string) => targetCell(verdicts, text, id, about);
  const reaction = (s: Percentiles) => `${ms(s.p50)} / ${ms(s.p95)} / ${ms(s.max)}`;
  const pages = (n = 1) => (n === 1 ? 'one page' : `median of ${n} pages`);
  const share = (s: StreamSummary) =>
    `${s.extSharePct.toFixed(3)} % (${s.extOwnMs.toFixed(1)} ms); with − without: ${signedMs(s.deltaTaskMs)} ` +
    `(${pages(s.runs)})`;
  const scaleShare = (pct: number, own: number, cpu: number, delta?: number) =>
    `${pct.toFixed(2)} % (${own.toFixed(0)} ms); of CPU time ${cpu.toFixed(2)} %` +
    (delta === undefined ? '' : `; with − without: ${signedMs(delta)}`);
  const bytes = (s: SizeEntry) => `${kB(s.raw)} / ${kB(s.gzip)}`;
  const cellCounts = sizes.map((s) => s.cells.toLocaleString('en')).join(' / ');
  const slowest = [...(r.scale?.summary ?? [])].sort((a, b) => b.switchOnMaxMs - a.switchOnMaxMs)[0]!;
  return [
    [
      `Reaction time beyond the back-off, error in the page (p50 / p95 / max of ${r.reaction.main.n})`,
      reaction(r.reaction.main),
      target('p95 ≤ 50 ms', 'reaction', '(main)'),
    ],
    [
      `Reaction time beyond the back-off, error in an output frame (p50 / p95 / max of ${r.reaction.frame.n})`,
      reaction(r.reaction.frame),
      target('p95 ≤ 50 ms', 'reaction', '(frame)'),
    ],
    [
      'Extension script time while 3,000 lines stream one per message, the costliest case per printed byte (share ' +
        'of main-thread time)',
      share(s3),
      '–',
    ],
    ['Extension script time while streaming 30,000 lines (share of main-thread time)', share(s30), '–'],
    [
      'Extension script time while streaming 100,000 lines (share of main-thread time)',
      share(s100),
      target('≤ 1 %', 'stream-share'),
    ],
    ['Extension script time during 3,000 progress-bar updates (share of main-thread time)', share(bar), '–'],
    [
      'Compared with a naive detector that re-reads the page on every change (100,000 lines)',
      `${Math.round(s100.naiveOverExt)}× cheaper`,
      target('≥ 10× cheaper', 'stream-naive'),
    ],
    [
      `Heap growth after 100,000 lines (${pages(r.memory.runs)})`,
      `${r.memory.extensionGrowthMB.toFixed(2)} MB`,
      target('≤ 1 MB', 'stream-heap'),
    ],
    [
      'Content script, Colab page, always injected (minified / gzip)',
      bytes(page),
      target('≤ 15 kB minified', 'size', 'Colab page'),
    ],
    [
      'Content script, output frame (minified / gzip)',
      bytes(frame),
      target('≤ 15 kB minified', 'size', 'output frames'),
    ],
    ['Guard imported on notebooks where it is switched on (minified / gzip)', bytes(lazy), '–'],
    ['Pattern engine (re2js), imported only where there are user patterns (minified / gzip)', bytes(engine), '–'],
    ['Popup (minified / gzip)', bytes(popup), '–'],
    ...[n1000, framed1000].flatMap((s) => {
      const was = before(s);
      const label = `1,000 cells${s.frames === 100 ? '' : `, ${s.frames} frames`})`;
      return [
        [
          `Extension script during the first Run all over 1,000 cells with ${s.frames} output frames (share of ` +
            `main-thread time; ${pages(s.runs)})`,
          scaleShare(s.extSharePct, s.extOwnMs, s.extCpuSharePct, s.deltaTaskMs) +
            (was ? `; before the notebook-scale work: ${was.extSharePct.toFixed(2)} %` : ''),
          target('≤ 0.5 %', 'scale-share', label),
        ],
        [
          'The same, each later Run all in that page (as overnight, after each restart)',
          // The pages without the extension run all once: there is no later Run all to subtract.
          `${scaleShare(s.againSharePct, s.againOwnMs, s.againCpuSharePct)}; with − without: not measured`,
          target('≤ 0.4 %', 'scale-again-share', label),
        ],
      ];
    }),
    [
      'Heap growth during the first Run all (1,000 cells with 100 / 300 output frames)',
      `${n1000.heapGrowthMB.toFixed(2)} / ${framed1000.heapGrowthMB.toFixed(2)} MB`,
      target('≤ 0.5 MB', 'scale-heap'),
    ],
    ...retainedRow(n1000, framed1000, target),
    ...hiddenRows(r, target),
    [
      `Extension script per cell of a Run all (${cellCounts} cells)`,
      sizes.map((s) => `${s.extUsPerCell.toFixed(0)} µs`).join(' / '),
      target('linear', 'linear', 'Run all'),
    ],
    [
      `Switching the guard on over 1,000 cells with ${framed1000.frames} output frames (extension script; median / ` +
        'max of the pages)',
      `${ms(framed1000.switchOnMs)} / ${ms(framed1000.switchOnMaxMs)}`,
      target('≤ 50 ms (median)', 'switch-on', 'frames)'),
    ],
    [
      `Switching the guard on over 1,000 cells with ${n1000.frames} output frames (median / max of the pages)`,
      `${ms(n1000.switchOnMs)} / ${ms(n1000.switchOnMaxMs)}`,
      target('≤ 50 ms (median)', 'switch-on', '(1,000 cells)'),
    ],
    [
      'The same target by the criterion used until 2026-11-28: the slowest page of every size',
      `${ms(slowest.switchOnMaxMs)} (${slowest.cells.toLocaleString('en')} cells)`,
      target('≤ 50 ms', 'switch-on-max'),
    ],
    [
      `Switching the guard on (${cellCounts} cells; median)`,
      sizes.map((s) => ms(s.switchOnMs)).join(' / '),
      target('linear', 'linear', 'switching on'),
    ],
  ];
}

type Target = (text: string, id: string, about?: string) => string;

/** What the guard keeps in the page after the Run all (older results did not measure it). */
function retainedRow(n1000: ScaleSummary, framed1000: ScaleSummary, target: Target): string[][] {
  if (n1000.retainedMB === undefined || framed1000.retainedMB === undefined) return [];
  return [
    [
      'Heap kept after the first Run all and two collections, with − without (1,000 cells, 100 / 300 output frames)',
      `${n1000.retainedMB.toFixed(2)} / ${framed1000.retainedMB.toFixed(2)} MB`,
      target('≤ 1.3 MB', 'scale-retained'),
    ],
  ];
}

/** The Run alls in a tab behind another (older results did not measure them). */
function hiddenRows(r: BenchResults, target: Target): string[][] {
  return (r.scale?.hidden ?? []).map((h) => [
    `Extension script during the first Run all over ${h.cells.toLocaleString('en')} cells with ${h.frames} output ` +
      `frames in a tab behind another, not rendered (share of main-thread time; median of ${h.runs} pages)`,
    `${h.extSharePct.toFixed(2)} % (${h.extOwnMs.toFixed(0)} ms; the page ${(h.pageTaskMs / 1000).toFixed(1)} s); ` +
      `of CPU time ${h.extCpuSharePct.toFixed(2)} %; each later Run all ${h.againSharePct.toFixed(2)} % ` +
      `(${h.againOwnMs.toFixed(0)} ms)`,
    h.cells === 1000 ? target('≤ 1 %', 'hidden-share') : '–',
  ]);
}

/** Rewrites the table in `readmePath`; false (the file untouched) when the run did not measure everything. */
export function updateReadme(readmePath: string, r: BenchResults): boolean {
  const table = rows(r);
  const text = readFileSync(readmePath, 'utf8');
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (!table || start < 0 || end < start) return false;
  const block = [
    START,
    measuredLine(measuredParts(r as unknown as Parameters<typeof measuredParts>[0]), r.machine.chromium),
    '',
    '| Measure | Result | Target |',
    '|---|---|---|',
    ...table.map((cells) => `| ${cells.join(' | ')} |`),
  ].join('\n');
  writeFileSync(readmePath, `${text.slice(0, start)}${block}\n${text.slice(end)}`);
  return true;
}
