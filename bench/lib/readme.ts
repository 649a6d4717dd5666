/**
 * The Performance table (docs/performance.md), rewritten from a full bench run's results between the `bench:start`
 * and `bench:end` markers, so the figures there are always the latest ones with the machine they came from.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { isTenthFramed, type ScaleSummary, sameCase, tenthOf } from './scale';

interface Summary {
  p50: number;
  p95: number;
  max: number;
}
interface SizeEntry {
  what: string;
  raw: number;
  gzip: number;
}
interface StreamSummary {
  case: string;
  extSharePct: number;
  extOwnMs: number;
  naiveOverExt: number;
}
export interface BenchResults {
  machine: { date: string; cpuModel: string; cores: number; memoryGiB: number; chromium: string };
  sizes?: SizeEntry[];
  reaction?: Record<'main' | 'frame', Summary>;
  stream?: { summary: StreamSummary[] };
  memory?: { extensionGrowthMB: number };
  scale?: { summary: ScaleSummary[]; before?: { srcCommit: string; summary: ScaleSummary[] } };
}

const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';
const ms = (n: number) => `${n.toFixed(0)} ms`;
const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;

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
  const [s30, s100, bar] = ['30k lines', '100k lines', 'progress bar'].map(stream);
  const scale = (cells: number, frames = tenthOf(cells)) =>
    r.scale?.summary.find((s) => sameCase(s, { cells, frames }));
  const before = (s: ScaleSummary) => r.scale?.before?.summary.find((b) => sameCase(b, s));
  // The sizes compared with each other have a frame in every tenth cell; a size with more frames is a row of its own.
  const sizes = (r.scale?.summary ?? []).filter(isTenthFramed);
  const n1000 = scale(1000);
  const framed1000 = scale(1000, 300);
  if (!r.reaction || !page || !lazy || !frame || !popup || !engine || !s30 || !s100 || !bar || !r.memory) return null;
  if (!n1000 || !framed1000 || sizes.length < 2) return null;
  const reaction = (s: Summary) => `${ms(s.p50)} / ${ms(s.p95)} / ${ms(s.max)}`;
  const share = (s: StreamSummary) => `${s.extSharePct.toFixed(3)} % (${s.extOwnMs.toFixed(1)} ms)`;
  const bytes = (s: SizeEntry) => `${kB(s.raw)} / ${kB(s.gzip)}`;
  return [
    [
      'Reaction time beyond the back-off, error in the page (p50 / p95 / max)',
      reaction(r.reaction.main),
      'p95 ≤ 50 ms',
    ],
    [
      'Reaction time beyond the back-off, error in an output frame (p50 / p95 / max)',
      reaction(r.reaction.frame),
      'p95 ≤ 50 ms',
    ],
    ['Extension script time while streaming 30,000 lines (share of main-thread time)', share(s30), '–'],
    ['Extension script time while streaming 100,000 lines (share of main-thread time)', share(s100), '≤ 1 %'],
    ['Extension script time during 3,000 progress-bar updates (share of main-thread time)', share(bar), '–'],
    [
      'Compared with a naive detector that re-reads the page on every change (100,000 lines)',
      `${Math.round(s100.naiveOverExt)}× cheaper`,
      '≥ 10× cheaper',
    ],
    ['Heap growth after 100,000 lines', `${r.memory.extensionGrowthMB.toFixed(2)} MB`, '≤ 1 MB'],
    ['Content script, Colab page, always injected (minified / gzip)', bytes(page), '≤ 15 kB minified'],
    ['Content script, output frame (minified / gzip)', bytes(frame), '≤ 15 kB minified'],
    ['Guard imported on notebooks where it is switched on (minified / gzip)', bytes(lazy), '–'],
    ['Pattern engine (re2js), imported only where there are user patterns (minified / gzip)', bytes(engine), '–'],
    ['Popup (minified / gzip)', bytes(popup), '–'],
    ...[n1000, framed1000].flatMap((s) => {
      const was = before(s);
      return [
        [
          `Extension script during the first Run all over 1,000 cells with ${s.frames} output frames (share of ` +
            'main-thread time)',
          `${s.extSharePct.toFixed(2)} % (${s.extOwnMs.toFixed(0)} ms); of CPU time ${s.extCpuSharePct.toFixed(2)} %` +
            (was ? `; before issue 19: ${was.extSharePct.toFixed(2)} %` : ''),
          '≤ 0.5 %',
        ],
        [
          'The same, each later Run all in that page (as overnight, after each restart)',
          `${s.againSharePct.toFixed(2)} % (${s.againOwnMs.toFixed(0)} ms); ` +
            `of CPU time ${s.againCpuSharePct.toFixed(2)} %`,
          '–',
        ],
      ];
    }),
    [
      'Heap growth during the first Run all (1,000 cells with 100 / 300 output frames)',
      `${n1000.heapGrowthMB.toFixed(2)} / ${framed1000.heapGrowthMB.toFixed(2)} MB`,
      '≤ 0.5 MB',
    ],
    [
      `Extension script per cell of a Run all (${sizes.map((s) => s.cells.toLocaleString('en')).join(' / ')} cells)`,
      sizes.map((s) => `${s.extUsPerCell.toFixed(0)} µs`).join(' / '),
      'linear',
    ],
    [
      `Switching the guard on over 1,000 cells with ${framed1000.frames} output frames (extension script; median / ` +
        'max of the pages)',
      `${ms(framed1000.switchOnMs)} / ${ms(framed1000.switchOnMaxMs)}`,
      '≤ 50 ms',
    ],
    [
      `Switching the guard on (${sizes.map((s) => s.cells.toLocaleString('en')).join(' / ')} cells; median)`,
      sizes.map((s) => ms(s.switchOnMs)).join(' / '),
      'linear',
    ],
  ];
}

/** Rewrites the table in `readmePath`; false (the file untouched) when the run did not measure everything. */
export function updateReadme(readmePath: string, r: BenchResults): boolean {
  const table = rows(r);
  const text = readFileSync(readmePath, 'utf8');
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (!table || start < 0 || end < start) return false;
  const m = r.machine;
  const block = [
    START,
    `Measured ${m.date.slice(0, 10)} on ${m.cpuModel} ×${m.cores}, ${m.memoryGiB} GiB, ${m.chromium}.`,
    '',
    '| Measure | Result | Target |',
    '|---|---|---|',
    ...table.map((cells) => `| ${cells.join(' | ')} |`),
  ].join('\n');
  writeFileSync(readmePath, `${text.slice(0, start)}${block}\n${text.slice(end)}`);
  return true;
}
