/**
 * `npm run bench:hidden`: the time from an out-of-memory failure to the restart in Colab tabs that
 * have been hidden for a long stretch (HIDDEN_MINUTES, default 10) in Chromium as a user has it: without Puppeteer's
 * three flags that keep background pages awake, so the tabs' chained timers wake once a minute (a probe in each page
 * shows it), with the user's first countdown (5 s). HIDDEN_TABS notebooks (default 3) run side by side, each behind
 * the next; after the stretch their failures come one after another. Prints a table and writes
 * bench/hidden-results.json; docs/performance.md quotes it. Not part of `npm test` (it takes the stretch and more),
 * and it asserts nothing: e2e/hidden-tab.spec.ts holds the 60 s target after one minute hidden.
 */

import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import type { LogEntry } from '../e2e/colab-sim';
import { logOf, resume } from '../e2e/colab-sim/puppeteer';
import { findChromium } from '../e2e/harness/browser-path';
import {
  launchWithGuard,
  MINUTE_GAP_MS,
  type OpenedNotebook,
  openGuardedNotebook,
  startWakeProbe,
  USER_BACKGROUND,
  userRunAll,
  wakeGaps,
} from '../e2e/harness/hidden-tab';
import { EPOCH_DONE, trainNotebook } from '../e2e/harness/matrix';
import { describeMachine } from './lib/machine';

const ROOT = resolve(import.meta.dirname, '..');
const MINUTES = Number(process.env.HIDDEN_MINUTES ?? 10);
const TABS = Number(process.env.HIDDEN_TABS ?? 3);

interface Trial {
  tab: number;
  hiddenMinutes: number;
  /** The probe's longest gap between two wakes, and how many of its gaps were a minute or more. */
  longestGapS: number;
  minuteGaps: number;
  /** From the failure shown in the page (the failing cell's end) to each step of the guard, in seconds. */
  toMenuS: number;
  toRestartS: number;
  toRunStartS: number | null;
}

const at = (entry: { t: number } | undefined) => entry?.t ?? Number.NaN;
const seconds = (ms: number) => Math.round(ms / 100) / 10;

test('an OOM in a tab hidden for a long stretch, to its restart', async () => {
  test.setTimeout((MINUTES + 10 * TABS + 5) * 60_000);
  const guarded = await launchWithGuard(USER_BACKGROUND);
  const { browser, worker } = guarded;
  try {
    await worker.evaluate(() => chrome.storage.local.set({ settings: { v: 1, askAtKeyboard: false } }));
    const runs = { 1: { pause: true, fail: 'cuda-oom' as const }, default: EPOCH_DONE };
    const tabs: OpenedNotebook[] = [];
    // Each tab starts its run in front, then the next one covers it; a last blank tab covers the last notebook.
    for (let i = 0; i < TABS; i++) {
      const opened = await openGuardedNotebook(guarded, trainNotebook(runs));
      await userRunAll(opened.page);
      tabs.push(opened);
    }
    const cover = await browser.newPage();
    const hiddenAt = Date.now();
    for (const { page } of tabs) {
      expect(await page.evaluate(() => document.visibilityState)).toBe('hidden');
      await startWakeProbe(page);
    }
    console.log(`hidden: ${TABS} tabs for ${MINUTES} min`);
    await new Promise((done) => setTimeout(done, MINUTES * 60_000));

    const trials: Trial[] = [];
    for (const [i, { page }] of tabs.entries()) {
      await resume(page);
      await expect.poll(async () => (await logOf(page, 'restart')).length, { timeout: 10 * 60_000 }).toBe(1);
      await expect.poll(async () => (await logOf(page, 'run-start')).length, { timeout: 5 * 60_000 }).toBe(2);
      const failed = (await logOf(page, 'run-end')).find((entry) => entry.run === 1);
      const step = async (type: LogEntry['type']) => at((await logOf(page, type)).at(-1)) - at(failed);
      const gaps = await wakeGaps(page);
      trials.push({
        tab: i + 1,
        hiddenMinutes: Math.round((Date.now() - hiddenAt) / 6_000) / 10,
        longestGapS: seconds(Math.max(...gaps)),
        minuteGaps: gaps.filter((gap) => gap >= MINUTE_GAP_MS).length,
        toMenuS: seconds(await step('menu-item')),
        toRestartS: seconds(await step('restart')),
        toRunStartS: seconds(await step('run-start')),
      });
      console.log(JSON.stringify(trials.at(-1)));
    }
    await cover.close();
    for (const { dispose, page } of tabs) {
      await dispose();
      await page.close();
    }
    const machine = describeMachine(findChromium() ?? '', await browser.version());
    const results = { date: new Date().toISOString(), machine, load: loadavg(), minutes: MINUTES, trials };
    writeFileSync(join(ROOT, 'bench/hidden-results.json'), `${JSON.stringify(results, null, 2)}\n`);
    console.table(trials);
  } finally {
    await browser.close();
  }
});
