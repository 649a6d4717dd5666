/**
 * Page cost while a cell streams output: one notebook page per (case, variant), the cell run once with a real click
 * on Run all, CDP `Performance.getMetrics` (ScriptDuration, TaskDuration) read before the click and after the run
 * ended, a sampling CPU profile over the same span (every variant, so the profiler's own overhead is the same), and
 * the isolate's JS heap after a forced GC before and after.
 */
import type { BrowserContext, Page, Worker } from '@playwright/test';
import { type ColabSim, installColabSim, type RunSpec, runAll, waitForKernel, waitForRun } from '../../e2e/colab-sim';
import { enableNotebook } from './browser';
import { NAIVE_DETECTOR, NAIVE_URL } from './naive';
import { heapMB, metrics, SAMPLING_US } from './page-metrics';
import { type Attribution, attribute, type CpuProfile } from './profile';

export type Variant = 'without' | 'with' | 'naive';

export interface StreamCase {
  name: string;
  /** What the cell prints: `lines` lines in chunks of `batch`, or a tqdm bar with `progress` updates. */
  lines?: number;
  batch?: number;
  progress?: number;
}

export interface StreamRun {
  case: string;
  variant: Variant;
  wallMs: number;
  /** Deltas of Performance.getMetrics over the run, in ms. */
  scriptMs: number;
  taskMs: number;
  layoutMs: number;
  styleMs: number;
  /** CPU-profile time of the extension's scripts (chrome-extension://<id>/…) or of the naive detector. */
  ownMs: number;
  profiledBusyMs: number;
  ownTop: Attribution['top'];
  heapBeforeMB: number;
  heapAfterMB: number;
  domNodes: number;
  /** For the guard: did its content script run in the page (its isolated world exists)? */
  isolatedWorld?: string | null;
}

function runSpec(c: StreamCase): RunSpec {
  if (c.progress) return { progress: { total: c.progress, every: 0, desc: 'Training' } };
  return {
    stream: {
      lines: c.lines ?? 0,
      batch: c.batch ?? 1,
      every: 0,
      text: 'epoch 3 step {i}/{n} loss=0.4817 lr=3.0e-04\n',
    },
  };
}

let serial = 0;

export async function measureStream(
  context: BrowserContext,
  variant: Variant,
  c: StreamCase,
  ext?: { serviceWorker: Worker; extensionId: string },
): Promise<StreamRun> {
  const sim: ColabSim = await installColabSim(context);
  const id = `benchStream${c.name.replace(/[^A-Za-z0-9]/g, '')}${variant}${Date.now().toString(36)}${serial++}`;
  const url = sim.notebook(`/drive/${id}`, {
    title: `bench ${c.name}`,
    autosave: false,
    runCounting: 'page',
    cells: [{ source: 'train(model, loader)', runs: { default: runSpec(c) } }],
  });
  if (variant === 'with' && ext) await enableNotebook(ext.serviceWorker, `drive:${id}`);
  const page: Page = await context.newPage();
  if (variant === 'naive') await page.addInitScript({ content: NAIVE_DETECTOR });
  const cdp = await context.newCDPSession(page);
  const worlds: Array<{ name: string; type?: string; origin: string }> = [];
  cdp.on('Runtime.executionContextCreated', ({ context: ctx }) =>
    worlds.push({ name: ctx.name, type: ctx.auxData?.type, origin: ctx.origin }),
  );
  await cdp.send('Runtime.enable');
  await cdp.send('Performance.enable');
  await cdp.send('HeapProfiler.enable');
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: SAMPLING_US });
  try {
    await page.goto(url);
    await waitForKernel(page, 'idle');
    await page.waitForTimeout(500); // document_idle content script and its first storage reads
    const heapBeforeMB = await heapMB(cdp);
    const before = await metrics(cdp);
    await cdp.send('Profiler.start');
    const t0 = Date.now();
    await runAll(page);
    await waitForRun(page, 1, 20 * 60_000);
    await page.waitForTimeout(100); // last mutation callbacks and frame
    const wallMs = Date.now() - t0;
    const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
    const after = await metrics(cdp);
    const heapAfterMB = await heapMB(cdp);
    const counters = await cdp.send('Memory.getDOMCounters');
    const isOwn =
      variant === 'naive'
        ? (f: { url: string }) => f.url.endsWith(NAIVE_URL)
        : (f: { url: string }) => !!ext && f.url.startsWith(`chrome-extension://${ext.extensionId}/`);
    const own = attribute(profile, isOwn, SAMPLING_US);
    const d = (k: string) => ((after[k] ?? 0) - (before[k] ?? 0)) * 1000;
    const isolated = worlds.find((w) => w.type === 'isolated' && ext && w.origin.includes(ext.extensionId));
    return {
      case: c.name,
      variant,
      wallMs,
      scriptMs: d('ScriptDuration'),
      taskMs: d('TaskDuration'),
      layoutMs: d('LayoutDuration'),
      styleMs: d('RecalcStyleDuration'),
      ownMs: own.ms,
      profiledBusyMs: own.busyMs,
      ownTop: own.top,
      heapBeforeMB,
      heapAfterMB,
      domNodes: counters.nodes,
      ...(variant === 'with' ? { isolatedWorld: isolated ? `${isolated.name} (${isolated.origin})` : null } : {}),
    };
  } finally {
    await cdp.detach().catch(() => undefined);
    await page.close();
    await sim.dispose();
  }
}
