/**
 * Page cost at notebook scale: a notebook of `cells` code cells, `frames` of them (a tenth by default)
 * showing a rich output (an HTML table) in a cross-origin output frame and the others one line of stdout, saved so
 * they show at load, as a notebook opened again does. One page per (size, variant):
 * - with the extension, the page loads with the guard off; then the guard is switched on (the notebook record
 *   written as the popup's switch does) and the extension's script time until the page is quiet is "switch on";
 * - then Run all over every cell (a real click, aimed from the page's own world: see clickRunAll), measured as the
 *   streaming case is: CDP Performance.getMetrics deltas, a 200 µs sampling CPU profile attributed to the extension's
 *   scripts, and the isolate's heap after forced GCs before and after, compared with the same page without the
 *   extension;
 * - with the extension, a second Run all in the same page, measured as the first: the cost of each later Run all
 *   (overnight, after each restart), once the guard's code has run and the page's cells are known to it.
 * Run all clears every queued cell's outputs at once (§11.4), so the saved frames go and each framed cell makes a
 * new one when it runs: the page's cost is per cell execution (run states, output containers, frames), not per line.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page, Worker } from '@playwright/test';
import { type CellSpec, installColabSim, type Scenario, waitForKernel, waitForRun } from '../../e2e/colab-sim';
import { enableNotebook } from './browser';
import { type CDPSession, heapMB, metrics, SAMPLING_US } from './page-metrics';
import { type Attribution, attribute, type CpuProfile } from './profile';
import { median } from './stats';

export type ScaleVariant = 'without' | 'with';

export interface ScaleCase {
  cells: number;
  /** Cells that show their output in an output frame, spread evenly (a tenth of the cells by default). */
  frames: number;
}

/** The default frame count, a frame in every tenth cell: the sizes compared with each other (per cell) have it. */
export const tenthOf = (cells: number) => Math.round(cells / 10);

/** `1000` (a frame in every tenth cell) or `1000f300` (300 frames), as BENCH_SCALE_CELLS names a size. */
export function scaleCase(spec: string): ScaleCase {
  const [cells, frames] = spec.split('f').map(Number);
  return { cells: cells!, frames: frames ?? tenthOf(cells!) };
}

export const isTenthFramed = (c: ScaleCase) => c.frames === tenthOf(c.cells);

/** The size as BENCH_SCALE_CELLS names it (scaleCase's inverse): `1000`, or `1000f300` for other frame counts. */
export const scaleSpec = (c: ScaleCase) => (isTenthFramed(c) ? `${c.cells}` : `${c.cells}f${c.frames}`);

/** "1,000 cells" or "1,000 cells, 300 frames": a size as tables name it. */
export const scaleLabel = (c: ScaleCase) =>
  `${c.cells.toLocaleString('en')} cells${isTenthFramed(c) ? '' : `, ${c.frames.toLocaleString('en')} frames`}`;

export const sameCase = (a: ScaleCase, b: ScaleCase) => a.cells === b.cells && a.frames === b.frames;

export interface Window {
  wallMs: number;
  /** Deltas of Performance.getMetrics, ms. */
  taskMs: number;
  scriptMs: number;
  layoutMs: number;
  /** CPU-profile time of the extension's scripts (chrome-extension://<id>/…), inclusive of what they call. */
  ownMs: number;
  /** The extension's share of the profile's non-idle samples, %: of the thread's CPU time, whatever the load. */
  cpuSharePct: number;
  ownTop: Attribution['top'];
}

export interface ScaleRun extends ScaleCase {
  variant: ScaleVariant;
  /** The guard switched on in a page showing the notebook (extension only). */
  switchOn?: Window;
  /** A second Run all in the same page (extension only). */
  runAgain?: Window;
  runAll: Window & {
    heapBeforeMB: number;
    heapAfterMB: number;
    /** Output frames that loaded during the run (one per tenth cell). */
    framesLoaded: number;
    domNodes: number;
  };
  /** The machine's 1-minute load average before and after the run (the bench shares 2 cores). */
  load: [number, number];
}

const PROFILE_DIR = process.env.BENCH_PROFILE_DIR;
/** Cells run in ~40 ms each here (Colab's own round trip is longer): what is measured is work, not waiting. */
const TIMING = { stepMs: 10, cellMs: 20, connectMs: 50 };

/**
 * Both variants' pages skip painting cells out of view. Without this the simulator repaints the whole notebook on
 * every frame in which a cell above changes height (38 ms per cell at 300 cells, growing with the notebook), which
 * makes a 3,000-cell run take most of an hour and the extension's share look smaller than it is; Colab renders
 * off-screen outputs lazily too (REFERENCE §4.1).
 */
export const OFFSCREEN_CELLS_UNPAINTED = '.cell { content-visibility: auto; contain-intrinsic-size: auto 120px; }';

const TABLE =
  '<table class="dataframe"><thead><tr><th></th><th>loss</th><th>accuracy</th></tr></thead><tbody>' +
  '<tr><th>0</th><td>0.4817</td><td>0.8123</td></tr><tr><th>1</th><td>0.4402</td><td>0.8291</td></tr></tbody></table>';

/** Cell `i` shows a frame where the running count of frames (`frames` per `cells`) steps up: i = 9, 19, … at 10 %. */
function cell(i: number, c: ScaleCase): CellSpec {
  const rich = Math.floor(((i + 1) * c.frames) / c.cells) > Math.floor((i * c.frames) / c.cells);
  const outputs = rich
    ? [{ type: 'display_data' as const, text: '<IPython.core.display.HTML object>', html: TABLE }]
    : [{ type: 'stream' as const, text: `prepared part ${i}: 4096 rows\n` }];
  return {
    source: rich ? `display(HTML(summary(part_${i})))` : `part_${i} = prepare(data, part=${i})`,
    saved: { count: i + 1, outputs },
    runs: { default: { outputs } },
  };
}

export function scaleScenario(c: ScaleCase, title: string): Scenario {
  return {
    title,
    autosave: false,
    runCounting: 'page',
    timing: TIMING,
    cells: Array.from({ length: c.cells }, (_, i) => cell(i, c)),
  };
}

/** Runs `body` under the profiler and the page metrics; the extension's share of it from the profile. */
export async function measured(
  cdp: CDPSession,
  isOwn: (url: string) => boolean,
  body: () => Promise<void>,
  name: string,
): Promise<Window> {
  const before = await metrics(cdp);
  await cdp.send('Profiler.start');
  const t0 = Date.now();
  await body();
  const wallMs = Date.now() - t0;
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
  const after = await metrics(cdp);
  // For a closer look (chrome://inspect or DevTools' Performance panel load .cpuprofile files).
  if (PROFILE_DIR) {
    mkdirSync(PROFILE_DIR, { recursive: true });
    writeFileSync(join(PROFILE_DIR, `${name}.cpuprofile`), JSON.stringify(profile));
  }
  const d = (k: string) => ((after[k] ?? 0) - (before[k] ?? 0)) * 1000;
  const own = attribute(profile, (f) => isOwn(f.url), SAMPLING_US, 25);
  return {
    wallMs,
    taskMs: d('TaskDuration'),
    scriptMs: d('ScriptDuration'),
    layoutMs: d('LayoutDuration'),
    ownMs: own.ms,
    cpuSharePct: own.busySamples > 0 ? (100 * own.samples) / own.busySamples : 0,
    ownTop: own.top,
  };
}

let serial = 0;

/**
 * A real mouse click on the toolbar's Run all, aimed from the page's main world. Playwright's locators pierce shadow
 * DOM by walking every shadow root from a world of their own, whose wrappers of the page's nodes live as long as the
 * nodes: 7,000–10,600 shadow roots and their insides in three pages of 1,000 cells, about 0.1 MB of "kept heap" that
 * varied from page to page and was not the extension's.
 */
async function clickRunAll(page: Page): Promise<void> {
  const { x, y } = await page.evaluate(() => {
    const host = document.querySelector('colab-notebook-toolbar-run-button');
    const box = host?.shadowRoot?.getElementById('toolbar-run-button')?.getBoundingClientRect();
    if (!box) throw new Error('bench: no toolbar Run all button');
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  });
  await page.mouse.click(x, y);
}

export async function measureScale(
  context: BrowserContext,
  variant: ScaleVariant,
  c: ScaleCase,
  ext?: { serviceWorker: Worker; extensionId: string },
): Promise<ScaleRun> {
  const loadBefore = loadavg()[0]!;
  const sim = await installColabSim(context);
  const id = `benchScale${scaleSpec(c)}${variant}${Date.now().toString(36)}${serial++}`;
  const url = sim.notebook(`/drive/${id}`, scaleScenario(c, `bench ${c.cells} cells`));
  const page: Page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  await cdp.send('HeapProfiler.enable');
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: SAMPLING_US });
  const isOwn = (u: string) => !!ext && u.startsWith(`chrome-extension://${ext.extensionId}/`);
  let frames = 0;
  page.on('framenavigated', (frame) => {
    if (frame !== page.mainFrame() && frame.url().includes('/outputframe.html')) frames++;
  });
  try {
    await page.goto(url, { timeout: 120_000 });
    await waitForKernel(page, 'idle', 120_000);
    await page.addStyleTag({ content: OFFSCREEN_CELLS_UNPAINTED });
    // Not a test: a bounded settle for the document_idle content script, its hello and the saved frames' loads.
    await page.waitForTimeout(1500);
    let switchOn: Window | undefined;
    if (ext) {
      // Bounded: asking the page whether it watches (the popup's page-state question) would add extension work to
      // the window measured; 2 s covers the chunk import, the first storage reads, the page scan and the frames
      // asking again, with room under load.
      switchOn = await measured(
        cdp,
        isOwn,
        async () => {
          await enableNotebook(ext.serviceWorker, `drive:${id}`);
          await page.waitForTimeout(2000);
        },
        `${scaleSpec(c)}-${variant}-${serial}-switch-on`,
      );
    }
    /** The `nth` Run all of the page, measured. */
    const runAllMeasured = (nth: number, name: string) =>
      measured(
        cdp,
        isOwn,
        async () => {
          await clickRunAll(page);
          await waitForRun(page, nth, 30 * 60_000, 250);
          // Bounded: what follows the last cell's end (a frame's stream tail is answered after 250 ms of quiet).
          await page.waitForTimeout(1000);
        },
        `${scaleSpec(c)}-${variant}-${serial}-${name}`,
      );
    const heapBeforeMB = await heapMB(cdp);
    const framesBefore = frames;
    const run = await runAllMeasured(1, 'run-all');
    const heapAfterMB = await heapMB(cdp);
    const counters = await cdp.send('Memory.getDOMCounters');
    const framesLoaded = frames - framesBefore;
    const runAgain = ext ? await runAllMeasured(2, 'run-again') : undefined;
    return {
      cells: c.cells,
      frames: c.frames,
      variant,
      ...(switchOn ? { switchOn } : {}),
      ...(runAgain ? { runAgain } : {}),
      runAll: { ...run, heapBeforeMB, heapAfterMB, framesLoaded, domNodes: counters.nodes },
      load: [loadBefore, loadavg()[0]!],
    };
  } finally {
    await cdp.detach().catch(() => undefined);
    await page.close();
    await sim.dispose();
  }
}

export interface ScaleSummary extends ScaleCase {
  runs: number;
  framesLoaded: number;
  /** Medians over the runs of the extension's own script time during Run all, and its share of main-thread time. */
  extOwnMs: number;
  extSharePct: number;
  /** Median of the extension's share of the thread's CPU time (Window.cpuSharePct): what a busy machine moves least. */
  extCpuSharePct: number;
  /** extOwnMs per cell, µs: flat when the cost grows linearly with the notebook. */
  extUsPerCell: number;
  /** Median of heap growth(with) − growth(without), the runs paired in order. */
  heapGrowthMB: number;
  /**
   * Median of the heap after the Run all and two collections, with − without, the runs paired in order: what the
   * guard keeps in the page (its code and data, the records of the executions it saw).
   */
  retainedMB?: number;
  /**
   * Median of the page's task time during Run all with − without the extension, the runs paired in order: what the
   * page paid in all, beside the share the profile attributes to the extension (mostly the noise of two pages).
   */
  deltaTaskMs?: number;
  /** The same two figures for the page's second Run all (runAgain). */
  againOwnMs: number;
  againSharePct: number;
  againCpuSharePct: number;
  /** Extension script time to switch the guard on: median and max over the runs. */
  switchOnMs: number;
  switchOnMaxMs: number;
  pageTaskMs: number;
  load: [number, number];
}

export function summarizeScale(runs: ScaleRun[], c: ScaleCase): ScaleSummary {
  const mine = runs.filter((r) => sameCase(r, c));
  const withExt = mine.filter((r) => r.variant === 'with');
  const without = mine.filter((r) => r.variant === 'without');
  const growth = (r: ScaleRun) => r.runAll.heapAfterMB - r.runAll.heapBeforeMB;
  const paired = withExt.flatMap((r, i) => (without[i] ? [growth(r) - growth(without[i])] : []));
  const retained = withExt.flatMap((r, i) =>
    without[i] ? [r.runAll.heapAfterMB - without[i].runAll.heapAfterMB] : [],
  );
  const deltaTask = withExt.flatMap((r, i) => (without[i] ? [r.runAll.taskMs - without[i].runAll.taskMs] : []));
  const switchOn = withExt.flatMap((r) => (r.switchOn ? [r.switchOn.ownMs] : []));
  const shares = runAllShares(withExt);
  return {
    cells: c.cells,
    frames: c.frames,
    runs: withExt.length,
    framesLoaded: median(mine.map((r) => r.runAll.framesLoaded)),
    ...shares,
    extUsPerCell: (1000 * shares.extOwnMs) / c.cells,
    heapGrowthMB: median(paired),
    retainedMB: median(retained),
    deltaTaskMs: median(deltaTask),
    switchOnMs: median(switchOn),
    switchOnMaxMs: Math.max(...switchOn),
    pageTaskMs: median(without.map((r) => r.runAll.taskMs)),
    load: loadRange(mine),
  };
}

/** The extension's time and shares in the pages' first and later Run alls: medians over the pages. */
function runAllShares(withExt: ReadonlyArray<{ runAll: Window; runAgain?: Window }>) {
  const again = withExt.flatMap((r) => (r.runAgain ? [r.runAgain] : []));
  return {
    extOwnMs: median(withExt.map((r) => r.runAll.ownMs)),
    extSharePct: median(withExt.map((r) => (100 * r.runAll.ownMs) / r.runAll.taskMs)),
    extCpuSharePct: median(withExt.map((r) => r.runAll.cpuSharePct)),
    againOwnMs: median(again.map((w) => w.ownMs)),
    againSharePct: median(again.map((w) => (100 * w.ownMs) / w.taskMs)),
    againCpuSharePct: median(again.map((w) => w.cpuSharePct)),
  };
}

const loadRange = (runs: ReadonlyArray<{ load: [number, number] }>): [number, number] => {
  const loads = runs.flatMap((r) => r.load);
  return [Math.min(...loads), Math.max(...loads)];
};

/** A size's Run alls in a tab behind another (lib/hidden.ts): medians over the pages, as summarizeScale's. */
export interface HiddenSummary extends ScaleCase {
  runs: number;
  extOwnMs: number;
  extSharePct: number;
  extCpuSharePct: number;
  againOwnMs: number;
  againSharePct: number;
  againCpuSharePct: number;
  pageTaskMs: number;
  load: [number, number];
}

export function summarizeHidden(
  runs: Array<ScaleCase & { variant: ScaleVariant; runAll: Window; runAgain?: Window; load: [number, number] }>,
  c: ScaleCase,
): HiddenSummary {
  const mine = runs.filter((r) => sameCase(r, c));
  const withExt = mine.filter((r) => r.variant === 'with');
  return {
    cells: c.cells,
    frames: c.frames,
    runs: withExt.length,
    ...runAllShares(withExt),
    pageTaskMs: median(mine.filter((r) => r.variant === 'without').map((r) => r.runAll.taskMs)),
    load: loadRange(mine),
  };
}
