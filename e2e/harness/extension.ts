import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type BrowserContext, test as base, chromium, type Page, type Worker } from '@playwright/test';
import { type ColabSim, installColabSim } from '../colab-sim';
import { CHROMIUM_FLAGS, findChromium } from './browser-path';
import { welcomeTabClosed } from './welcome-tab';

export const DIST = resolve(import.meta.dirname, '../../dist');

export interface ExtensionWorkerFixtures {
  /** One Chromium with the built extension, shared by the tests of a worker. */
  sharedContext: BrowserContext;
  extensionId: string;
  serviceWorker: Worker;
}

export interface ExtensionTestFixtures {
  /** The simulated Colab on the shared browser, for this test only. */
  sim: ColabSim;
  /** Opens the popup as a page, acting on `tabId` when given. */
  openPopup: (tabId?: number) => Promise<Page>;
  openOptions: () => Promise<Page>;
}

/**
 * Chromium with the extension built in `extension` (default dist/), in a fresh profile removed on close. `lang` (a
 * Chromium locale, "de", "pt-BR") is the browser's language: `--lang` picks the extension's `_locales` even where
 * Chromium has no translations of its own installed (Debian without chromium-l10n), and LANGUAGE makes the rest of
 * the browser agree where it has.
 */
export async function launchWithExtension({
  extension = DIST,
  lang,
  args = [],
}: {
  extension?: string;
  lang?: string;
  /** More Chromium flags. */
  args?: string[];
} = {}): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'oom-guard-profile-'));
  const language = lang ? [`--lang=${lang}`] : [];
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: findChromium(),
    headless: true,
    args: [
      `--disable-extensions-except=${extension}`,
      `--load-extension=${extension}`,
      ...CHROMIUM_FLAGS,
      ...language,
      ...args,
    ],
    ...(lang && { env: { ...process.env, LANGUAGE: lang.replace('-', '_') }, locale: lang }),
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export async function extensionServiceWorker(context: BrowserContext): Promise<Worker> {
  return context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
}

export const test = base.extend<ExtensionTestFixtures, ExtensionWorkerFixtures>({
  sharedContext: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const { context, close } = await launchWithExtension();
      const worker = await extensionServiceWorker(context);
      if (!(await worker.evaluate(welcomeTabClosed))) throw new Error('no welcome page opened on install');
      await use(context);
      await close();
    },
    { scope: 'worker' },
  ],
  serviceWorker: [
    async ({ sharedContext }, use) => use(await extensionServiceWorker(sharedContext)),
    { scope: 'worker' },
  ],
  extensionId: [async ({ serviceWorker }, use) => use(new URL(serviceWorker.url()).host), { scope: 'worker' }],
  context: async ({ sharedContext }, use) => {
    await use(sharedContext);
    // What a test routed goes with it, even when the test failed before its own clean-up.
    await sharedContext.unrouteAll({ behavior: 'ignoreErrors' });
  },
  sim: async ({ context }, use) => {
    const sim = await installColabSim(context);
    await use(sim);
    await sim.dispose();
  },
  page: async ({ context }, use) => {
    const page = await context.newPage();
    await use(page);
    await page.close();
  },
  openPopup: async ({ context, extensionId }, use) => {
    await use(async (tabId) => {
      const page = await context.newPage();
      const query = tabId === undefined ? '' : `?tab=${tabId}`;
      await page.goto(`chrome-extension://${extensionId}/src/popup/index.html${query}`);
      return page;
    });
  },
  openOptions: async ({ context, extensionId }, use) => {
    await use(async () => {
      const page = await context.newPage();
      await page.goto(`chrome-extension://${extensionId}/src/options/index.html`);
      return page;
    });
  },
});

export const expect = test.expect;
