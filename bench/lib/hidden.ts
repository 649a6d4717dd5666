/**
 * The notebook-scale Run all in a tab behind another one, as overnight (REFERENCE §11.6): Chromium does not render
 * such a tab, so the page's own time per Run all is about a third of a tab in front, and the guard's share of it is
 * about three times as large. Playwright keeps every page it drives visible (e2e/hidden-tab.spec.ts), so these pages
 * are driven by puppeteer-core over CDP, the simulator served through request interception (colab-sim/puppeteer.ts),
 * and a new tab is put in front of the notebook before its Run all. The Run all is started through Colab's main-world
 * API (a click needs the tab in front); the guard is switched on, and the page measured, as lib/scale.ts does.
 */
import puppeteer, { type Page, type Browser as PuppeteerBrowser, type WebWorker } from 'puppeteer-core';
import type { LogEntry } from '../../e2e/colab-sim';
import { POLL, serveColabSim } from '../../e2e/colab-sim/puppeteer';
import { CHROMIUM_FLAGS } from '../../e2e/harness/browser-path';
import { welcomeTabClosed } from '../../e2e/harness/welcome-tab';
import { chromiumPath } from './browser';
import { metrics, SAMPLING_US } from './page-metrics';
import {
  measured,
  OFFSCREEN_CELLS_UNPAINTED,
  type ScaleCase,
  type ScaleVariant,
  scaleScenario,
  scaleSpec,
  type Window,
} from './scale';

export interface HiddenBrowser {
  browser: PuppeteerBrowser;
  worker?: WebWorker;
  extensionId?: string;
}

export interface HiddenRun extends ScaleCase {
  variant: ScaleVariant;
  /** The first Run all in the hidden tab, and the next one (extension only). */
  runAll: Window;
  runAgain?: Window;
  load: [number, number];
}

type SimWindow = globalThis.Window & {
  __colabSim?: { log: LogEntry[]; state(): { kernel: string } };
  colab: { global: { notebook: { runAll(): Promise<void> } } };
};

/** Chromium with the extension from `dist` (Puppeteer loads it over the pipe), or without any. */
export async function launchHidden(dist: string | null): Promise<HiddenBrowser> {
  const browser = await puppeteer.launch({
    executablePath: chromiumPath(),
    headless: true,
    pipe: true,
    ...(dist ? { enableExtensions: [dist] } : {}),
    args: CHROMIUM_FLAGS,
  });
  if (!dist) return { browser };
  const target = await browser.waitForTarget(
    (t) => t.type() === 'service_worker' && t.url().startsWith('chrome-extension://'),
  );
  const worker = (await target.worker()) ?? undefined;
  if (!worker) throw new Error("bench: no handle on the extension's service worker");
  for (let i = 0; i < 200 && !(await worker.evaluate(() => typeof chrome !== 'undefined' && !!chrome.storage)); i++)
    await new Promise((resolve) => setTimeout(resolve, 25));
  if (!(await worker.evaluate(welcomeTabClosed))) throw new Error('bench: no welcome page opened on install');
  return { browser, worker, extensionId: new URL(target.url()).host };
}

let serial = 0;

/** One page of `c` in a tab behind another: its first Run all and, with the extension, a second one. */
export async function measureHiddenScale(
  { browser, worker, extensionId }: HiddenBrowser,
  variant: ScaleVariant,
  c: ScaleCase,
  load: () => number,
): Promise<HiddenRun> {
  const loadBefore = load();
  const page = await browser.newPage();
  const sim = await serveColabSim(page);
  const id = `benchHidden${scaleSpec(c)}${variant}${Date.now().toString(36)}${serial++}`;
  const isOwn = (url: string) => !!extensionId && url.startsWith(`chrome-extension://${extensionId}/`);
  let cover: Page | undefined;
  try {
    if (worker) {
      const key = `drive:${id}`;
      await worker.evaluate((k) => chrome.storage.local.set({ [`nb:${k}`]: { v: 1, key: k, enabled: true } }), key);
    }
    await page.goto(sim.notebook(`/drive/${id}`, scaleScenario(c, `bench ${c.cells} cells`)), { timeout: 120_000 });
    await page.waitForFunction(() => (window as SimWindow).__colabSim?.state().kernel === 'idle', {
      ...POLL,
      timeout: 120_000,
    });
    await page.addStyleTag({ content: OFFSCREEN_CELLS_UNPAINTED });
    // Not a test: a bounded settle for the content script, the guard's switch on and the saved frames' loads.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    cover = await browser.newPage();
    await page.waitForFunction(() => document.visibilityState === 'hidden', POLL);
    const cdp = await page.createCDPSession();
    await cdp.send('Performance.enable');
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: SAMPLING_US });
    await metrics(cdp);
    const runAllMeasured = (nth: number, name: string) =>
      measured(
        cdp,
        isOwn,
        async () => {
          await page.evaluate(() => void (window as unknown as SimWindow).colab.global.notebook.runAll());
          await page.waitForFunction(
            (n) => (window as SimWindow).__colabSim?.log.some((e) => e.type === 'run-end' && e.run === n),
            { polling: 250, timeout: 30 * 60_000 },
            nth,
          );
          // Bounded: what follows the last cell's end (a frame's stream tail is answered after 250 ms of quiet).
          await new Promise((resolve) => setTimeout(resolve, 1000));
        },
        `${scaleSpec(c)}-${variant}-hidden-${serial}-${name}`,
      );
    const runAll = await runAllMeasured(1, 'run-all');
    const runAgain = worker ? await runAllMeasured(2, 'run-again') : undefined;
    await cdp.detach().catch(() => undefined);
    return {
      cells: c.cells,
      frames: c.frames,
      variant,
      runAll,
      ...(runAgain ? { runAgain } : {}),
      load: [loadBefore, load()],
    };
  } finally {
    await cover?.close();
    await sim.dispose();
    await page.close();
  }
}
