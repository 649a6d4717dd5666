import { test as base, expect } from '@playwright/test';
import type { Page } from 'puppeteer-core';
import type { Scenario } from '../../e2e/colab-sim';
import { type PuppeteerColabSim, runAll, serveColabSim, waitForKernel } from '../../e2e/colab-sim/puppeteer';
import { freshId, SWITCHED_OFF } from '../../e2e/harness/matrix';
import { type Firefox, launchFirefox } from './firefox';

export interface FirefoxTestFixtures {
  /** A new tab for the test's Colab page (closed afterwards). */
  colab: Page;
  /** The simulated Colab served to that tab, cross-origin output frames included. */
  sim: PuppeteerColabSim;
}

export interface FirefoxWorkerFixtures {
  /** Extra prefs of the worker's Firefox (`test.use({ firefoxPrefs })` gives a file its own Firefox). */
  firefoxPrefs: Record<string, unknown>;
  /** One Firefox with the add-on installed, shared by the tests of a worker. */
  firefox: Firefox;
}

export const test = base.extend<FirefoxTestFixtures, FirefoxWorkerFixtures>({
  firefoxPrefs: [{}, { scope: 'worker', option: true }],
  firefox: [
    async ({ firefoxPrefs }, use) => {
      const firefox = await launchFirefox({ prefs: firefoxPrefs });
      await use(firefox);
      await firefox.close();
    },
    { scope: 'worker' },
  ],
  colab: async ({ firefox }, use) => {
    const page = await firefox.browser.newPage();
    await use(page);
    if (!page.isClosed()) await page.close();
  },
  sim: async ({ colab }, use) => {
    const sim = await serveColabSim(colab);
    await use(sim);
    await sim.dispose();
  },
});

export { expect };

export interface Opened {
  key: string;
  tabId: number;
}

/**
 * Registers `scenario` on a fresh Drive notebook, switches the guard on (unless `guard: false`; `'off'`: the record
 * of a notebook the user switched on and then off, `SWITCHED_OFF`), opens it.
 */
export async function openNotebook(
  { firefox, colab, sim }: { firefox: Firefox; colab: Page; sim: PuppeteerColabSim },
  scenario: Scenario,
  { guard = true as boolean | 'off' } = {},
): Promise<Opened> {
  const id = freshId('ff');
  const key = `drive:${id}`;
  if (guard === 'off') await firefox.enableGuard(key, SWITCHED_OFF());
  else if (guard) await firefox.enableGuard(key);
  await colab.goto(sim.notebook(`/drive/${id}`, scenario));
  const tabId = await firefox.waitForGuard(colab);
  if (guard === true) await firefox.waitForWatching(tabId, key);
  await waitForKernel(colab, 'idle');
  return { key, tabId };
}

/** Switches the guard on for the notebook open in `colab`, waits until the page watches it, and runs all. */
export async function switchOnAndRun(firefox: Firefox, colab: Page, key: string): Promise<void> {
  await firefox.enableGuard(key);
  await firefox.waitForWatching(await firefox.tabIdOf(colab), key);
  await runAll(colab);
}

export function historyOf<E extends { type: string }>(rec: { history: E[] } | undefined, type: string): E[] {
  return (rec?.history ?? []).filter((e) => e.type === type);
}

/** Replaces the value of the text field `selector` as a person types it (select all, then the keys). */
export async function fill(page: Page, selector: string, text: string): Promise<void> {
  const field = await page.waitForSelector(selector);
  await field!.evaluate((el) => (el as HTMLInputElement | HTMLTextAreaElement).select());
  await field!.type(text);
}

/** The text of the element `selector`, once it matches `pattern`. */
export async function waitForText(page: Page, selector: string, pattern: RegExp): Promise<string> {
  const handle = await page.waitForFunction(
    (selector, source, flags) => {
      const text = document.querySelector(selector)?.textContent ?? '';
      return new RegExp(source, flags).test(text) && text;
    },
    { polling: 100 },
    selector,
    pattern.source,
    pattern.flags,
  );
  return (await handle.jsonValue()) as string;
}
