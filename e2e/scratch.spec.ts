import type { Page, Worker } from '@playwright/test';
import { runAll, waitForKernel, waitForRun } from './colab-sim';
import { expect, test } from './harness/extension';
import { resetStorage, setSettings, waitForGuard, waitForWatching } from './harness/guard';
import {
  commandsChosen,
  EPOCH_DONE,
  historyOf,
  notebookRecords,
  record,
  trainNotebook,
  waitForHelloDone,
} from './harness/matrix';
import { screenshot } from './harness/screenshots';

/**
 * Scratch notebooks (REFERENCE §12.2): Colab's empty notebook as colab-mcp opens it on colab.google.com, and
 * `/#create=true`. Each is a new notebook: guarded for as long as its tab shows it, never merged with another one,
 * and its record goes with its tab.
 */

const SCRATCH = trainNotebook(
  { 1: { fail: 'cuda-oom', place: 'frame' }, default: EPOCH_DONE },
  { title: 'empty.ipynb' },
);
const MCP_FRAGMENT = '#mcpProxyToken=4f2a9c&mcpProxyPort=8765';

test.beforeEach(async ({ serviceWorker }) => {
  await resetStorage(serviceWorker);
  await setSettings(serviceWorker, { backoffBaseSec: 1 });
});

/** The key the worker gave the tab's notebook. */
async function keyOfTab(serviceWorker: Worker, tabId: number): Promise<string> {
  const read = async (tabId: number) => String((await chrome.storage.session.get(`tab:${tabId}`))[`tab:${tabId}`]);
  return serviceWorker.evaluate(read, tabId);
}

async function openScratch(page: Page, serviceWorker: Worker, url: string): Promise<number> {
  await page.goto(url);
  const tabId = await waitForGuard(serviceWorker, page);
  await waitForHelloDone(serviceWorker, tabId);
  await waitForKernel(page, 'idle');
  return tabId;
}

test('a scratch notebook is guarded while its tab shows it; the popup says so; a reload is a new notebook', async ({
  page,
  serviceWorker,
  sim,
  openPopup,
}) => {
  const url = `${sim.notebook('/notebooks/empty.ipynb', SCRATCH, 'https://colab.google.com')}${MCP_FRAGMENT}`;
  const tabId = await openScratch(page, serviceWorker, url);
  const key = await keyOfTab(serviceWorker, tabId);
  expect(key).toMatch(new RegExp(`^scratch:${tabId}-`));

  const popup = await openPopup(tabId);
  await popup.setViewportSize({ width: 380, height: 600 });
  await expect(popup.locator('.scratch-note')).toContainText('only while this tab shows it');
  await expect(popup.getByRole('heading', { name: 'empty.ipynb' })).toBeVisible();
  await screenshot(popup, 'popup-scratch');
  await popup.getByRole('switch', { name: 'Auto-restart this notebook' }).click();
  await expect(popup.locator('.status .headline')).toHaveText('Watching');
  await popup.close();
  await waitForWatching(serviceWorker, tabId, key);

  await runAll(page);
  expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 1 });
  expect(await waitForRun(page, 2)).toMatchObject({ ok: true });
  await expect.poll(async () => historyOf(await record(serviceWorker, key), 'restarted').length).toBe(1);
  expect(await commandsChosen(page)).toEqual(['runall@toolbar', 'restart-and-run-all@runtime-menu']);
  expect(await notebookRecords(serviceWorker)).toEqual([`nb:${key}`]);

  // A reload opens a new, empty notebook: its own key, switched off, and the old record is gone.
  await page.reload();
  await expect.poll(() => keyOfTab(serviceWorker, tabId)).not.toBe(key);
  await expect.poll(() => notebookRecords(serviceWorker)).toEqual([]);
  const again = await openPopup(tabId);
  await expect(again.getByRole('switch', { name: 'Auto-restart this notebook' })).not.toBeChecked();
  await again.close();
});

test('two scratch notebooks are never one: on in one tab, the other stays off; closing a tab forgets it', async ({
  context,
  page,
  serviceWorker,
  sim,
  openPopup,
}) => {
  const base = sim.notebook('/notebooks/empty.ipynb', SCRATCH);
  const first = await openScratch(page, serviceWorker, base);
  const other = await context.newPage();
  try {
    // As google-colab-cli's `colab url` opens it.
    const cli = `${base}?dbu=%2Ftun%2Fm%2Fep1#datalabBackendUrl=https://host.example/tun/m/ep1`;
    const second = await openScratch(other, serviceWorker, cli);
    const [firstKey, secondKey] = [await keyOfTab(serviceWorker, first), await keyOfTab(serviceWorker, second)];
    expect(firstKey).not.toBe(secondKey);

    const popup = await openPopup(first);
    await popup.getByRole('switch', { name: 'Auto-restart this notebook' }).click();
    await expect(popup.locator('.status .headline')).toHaveText('Watching');
    await popup.close();
    const popupOther = await openPopup(second);
    await expect(popupOther.locator('.scratch-note')).toBeVisible();
    await expect(popupOther.getByRole('switch', { name: 'Auto-restart this notebook' })).not.toBeChecked();
    await popupOther.close();
    expect(await notebookRecords(serviceWorker)).toEqual([`nb:${firstKey}`]);

    await page.close();
    await expect.poll(() => notebookRecords(serviceWorker)).toEqual([]);
  } finally {
    await other.close();
  }
});

test('a new notebook not saved yet (/#create=true) is a scratch notebook too', async ({
  page,
  serviceWorker,
  sim,
  openPopup,
}) => {
  const tabId = await openScratch(page, serviceWorker, `${sim.notebook('/', SCRATCH)}?authuser=1#create=true`);
  expect(await keyOfTab(serviceWorker, tabId)).toMatch(/^scratch:/);
  const popup = await openPopup(tabId);
  await expect(popup.locator('.scratch-note')).toContainText('save it (File → Save a copy in Drive)');
  await expect(popup.getByRole('switch', { name: 'Auto-restart this notebook' })).not.toBeChecked();
  await popup.close();
});
