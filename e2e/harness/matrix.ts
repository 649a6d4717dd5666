import { type BrowserContext, expect, type Page, type Worker } from '@playwright/test';
import type { CheckUiReply } from '../../src/messaging/protocol';
import {
  type ColabSim,
  entriesOf,
  installColabSim,
  type LogEntry,
  type Scenario,
  simLog,
  triggerCrash,
  waitForKernel,
  waitForRun,
} from '../colab-sim';
import { enableGuard, readRecord, type StoredRecord, waitForGuard, waitForSessionKey, waitForWatching } from './guard';

/** Shared steps of the end-to-end matrix (detection, restart UI, policy): a guarded notebook on the simulator. */

let counter = 0;
/** A notebook id no earlier test (or earlier run of the suite in this browser) used. */
export const freshId = (prefix: string): string => `${prefix}${Date.now().toString(36)}${++counter}`;

export interface Fixtures {
  context: BrowserContext;
  page: Page;
  serviceWorker: Worker;
  /** The test's simulator (the harness's `sim` fixture disposes it); without it openNotebook installs one. */
  sim?: ColabSim;
}

export interface Opened {
  sim: ColabSim;
  id: string;
  key: string;
  url: string;
  tabId: number;
}

export interface OpenOptions {
  /**
   * Switch the guard on for the notebook before the page loads (default true); `'off'`: store the record of a
   * notebook the user switched off (`SWITCHED_OFF`), which a page's watch would load the guard for.
   */
  guard?: boolean | 'off';
  /** Extra fields of the stored notebook record (e.g. `loopCount`). */
  record?: Record<string, unknown>;
  prefix?: string;
  /** Wait for the kernel to be idle (default true). */
  connected?: boolean;
  /** The Colab origin the notebook is opened on (default https://colab.research.google.com). */
  origin?: string;
  /** A query for its address, e.g. `?hl=pt-BR` (Colab's interface language). */
  search?: string;
}

/**
 * The record of a notebook the user switched on and then off a minute ago (a record off with no history would be
 * removed as blank at the page's hello).
 */
export const SWITCHED_OFF = () => ({
  enabled: false,
  history: [
    { at: Date.now() - 120_000, type: 'enabled' },
    { at: Date.now() - 60_000, type: 'disabled' },
  ],
});

/** Registers `scenario` on a fresh Drive notebook path, switches the guard on, opens it, waits until it is watched. */
export async function openNotebook(
  { context, page, serviceWorker, sim: given }: Fixtures,
  scenario: Scenario,
  opts: OpenOptions = {},
): Promise<Opened> {
  const sim = given ?? (await installColabSim(context));
  const id = freshId(opts.prefix ?? 'nb');
  const key = `drive:${id}`;
  if (opts.guard === 'off') await enableGuard(serviceWorker, key, { ...opts.record, ...SWITCHED_OFF() });
  else if (opts.guard ?? true) await enableGuard(serviceWorker, key, opts.record);
  const url = sim.notebook(`/drive/${id}`, scenario, opts.origin) + (opts.search ?? '');
  await page.goto(url);
  const tabId = await waitForGuard(serviceWorker, page);
  await waitForHelloDone(serviceWorker, tabId);
  if (opts.guard === true || opts.guard === undefined) await waitForWatching(serviceWorker, tabId, key);
  if (opts.connected ?? true) await waitForKernel(page, 'idle');
  return { sim, id, key, url, tabId };
}

/**
 * The service worker has answered the tab's hello (the frame token is the last thing it sets up): from here the
 * content script only loads the record and starts watching, without another round trip.
 */
export async function waitForHelloDone(serviceWorker: Worker, tabId: number): Promise<void> {
  await waitForSessionKey(serviceWorker, `token:${tabId}`, 'the hello of the tab was never answered');
}

export type HistoryEntry = StoredRecord['history'][number] & {
  verdict?: { category: string; rule: string; description: string; line: string };
  /** What the entry says beyond its type (state/schema.ts HistoryParams). */
  params?: Record<string, string | number | boolean>;
};
export type FullRecord = Omit<StoredRecord, 'history' | 'status'> & {
  history: HistoryEntry[];
  status: StoredRecord['status'] & {
    restartAt?: number;
    reason?: string;
    action?: string;
    attempt?: string;
    restarts?: number;
  };
  loopCount: number;
};

export async function record(serviceWorker: Worker, key: string): Promise<FullRecord | undefined> {
  return (await readRecord(serviceWorker, key)) as FullRecord | undefined;
}

export function historyOf(rec: FullRecord | undefined, type: string): HistoryEntry[] {
  return (rec?.history ?? []).filter((e) => e.type === type);
}

/** Entries of the simulator's log of `type`, optionally only those at or after page time `since`. */
export async function logOf<T extends LogEntry['type']>(
  page: Page,
  type: T,
  since = 0,
): Promise<Array<Extract<LogEntry, { type: T }>>> {
  return entriesOf(await simLog(page), type).filter((e) => e.t >= since);
}

/** Runtime-menu commands chosen (by anyone) so far, in order, with where they came from. */
export async function commandsChosen(page: Page): Promise<string[]> {
  return (await logOf(page, 'menu-item')).map((e) => `${e.command}@${e.via}`);
}

/** The storage keys of every notebook record, in no particular order. */
export async function notebookRecords(serviceWorker: Worker): Promise<string[]> {
  const items = await serviceWorker.evaluate(() => chrome.storage.local.get(null));
  return Object.keys(items).filter((name) => name.startsWith('nb:'));
}

export async function badgeText(serviceWorker: Worker, tabId: number): Promise<string> {
  return serviceWorker.evaluate((tabId) => chrome.action.getBadgeText({ tabId }), tabId);
}

/** The page's clock (`performance.now()`, the sim log's `t`) as epoch milliseconds. */
export async function pageTimeOrigin(page: Page): Promise<number> {
  return page.evaluate(() => performance.timeOrigin);
}

/** Sends the popup's "Check Colab UI" request to the tab's content script, from the service worker. */
export async function checkUi(serviceWorker: Worker, tabId: number): Promise<CheckUiReply> {
  return serviceWorker.evaluate((tabId) => chrome.tabs.sendMessage(tabId, { type: 'check-ui' }), tabId);
}

/** Two cells, the second of which runs `runs` (per execution of that cell). */
export function trainNotebook(
  runs: NonNullable<Scenario['cells'][number]['runs']>,
  extra: Partial<Scenario> = {},
): Scenario {
  return {
    title: 'train.ipynb',
    ...extra,
    cells: [{ id: 'setup', source: 'import torch' }, { id: 'train', source: 'train()', runs }, ...(extra.cells ?? [])],
  };
}

/** A cell's output when it succeeds. */
export const EPOCH_DONE = { outputs: [{ type: 'stream' as const, text: 'epoch 1 done\n' }] };

/**
 * Nothing was done about what happened so far; then the sentinel, Colab's RAM crash toast raised by the test, gets its
 * Run all one back-off later. That proves the guard was watching the page all along, and gives a point in time after
 * "the run under test + a back-off" without waiting on the clock: had the guard acted on the run under test, its
 * restart would come first. `before` lists the restarts the test expects before the sentinel (categories of their
 * schedules), oldest first.
 */
export async function expectNothingBeforeSentinel(
  { page, serviceWorker }: Fixtures,
  key: string,
  before: string[] = [],
) {
  const chosenBefore = (await logOf(page, 'menu-item')).length;
  const restartsBefore = (await logOf(page, 'restart')).length;
  const crashRuns = (await logOf(page, 'run-start')).length;
  await triggerCrash(page);
  // The guard's Run all for the crash comes one back-off (≥ 1 s) after the crash, i.e. more than a back-off after the
  // end of the run under test.
  await expect
    .poll(async () => (await logOf(page, 'menu-item')).slice(chosenBefore).map((e) => `${e.command}@${e.via}`))
    .toEqual(['runall@runtime-menu']);
  expect((await waitForRun(page, crashRuns + 1)).ok).toBe(true);
  await expect
    .poll(async () => historyOf(await record(serviceWorker, key), 'restarted').length)
    .toBe(before.length + 1);
  const rec = (await record(serviceWorker, key))!;
  expect(historyOf(rec, 'restart-scheduled').map((e) => e.verdict?.category)).toEqual([...before, 'colab-crash']);
  expect((await logOf(page, 'restart')).length).toBe(restartsBefore);
  expect(await logOf(page, 'dangerous')).toEqual([]);
}

/**
 * From now on the worker notes the category of every failure a page reports to it, as it arrives: the evidence that
 * a page reported nothing stays whatever later happens to the record. Read it with `failuresReported`.
 */
export async function noteFailureReports(serviceWorker: Worker): Promise<void> {
  await serviceWorker.evaluate(() => {
    const probe = self as unknown as { failuresReported?: string[] };
    if (probe.failuresReported) {
      probe.failuresReported.length = 0;
      return;
    }
    const seen: string[] = [];
    probe.failuresReported = seen;
    type Sent = { type?: string; event?: { type?: string; verdict?: { category?: string } } };
    chrome.runtime.onMessage.addListener((message: Sent) => {
      if (message?.type === 'page-event' && message.event?.type === 'failure') {
        seen.push(message.event.verdict?.category ?? '?');
      }
    });
  });
}

/** The categories of the failures pages reported since `noteFailureReports` (and since the last `clear`). */
export function failuresReported(serviceWorker: Worker, clear = false): Promise<string[]> {
  return serviceWorker.evaluate((clear) => {
    const seen = (self as unknown as { failuresReported: string[] }).failuresReported;
    const copy = [...seen];
    if (clear) seen.length = 0;
    return copy;
  }, clear);
}

/**
 * Switches the guard on the way the popup's switch does: through the worker, which keeps the record's history and
 * status (a test writing the record instead would wipe what it should look at).
 */
export async function switchOnInPopup(openPopup: (tabId?: number) => Promise<Page>, tabId: number): Promise<void> {
  const popup = await openPopup(tabId);
  const toggle = popup.getByRole('switch', { name: 'Auto-restart this notebook' });
  await expect(toggle).not.toBeChecked();
  await toggle.click();
  await expect(toggle).toBeChecked();
  await popup.close();
}
