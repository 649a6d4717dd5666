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
import type { Scenario } from './scenario';
import { COLAB_ORIGINS, NOT_FOUND, type Response, SimServer } from './serve';

export * from './helpers';
export type * from './log';
export { entriesOf } from './log';
export type * from './scenario';
export { RUNTIME_COMMANDS } from './scenario';
export type { ShellEnding } from './texts';
export {
  ansi,
  CUDA_OOM_MESSAGE,
  caughtOomOutputs,
  childKilled,
  colabErrorCopy,
  failureOutput,
  keyboardInterrupt,
  plain,
  shellRun,
  shownOom,
} from './texts';

export interface ColabSim {
  /**
   * Registers a scenario for a notebook path such as '/drive/abc123' and returns its full URL on `origin` (by default
   * https://colab.research.google.com; the path is served on each of Colab's origins).
   */
  notebook(path: string, scenario: Scenario, origin?: string): string;
  /** Removes the routes (for a context shared between tests, such as the extension harness's). */
  dispose(): Promise<void>;
}

/**
 * Routes each Colab origin (https://colab.research.google.com/**, colab.google.com, colab.sandbox.google.com) and
 * https://*.googleusercontent.com/** of `context` to the simulator.
 * Registered notebook paths serve the notebook page (query strings such as `?authuser=1` and fragments are ignored
 * for the lookup; a trailing slash too); everything else on Colab's origin is a 404.
 */
export async function installColabSim(context: BrowserContext): Promise<ColabSim> {
  const server = new SimServer();
  const handle = (route: Route) => {
    const request = route.request();
    return fulfil(route, server.respond(new URL(request.url()), request.method()) ?? NOT_FOUND);
  };
  for (const pattern of PATTERNS) await context.route(pattern, handle);

  return {
    notebook: (path, scenario, origin) => server.notebook(path, scenario, origin),
    async dispose() {
      for (const pattern of PATTERNS) await context.unroute(pattern, handle);
    },
  };
}

const COLAB_PATTERNS = COLAB_ORIGINS.map((origin) => `${origin}/**`);
const USER_CONTENT_PATTERN = 'https://*.googleusercontent.com/**';
const PATTERNS = [...COLAB_PATTERNS, USER_CONTENT_PATTERN];

function fulfil(route: Route, response: Response): Promise<void> {
  return route.fulfill({
    status: response.status,
    contentType: response.contentType,
    body: response.body,
    headers: { 'cache-control': 'no-store', ...response.headers },
  });
}
