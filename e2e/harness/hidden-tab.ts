import { expect } from '@playwright/test';
import puppeteer, { type Browser, type LaunchOptions, type Page, type WebWorker } from 'puppeteer-core';
import type { Scenario } from '../colab-sim';
import { serveColabSim } from '../colab-sim/puppeteer';
import { CHROMIUM_FLAGS, findChromium } from './browser-path';
import { DIST } from './extension';
import { freshId } from './matrix';
import { welcomeTabClosed } from './welcome-tab';

/**
 * A Colab tab that is really hidden, as overnight (REFERENCE §11.6), in Chromium driven by puppeteer-core over CDP:
 * Playwright keeps every page it drives visible and active (microsoft/playwright#2286, #3570). The simulator is served
 * through Puppeteer's request interception (colab-sim/puppeteer.ts). Used by e2e/hidden-tab.spec.ts and the bench's
 * long night (bench/hidden-tab.spec.ts).
 */

export interface GuardedBrowser {
  browser: Browser;
  worker: WebWorker;
}

/** Chromium with the built extension (`dist`), its worker set up and the welcome tab closed. */
export async function launchWithGuard(
  options: Pick<LaunchOptions, 'args' | 'ignoreDefaultArgs'> = { args: CHROMIUM_FLAGS },
  dist = DIST,
): Promise<GuardedBrowser> {
  const browser = await puppeteer.launch({
    executablePath: findChromium(),
    headless: true,
    // Puppeteer loads the unpacked extension itself (CDP Extensions.loadUnpacked, which needs the pipe transport).
    pipe: true,
    enableExtensions: [dist],
    ...options,
  });
  const target = await browser.waitForTarget(
    (t) => t.type() === 'service_worker' && t.url().startsWith('chrome-extension://'),
  );
  const worker = await target.worker();
  if (!worker) throw new Error("no handle on the extension's service worker");
  // The handle comes as the worker starts, before its global scope (timers, extension APIs) is set up: poll it.
  await expect
    .poll(() => worker.evaluate(() => typeof chrome !== 'undefined' && !!chrome.storage), { intervals: [25] })
    .toBe(true);
  // The welcome page opened on install would be one more tab in front of or behind the Colab tab.
  expect(await worker.evaluate(welcomeTabClosed)).toBe(true);
  return { browser, worker };
}

/**
 * How the tests wait for a state of the page: interval polling, as Puppeteer's default polls on animation frames,
 * which a hidden tab never gets.
 */
export const POLL = { polling: 100, timeout: 30_000 };

type SimWindow = Window & { __colabSim?: { state(): { kernel: string }; log: Array<{ type: string }> } };

export interface OpenedNotebook {
  page: Page;
  key: string;
  dispose(): Promise<void>;
}

/** A guarded notebook in a new (front) tab, the guard set up and the kernel idle. */
export async function openGuardedNotebook(
  { browser, worker }: GuardedBrowser,
  scenario: Scenario,
): Promise<OpenedNotebook> {
  const page = await browser.newPage();
  const sim = await serveColabSim(page);
  const id = freshId('hidden');
  const key = `drive:${id}`;
  await worker.evaluate((key) => chrome.storage.local.set({ [`nb:${key}`]: { v: 1, key, enabled: true } }), key);
  const url = sim.notebook(`/drive/${id}`, scenario);
  await page.goto(url);
  // The service worker answered the tab's hello: the frame token is the last thing it sets up.
  const ready = await worker.evaluate(async (url) => {
    const [tab] = await chrome.tabs.query({ url });
    for (let i = 0; tab?.id !== undefined && i < 400; i++) {
      const token = `token:${tab.id}`;
      if ((await chrome.storage.session.get(token))[token]) return true;
      await new Promise((r) => setTimeout(r, 25));
    }
    return false;
  }, url);
  if (!ready) throw new Error('the guard never set up the tab');
  await page.waitForFunction(() => (window as SimWindow).__colabSim?.state().kernel === 'idle', POLL);
  return { page, key, dispose: () => sim.dispose() };
}

/** The user's Run all, a real click on the toolbar's Run all button, while the tab is still in front. */
export async function userRunAll(page: Page): Promise<void> {
  await page.click('colab-notebook-toolbar-run-button >>> #toolbar-run-button');
  await page.waitForFunction(() => !!(window as SimWindow).__colabSim?.log.some((e) => e.type === 'run-start'), POLL);
}

/**
 * A hidden tab throttled as in a user's Chromium, and a probe that shows it. Puppeteer (like Playwright) launches
 * Chromium with three flags that keep background pages running at full speed; without them a hidden page's timers
 * wake at most once a second, and, once it has been hidden for the grace period, a chain of timers (a timer set from
 * a timer, five deep or more) wakes at most once a minute: Chrome's intensive wake-up throttling.
 *
 * The grace before that is 5 minutes by default; `IntensiveWakeUpThrottling:grace_period_seconds/10` and Chrome's
 * one minute for a page hidden after it loaded hold for some pages only (Chromium 156, measured: docs/performance.md).
 * The simulated Colab tab was held to the minute after 40-60 s in every run, and from then on as after hours hidden.
 */
export const USER_BACKGROUND: Pick<LaunchOptions, 'ignoreDefaultArgs' | 'args'> = {
  ignoreDefaultArgs: [
    '--disable-background-timer-throttling',
    '--disable-renderer-backgrounding',
    '--disable-backgrounding-occluded-windows',
  ],
  args: [...CHROMIUM_FLAGS, '--enable-features=IntensiveWakeUpThrottling:grace_period_seconds/10'],
};

type Probe = Window & { __wakes?: number[] };

/** A chained timer in the page's own world, waking every second when nothing holds it back; each wake noted. */
export async function startWakeProbe(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as Probe;
    w.__wakes = [];
    const wake = () => {
      w.__wakes?.push(Date.now());
      setTimeout(wake, 1000);
    };
    wake();
  });
}

/** The gaps between the probe's wakes, in ms (read over the DevTools protocol, which the throttling does not hold). */
export async function wakeGaps(page: Page): Promise<number[]> {
  const wakes = await page.evaluate(() => (window as Probe).__wakes ?? []);
  return wakes.slice(1).map((at, i) => at - (wakes[i] ?? at));
}

/** A gap this long between two wakes of a one-second chain: only the once-a-minute throttling makes one. */
export const MINUTE_GAP_MS = 55_000;

/** Whether the probe has shown a full minute between two wakes. */
export async function throttledToMinutes(page: Page): Promise<boolean> {
  return (await wakeGaps(page)).some((gap) => gap >= MINUTE_GAP_MS);
}
