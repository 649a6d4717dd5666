/**
 * The whole restart in a Colab tab that is really hidden, as overnight (REFERENCE §11.6): behind a newer
 * tab, with no animation frames and throttled timers. Playwright keeps every page it drives visible and active
 * (microsoft/playwright#2286, #3570), so this file drives Debian's Chromium with puppeteer-core over CDP, with the
 * built extension, and serves the simulator through Puppeteer's request interception (colab-sim/puppeteer.ts).
 * One browser for the file (Puppeteer's, whose flags keep a background page's timers at full speed: the simulator's
 * runs are chains of timers, which a user's browser would hold back to once a minute); the last test launches a
 * browser of its own as a user's is (harness/hidden-tab.ts). Each test opens its notebook, starts the run, then puts
 * a new tab in front of it.
 */
import { expect, test } from '@playwright/test';
import type { Browser, Page, WebWorker } from 'puppeteer-core';
import type { LogEntry } from './colab-sim';
import { resume } from './colab-sim/puppeteer';
import {
  launchWithGuard,
  openGuardedNotebook,
  POLL,
  startWakeProbe,
  throttledToMinutes,
  USER_BACKGROUND,
  userRunAll,
} from './harness/hidden-tab';
import { EPOCH_DONE, type HistoryEntry, trainNotebook } from './harness/matrix';

const BACKOFF_S = 2;
/** What the restart may take beyond the back-off in a hidden tab: background timers run late, by up to a second. */
const BOUND_MS = 10_000;

let browser: Browser;
let worker: WebWorker;

async function launchBrowser(options?: Parameters<typeof launchWithGuard>[0]): Promise<void> {
  ({ browser, worker } = await launchWithGuard(options));
}

test.beforeAll(() => launchBrowser());
test.afterAll(async () => browser?.close());

test.beforeEach(async () => {
  await worker.evaluate(async (backoffBaseSec) => {
    await chrome.storage.local.clear();
    await chrome.storage.local.set({ settings: { v: 1, backoffBaseSec } });
  }, BACKOFF_S);
});

type SimWindow = Window & { __colabSim?: { log: LogEntry[]; state(): { kernel: string } } };
type Probe = Window & { __frames?: number; __visibility?: string[] };

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
  const { page, key, dispose } = await openGuardedNotebook(
    { browser, worker },
    trainNotebook(runs, { ui: { dialogOpeningMs: 500 } }),
  );
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
  const { page, key, dispose } = await openGuardedNotebook(
    { browser, worker },
    trainNotebook(runs, { timing: { crashRestartMs: 4000 } }),
  );
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

/**
 * An OOM in a tab hidden long enough for Chrome's once-a-minute throttling of chained timers, shown
 * by a probe in the page (a one-second chain waking a minute apart). The restart must come within 60 s of the failure
 * (the target), with the user's first countdown (5 s). The countdown is one timer set when the worker's answer
 * arrives, and each step of the restart waits on the DOM (a MutationObserver), not on a chain of timers: the
 * throttling holds neither. bench/hidden-tab.spec.ts measures the same after 10 minutes hidden (docs/performance.md).
 */
test('an OOM in a tab hidden past the once-a-minute throttling is restarted within 60 s', async () => {
  test.setTimeout(600_000);
  await browser.close();
  await launchBrowser(USER_BACKGROUND);
  await worker.evaluate(() => chrome.storage.local.set({ settings: { v: 1, backoffBaseSec: 5 } }));
  const runs = { 1: { pause: true, fail: 'cuda-oom' as const }, default: EPOCH_DONE };
  const { page, key, dispose } = await openGuardedNotebook({ browser, worker }, trainNotebook(runs));
  await userRunAll(page);
  const { cover } = await hide(page);
  await startWakeProbe(page);
  // Waited for as a state: the probe's chain has woken a full minute apart (about a minute after hiding; Chrome's
  // grace is 5 minutes for some pages, docs/performance.md).
  await expect.poll(() => throttledToMinutes(page), { timeout: 400_000, intervals: [1000] }).toBe(true);
  await resume(page);

  await expect.poll(async () => entries(await simLog(page), 'restart').length, { timeout: 120_000 }).toBe(1);
  const log = await simLog(page);
  const failed = entries(log, 'run-end').find((e) => e.run === 1 && !e.ok)!;
  const restart = entries(log, 'restart')[0]!;
  expect(restart.t - failed.t).toBeGreaterThanOrEqual(5_000);
  expect(restart.t - failed.t).toBeLessThanOrEqual(60_000);
  expect(await page.evaluate(() => document.visibilityState)).toBe('hidden');
  await expect.poll(async () => (await history(key)).entries.filter((e) => e.type === 'restarted').length).toBe(1);
  await cover.close();
  await dispose();
  await page.close();
});
