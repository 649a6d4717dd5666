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
import type { ColabSim } from './index';
import { SimServer } from './serve';

/** Serves the simulator to `page` and its frames (cross-origin output frames included); other requests go through. */
export async function serveColabSim(page: Page): Promise<ColabSim> {
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
  await page.setRequestInterception(true);
  page.on('request', onRequest);
  return {
    notebook: (path, scenario) => server.notebook(path, scenario),
    async dispose() {
      page.off('request', onRequest);
      if (!page.isClosed()) await page.setRequestInterception(false);
    },
  };
}
