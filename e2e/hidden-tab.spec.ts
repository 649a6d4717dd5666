/**
 * The whole restart in a Colab tab that is really hidden, as overnight (REFERENCE §11.6): behind a newer
 * tab, with no animation frames and throttled timers. Playwright keeps every page it drives visible and active
 * (microsoft/playwright#2286, #3570), so this file drives Debian's Chromium with puppeteer-core over CDP, with the
 * built extension, and serves the simulator through Puppeteer's request interception (colab-sim/puppeteer.ts).
 * One browser for the file; each test opens its notebook, starts the run, then puts a new tab in front of it.
 */
import { expect, test } from '@playwright/test';
import puppeteer, { type Browser, type Page, type WebWorker } from 'puppeteer-core';
import type { LogEntry, Scenario } from './colab-sim';
import { resume, serveColabSim } from './colab-sim/puppeteer';
import { CHROMIUM_FLAGS, findChromium } from './harness/browser-path';
import { DIST } from './harness/extension';
import { EPOCH_DONE, freshId, type HistoryEntry, trainNotebook } from './harness/matrix';
import { welcomeTabClosed } from './harness/welcome-tab';

const BACKOFF_S = 2;
/** What the restart may take beyond the back-off in a hidden tab: background timers run late, by up to a second. */
const BOUND_MS = 10_000;

let browser: Browser;
let worker: WebWorker;

test.beforeAll(async () => {
  browser = await puppeteer.launch({
    executablePath: findChromium(),
    headless: true,
    // Puppeteer loads the unpacked extension itself (CDP Extensions.loadUnpacked, which needs the pipe transport).
    pipe: true,
    enableExtensions: [DIST],
    args: CHROMIUM_FLAGS,
  });
  const target = await browser.waitForTarget(
    (t) => t.type() === 'service_worker' && t.url().startsWith('chrome-extension://'),
  );
  const found = await target.worker();
  if (!found) throw new Error("no handle on the extension's service worker");
  worker = found;
  // The handle comes as the worker starts, before its global scope (timers, extension APIs) is set up: poll it.
  await expect
    .poll(() => worker.evaluate(() => typeof chrome !== 'undefined' && !!chrome.storage), { intervals: [25] })
    .toBe(true);
  // The welcome page opened on install would be one more tab in front of or behind the Colab tab.
  expect(await worker.evaluate(welcomeTabClosed)).toBe(true);
});
test.afterAll(async () => browser?.close());

test.beforeEach(async () => {
  await worker.evaluate(async (backoffBaseSec) => {
    await chrome.storage.local.clear();
    await chrome.storage.local.set({ settings: { v: 1, backoffBaseSec } });
  }, BACKOFF_S);
});

type SimWindow = Window & { __colabSim?: { log: LogEntry[]; state(): { kernel: string } } };
type Probe = Window & { __frames?: number; __visibility?: string[] };

interface Opened {
  page: Page;
  key: string;
  dispose(): Promise<void>;
}

/** A guarded notebook in a new (front) tab, the guard set up and the kernel idle. */
async function openNotebook(scenario: Scenario): Promise<Opened> {
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

/**
 * How the tests wait for a state of the page: interval polling, as Puppeteer's default polls on animation frames,
 * which a hidden tab never gets.
 */
const POLL = { polling: 100, timeout: 30_000 };

async function simLog(page: Page): Promise<LogEntry[]> {
  return page.evaluate(() => (window as SimWindow).__colabSim!.log);
}

function entries<T extends LogEntry['type']>(log: LogEntry[], type: T): Array<Extract<LogEntry, { type: T }>> {
  return log.filter((e): e is Extract<LogEntry, { type: T }> => e.type === type);
}

/** Counts the page's animation frames and records its visibility changes, from now on. */
async function probe(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as Probe;
    w.__frames = 0;
    w.__visibility = [];
    const frame = () => {
      w.__frames = (w.__frames ?? 0) + 1;
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
    document.addEventListener('visibilitychange', () => w.__visibility?.push(document.visibilityState));
  });
}

async function probed(page: Page): Promise<{ frames: number; visibility: string[]; now: string }> {
  return page.evaluate(() => {
    const w = window as Probe;
    return { frames: w.__frames ?? 0, visibility: w.__visibility ?? [], now: document.visibilityState };
  });
}

/** The user's Run all, a real click on the toolbar's Run all button, while the tab is still in front. */
async function userRunAll(page: Page): Promise<void> {
  await page.click('colab-notebook-toolbar-run-button >>> #toolbar-run-button');
  await page.waitForFunction(() => !!(window as SimWindow).__colabSim?.log.some((e) => e.type === 'run-start'), POLL);
}

/** Puts a new tab in front of the Colab tab, and proves the Colab tab hidden and without animation frames. */
async function hide(page: Page): Promise<{ cover: Page; frames: number }> {
  const cover = await browser.newPage();
  await page.waitForFunction(() => document.visibilityState === 'hidden', POLL);
  const { frames } = await probed(page);
  // A bounded wait for "nothing happened": an animation frame requested now must not come within a second.
  const next = await page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        requestAnimationFrame(() => resolve('frame'));
        setTimeout(() => resolve('no frame'), 1000);
      }),
  );
  expect(next).toBe('no frame');
  return { cover, frames };
}

async function history(key: string): Promise<{ status: string; entries: HistoryEntry[] }> {
  return worker.evaluate(async (key) => {
    const rec = (await chrome.storage.local.get(`nb:${key}`))[`nb:${key}`] as {
      status: { kind: string };
      history: Array<{ type: string; at: number }>;
    };
    return { status: rec.status.kind, entries: rec.history };
  }, key);
}

const waitForRunEnd = (page: Page, run: number) =>
  page.waitForFunction(
    (run) => !!(window as SimWindow).__colabSim?.log.some((e) => e.type === 'run-end' && e.run === run),
    POLL,
    run,
  );

test('restart and run all in a hidden tab: countdown, menu, a dialog still opening, verification', async () => {
  // The failing cell waits at a pause until the tab is behind another one: the OOM comes in a hidden tab.
  const runs = { 1: { pause: true, fail: 'cuda-oom' as const }, default: EPOCH_DONE };
  const { page, key, dispose } = await openNotebook(trainNotebook(runs, { ui: { dialogOpeningMs: 500 } }));
  await probe(page);
  await userRunAll(page);
  const { cover, frames } = await hide(page);
  await resume(page);

  await waitForRunEnd(page, 2);
  const log = await simLog(page);
  const [failed, rerun] = entries(log, 'run-end');
  expect(failed).toMatchObject({ run: 1, ok: false, failedCell: 1 });
  expect(rerun).toMatchObject({ run: 2, ok: true });
  const chosen = entries(log, 'menu-item').map((e) => `${e.command}@${e.via}`);
  expect(chosen).toEqual(['runall@toolbar', 'restart-and-run-all@runtime-menu']);
  expect(entries(log, 'dialog-confirm').map((e) => e.kind)).toEqual(['restart-confirm']);
  expect(entries(log, 'dialog-click-lost')).toEqual([]);
  expect(entries(log, 'restart')).toHaveLength(1);
  expect(entries(log, 'dangerous')).toEqual([]);
  // The countdown was kept, and the whole restart took at most the bound beyond it.
  const start = entries(log, 'run-start').find((e) => e.run === 2)!;
  expect(start.t - failed!.t).toBeGreaterThanOrEqual(BACKOFF_S * 1000);
  expect(start.t - failed!.t).toBeLessThan(BACKOFF_S * 1000 + BOUND_MS);
  // Hidden all along, and not one animation frame since it was hidden.
  expect(await probed(page)).toEqual({ frames, visibility: ['hidden'], now: 'hidden' });

  await expect.poll(async () => (await history(key)).entries.filter((e) => e.type === 'restarted').length).toBe(1);
  expect((await history(key)).status).toBe('watching');
  await cover.close();
  await dispose();
  await page.close();
});

test('Run all after a RAM crash in a hidden tab waits for the kernel Colab brings back', async () => {
  const runs = { 1: { pause: true, crash: 'ram' as const }, default: EPOCH_DONE };
  // Colab takes 4 s to bring the kernel back, longer than the back-off: a Run all before that would be ignored.
  const { page, key, dispose } = await openNotebook(trainNotebook(runs, { timing: { crashRestartMs: 4000 } }));
  await probe(page);
  await userRunAll(page);
  const { cover, frames } = await hide(page);
  await resume(page);

  await waitForRunEnd(page, 2);
  const log = await simLog(page);
  expect(entries(log, 'run-end').map((e) => [e.run, e.ok])).toEqual([
    [1, false],
    [2, true],
  ]);
  expect(entries(log, 'run-ignored')).toEqual([]);
  expect(entries(log, 'menu-item').map((e) => `${e.command}@${e.via}`)).toEqual([
    'runall@toolbar',
    'runall@runtime-menu',
  ]);
  const crash = entries(log, 'crash')[0]!;
  const back = entries(log, 'kernel').find((e) => e.t > crash.t && e.state === 'idle')!;
  const guardRunAll = entries(log, 'menu-item').at(-1)!;
  expect(guardRunAll.t).toBeGreaterThan(back.t);
  expect(guardRunAll.t - crash.t).toBeLessThan(4000 + BACKOFF_S * 1000 + BOUND_MS);
  expect(entries(log, 'dangerous')).toEqual([]);
  expect(await probed(page)).toEqual({ frames, visibility: ['hidden'], now: 'hidden' });

  await expect.poll(async () => (await history(key)).entries.filter((e) => e.type === 'restarted').length).toBe(1);
  await cover.close();
  await dispose();
  await page.close();
});
