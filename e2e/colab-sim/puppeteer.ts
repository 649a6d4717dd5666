/**
 * The simulator for a Puppeteer page: the same server (serve.ts) behind Puppeteer's request interception instead of
 * Playwright's routes. Playwright keeps every page it drives visible and focused (microsoft/playwright#2286, #3570);
 * a Puppeteer page is a tab like any other, so a test can put it behind another tab (e2e/hidden-tab.spec.ts).
 * Only Puppeteer's browser-neutral API is used (interception over CDP in Chromium, WebDriver BiDi in Firefox), so a
 * Firefox suite can serve the simulator the same way.
 *
 * ```ts
 * const sim = await serveColabSim(page);
 * await page.goto(sim.notebook('/drive/nb1', { cells: [{ source: 'train()' }] }));
 * ```
 */
import type { HTTPRequest, Page } from 'puppeteer-core';
import type { SimPageApi } from './helpers';
import type { ColabSim } from './index';
import { entriesOf, type KernelState, type LogEntry } from './log';
import type { CrashKind } from './scenario';
import { SimServer } from './serve';

export interface PuppeteerColabSim extends ColabSim {
  /** Serves the same notebooks to another page (a second tab on the same notebook). */
  attach(page: Page): Promise<void>;
}

/** Serves the simulator to `page` and its frames (cross-origin output frames included); other requests go through. */
export async function serveColabSim(page: Page): Promise<PuppeteerColabSim> {
  const server = new SimServer();
  const onRequest = (request: HTTPRequest) => {
    if (request.isInterceptResolutionHandled()) return;
    const response = server.respond(new URL(request.url()), request.method());
    if (!response) return void request.continue();
    void request.respond({
      status: response.status,
      contentType: response.contentType,
      body: response.body,
      headers: { 'cache-control': 'no-store', ...response.headers },
    });
  };
  const pages: Page[] = [];
  const attach = async (page: Page) => {
    await page.setRequestInterception(true);
    page.on('request', onRequest);
    pages.push(page);
  };
  await attach(page);
  return {
    notebook: (path, scenario, origin) => server.notebook(path, scenario, origin),
    attach,
    async dispose() {
      for (const page of pages.splice(0)) {
        page.off('request', onRequest);
        if (!page.isClosed()) await page.setRequestInterception(false);
      }
    },
  };
}

// The page helpers of helpers.ts for a Puppeteer page (the Firefox suite, e2e-firefox/). They wait with interval
// polling: Puppeteer's default polls on animation frames, which a tab behind another one never gets.

type SimWindow = Window & { __colabSim?: SimPageApi };

/** How the helpers poll a page's state. */
export const POLL = { polling: 100, timeout: 20_000 };

/** The action log so far. */
export async function simLog(page: Page): Promise<LogEntry[]> {
  await page.waitForFunction(() => !!(window as SimWindow).__colabSim, POLL);
  return page.evaluate(() => (window as SimWindow).__colabSim!.log);
}

/** The entries of `type` in the page's action log. */
export async function logOf<T extends LogEntry['type']>(
  page: Page,
  type: T,
): Promise<Array<Extract<LogEntry, { type: T }>>> {
  return entriesOf(await simLog(page), type);
}

/** Waits until the kernel reaches `state` (e.g. 'idle' after load). */
export async function waitForKernel(page: Page, state: KernelState): Promise<void> {
  await page.waitForFunction((s) => (window as SimWindow).__colabSim?.state().kernel === s, POLL, state);
}

/**
 * Waits for the end of run `n` (the n-th run requested in this page load) and returns its `run-end` entry; `timeout`
 * for a run that spans more than one step (a failure, a restart, the next run) in a tab whose timers are throttled.
 */
export async function waitForRun(
  page: Page,
  n: number,
  timeout = POLL.timeout,
): Promise<Extract<LogEntry, { type: 'run-end' }>> {
  const handle = await page.waitForFunction(
    (run) => (window as SimWindow).__colabSim?.log.find((e) => e.type === 'run-end' && e.run === run),
    { ...POLL, timeout },
    n,
  );
  return (await handle.jsonValue()) as Extract<LogEntry, { type: 'run-end' }>;
}

/** The user's Run all: a real click on the toolbar's Run all button; resolves once the run has started. */
export async function runAll(page: Page): Promise<void> {
  const runs = (await logOf(page, 'run-start')).length;
  await page.click('colab-notebook-toolbar-run-button >>> #toolbar-run-button');
  await page.waitForFunction(
    (runs) => ((window as SimWindow).__colabSim?.log.filter((e) => e.type === 'run-start').length ?? 0) > runs,
    POLL,
    runs,
  );
}

/** The kernel dies now (§5.1): as if the running code had used up the VM's RAM. */
export async function triggerCrash(page: Page, kind: CrashKind = 'ram'): Promise<void> {
  await page.evaluate((k) => (window as SimWindow).__colabSim!.crash(k), kind);
}

/** Lets the cells waiting at a `pause` step go on. */
export async function resume(page: Page): Promise<void> {
  await page.evaluate(() => (window as SimWindow).__colabSim!.resume());
}
