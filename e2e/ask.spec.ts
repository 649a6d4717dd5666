import type { Page, Worker } from '@playwright/test';
import { runAll, triggerCrash, waitForRun } from './colab-sim';
import { expect, test } from './harness/extension';
import { resetStorage, setSettings } from './harness/guard';
import { EPOCH_DONE, historyOf, logOf, openNotebook, record, trainNotebook } from './harness/matrix';

/**
 * A person at the keyboard is never surprised: in a Colab tab that has focus and had keyboard or mouse input in the
 * last 2 minutes (Playwright's pages are shown and focused), a failure's countdown becomes the notice's question
 * "Restart session and run all?" and waits for a click. Restart now restarts; Not now leaves the failure alone; 2
 * minutes without input turn the question back into the countdown.
 */

const OOM_RUN = trainNotebook({ 1: { fail: 'cuda-oom' }, default: EPOCH_DONE });

test.beforeEach(async ({ serviceWorker }) => {
  await resetStorage(serviceWorker);
  await setSettings(serviceWorker, { backoffBaseSec: 1, askAtKeyboard: true });
});

const notice = (page: Page) => page.locator('colab-oom-guard-notice .box');

/** The person types in the page, starts the run, and it fails of out-of-memory: the page asks. */
async function failWhileTyping(page: Page, serviceWorker: Worker, key: string): Promise<void> {
  await page.locator('#cell-train').click();
  await page.keyboard.type('# tuning the batch size');
  await runAll(page);
  expect((await waitForRun(page, 1)).ok).toBe(false);
  await expect(notice(page).locator('.title')).toHaveText('Restart session and run all?');
  await expect(notice(page)).toContainText('CUDA out of memory');
  await expect(notice(page).getByRole('button', { name: 'Restart now' })).toBeVisible();
  await expect(notice(page).getByRole('button', { name: 'Not now' })).toBeVisible();
  await expect.poll(async () => (await record(serviceWorker, key))?.status).toMatchObject({ kind: 'pending' });
  expect((await record(serviceWorker, key))?.status).toHaveProperty('askedAt');
}

test('a person typing in the tab is asked; nothing restarts until Restart now, which restarts and runs all', async ({
  context,
  page,
  serviceWorker,
  sim,
  openPopup,
}) => {
  const { key, tabId } = await openNotebook({ context, page, serviceWorker, sim }, OOM_RUN);
  await failWhileTyping(page, serviceWorker, key);

  const popup = await openPopup(tabId);
  await expect(popup.locator('.status .headline')).toHaveText('Waiting for you in the Colab tab');
  await popup.close();
  expect(await logOf(page, 'restart')).toEqual([]);

  await notice(page).getByRole('button', { name: 'Restart now' }).click();
  expect((await waitForRun(page, 2)).ok).toBe(true);
  expect(await logOf(page, 'restart')).toHaveLength(1);
  await expect.poll(async () => historyOf(await record(serviceWorker, key), 'restarted').length).toBe(1);
  expect(historyOf(await record(serviceWorker, key), 'asked').map((e) => e.params?.choice)).toEqual(['restart']);
});

test('Not now is final for that failure: no restart, and the history says it was left to the person', async ({
  context,
  page,
  serviceWorker,
  sim,
  openPopup,
}) => {
  const { key, tabId } = await openNotebook({ context, page, serviceWorker, sim }, OOM_RUN);
  await failWhileTyping(page, serviceWorker, key);
  await notice(page).getByRole('button', { name: 'Not now' }).click();
  await expect.poll(async () => (await record(serviceWorker, key))?.status).toEqual({ kind: 'watching' });
  await expect(notice(page)).toHaveCount(0);

  const popup = await openPopup(tabId);
  const asked = popup.locator('.events li', { hasText: 'Asked you: restart session and run all?' });
  await expect(asked).toContainText('You chose Not now: left to you, not restarted.');
  await popup.close();

  // With the question off, Colab's crash notice gets its Run all one back-off later: had the out-of-memory failure
  // been restarted after Not now, that restart would have come first.
  await setSettings(serviceWorker, { backoffBaseSec: 1, askAtKeyboard: false });
  const restarts = (await logOf(page, 'restart')).length;
  // The person's own toolbar Run all is in the log too: only what was chosen after the crash is the guard's.
  const chosenBefore = (await logOf(page, 'menu-item')).length;
  const chosenSince = async () =>
    (await logOf(page, 'menu-item')).slice(chosenBefore).map((e) => `${e.command}@${e.via}`);
  await triggerCrash(page);
  expect((await waitForRun(page, 2)).ok).toBe(true);
  expect(await chosenSince()).toEqual(['runall@runtime-menu']);
  expect(await logOf(page, 'restart')).toHaveLength(restarts);
  expect(restarts).toBe(0);
  await expect.poll(async () => historyOf(await record(serviceWorker, key), 'restarted').length).toBe(1);
  expect(await chosenSince()).toEqual(['runall@runtime-menu']);
});

test('2 minutes without input: the question gives way to the countdown', async ({
  context,
  page,
  serviceWorker,
  sim,
}) => {
  const { key } = await openNotebook({ context, page, serviceWorker, sim }, OOM_RUN);
  await failWhileTyping(page, serviceWorker, key);
  // README's 2 minutes (and 10 s to spare) of the page's time without waiting them: Chromium's virtual time runs the
  // page's timers (the content script's too) as fast as they come, then pauses the page.
  const cdp = await context.newCDPSession(page);
  const expired = new Promise((resolve) => cdp.once('Emulation.virtualTimeBudgetExpired', resolve));
  await cdp.send('Emulation.setVirtualTimePolicy', { policy: 'advance', budget: 2 * 60_000 + 10_000 });
  await expired;
  await expect
    .poll(async () => historyOf(await record(serviceWorker, key), 'asked').map((e) => e.params?.choice))
    .toEqual(['away']);
  const status = (await record(serviceWorker, key))?.status;
  expect(status).toMatchObject({ kind: 'pending', ownerTab: expect.any(Number) });
  expect(status).not.toHaveProperty('askedAt');
  expect(await logOf(page, 'restart')).toEqual([]);
});

test('with the question switched off, a person typing sees the countdown act by itself', async ({
  context,
  page,
  serviceWorker,
  sim,
}) => {
  await setSettings(serviceWorker, { backoffBaseSec: 1, askAtKeyboard: false });
  const { key } = await openNotebook({ context, page, serviceWorker, sim }, OOM_RUN);
  await page.locator('#cell-train').click();
  await page.keyboard.type('# tuning the batch size');
  await runAll(page);
  expect((await waitForRun(page, 2)).ok).toBe(true);
  expect(await logOf(page, 'restart')).toHaveLength(1);
  expect(historyOf(await record(serviceWorker, key), 'asked')).toEqual([]);
});
