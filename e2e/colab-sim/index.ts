/**
 * A simulated Google Colab notebook page, served on Colab's real origins inside a Playwright browser context: the
 * stage for the extension's end-to-end tests. It reproduces what makes automating Colab hard (Closure menus that
 * ignore `.click()`, shadow-DOM components, cross-origin output frames, optional and varying confirmation dialogs,
 * sticky crash toasts…) per test/fixtures/colab-dom/REFERENCE.md and its snippets.
 *
 * ```ts
 * const sim = await installColabSim(context);
 * await page.goto(sim.notebook('/drive/nb1', { cells: [{ source: 'train()', runs: { 1: { fail: 'cuda-oom' } } }] }));
 * ```
 */
import type { BrowserContext, Route } from '@playwright/test';
import { resolveScenario } from './resolve';
import type { ResolvedScenario, Scenario } from './scenario';
import { ASSET_PREFIX, asset, COLAB_ORIGIN, NOT_FOUND, notebookPage, outputFramePage, type Response } from './serve';

export * from './helpers';
export type * from './log';
export { entriesOf } from './log';
export type * from './scenario';
export { RUNTIME_COMMANDS } from './scenario';
export type { ShellEnding } from './texts';
export { ansi, CUDA_OOM_MESSAGE, caughtOomOutputs, failureOutput, keyboardInterrupt, plain, shellRun } from './texts';

export interface ColabSim {
  /**
   * Registers a scenario for a notebook path such as '/drive/abc123' and returns the full
   * https://colab.research.google.com URL.
   */
  notebook(path: string, scenario: Scenario): string;
  /** Removes the routes (for a context shared between tests, such as the extension harness's). */
  dispose(): Promise<void>;
}

/**
 * Routes https://colab.research.google.com/** and https://*.googleusercontent.com/** of `context` to the simulator.
 * Registered notebook paths serve the notebook page (query strings such as `?authuser=1` and fragments are ignored
 * for the lookup; a trailing slash too); everything else on Colab's origin is a 404.
 */
export async function installColabSim(context: BrowserContext): Promise<ColabSim> {
  const notebooks = new Map<string, ResolvedScenario>();

  const colab = (route: Route) => {
    const url = new URL(route.request().url());
    if (url.pathname.startsWith(ASSET_PREFIX)) return fulfil(route, asset(url.pathname));
    const scenario = route.request().method() === 'GET' ? notebooks.get(normalisePath(url.pathname)) : undefined;
    return fulfil(route, scenario ? notebookPage(scenario) : NOT_FOUND);
  };
  const userContent = (route: Route) => {
    const url = new URL(route.request().url());
    if (url.pathname.startsWith(ASSET_PREFIX)) return fulfil(route, asset(url.pathname));
    if (url.pathname === '/outputframe.html') return fulfil(route, outputFramePage());
    return fulfil(route, NOT_FOUND);
  };
  await context.route(COLAB_PATTERN, colab);
  await context.route(USER_CONTENT_PATTERN, userContent);

  return {
    notebook(path, scenario) {
      if (!path.startsWith('/') || path.startsWith(ASSET_PREFIX))
        throw new Error(`colab-sim: bad notebook path ${path}`);
      const key = normalisePath(new URL(path, COLAB_ORIGIN).pathname);
      notebooks.set(key, resolveScenario(key, scenario));
      return new URL(path, COLAB_ORIGIN).href;
    },
    async dispose() {
      await context.unroute(COLAB_PATTERN, colab);
      await context.unroute(USER_CONTENT_PATTERN, userContent);
    },
  };
}

const COLAB_PATTERN = `${COLAB_ORIGIN}/**`;
const USER_CONTENT_PATTERN = 'https://*.googleusercontent.com/**';

function normalisePath(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

function fulfil(route: Route, response: Response): Promise<void> {
  return route.fulfill({
    status: response.status,
    contentType: response.contentType,
    body: response.body,
    headers: { 'cache-control': 'no-store', ...response.headers },
  });
}
