import type { Worker } from '@playwright/test';
import { resume, runAll, waitForRun } from './colab-sim';
import { expect, test } from './harness/extension';
import { resetStorage, setSettings } from './harness/guard';
import { EPOCH_DONE, historyOf, logOf, openNotebook, record, trainNotebook } from './harness/matrix';

/**
 * A guard is armed for a stretch of work: one that saw nothing run in its notebook for 12 hours ends by itself, a
 * long-running cell keeps it armed, and "never end" keeps it on. Twelve hours pass by moving the stored time the
 * guard last saw a cell start or end back, through the service worker (the only writer the tests share).
 */

const HOURS_13 = 13 * 60 * 60_000;

/** The last activity the record keeps, moved 13 hours back; what is under way stays as it is. */
async function thirteenHoursPass(serviceWorker: Worker, key: string): Promise<void> {
  await serviceWorker.evaluate(
    async ({ name, back }) => {
      const stored = (await chrome.storage.local.get(name))[name] as { activity?: { at: number } };
      const activity = stored.activity ?? { at: Date.now(), busyTabs: [] };
      await chrome.storage.local.set({ [name]: { ...stored, activity: { ...activity, at: activity.at - back } } });
    },
    { name: `nb:${key}`, back: HOURS_13 },
  );
}

const OOM_RUN = trainNotebook({ 1: { fail: 'cuda-oom' }, default: EPOCH_DONE });

test.beforeEach(async ({ serviceWorker }) => {
  await resetStorage(serviceWorker);
  await setSettings(serviceWorker, { backoffBaseSec: 1 });
});

test('nothing ran for 12 hours: the guard ends by itself, says so, and a failure then is not restarted', async ({
  context,
  page,
  serviceWorker,
  sim,
  openPopup,
}) => {
  const { key, tabId } = await openNotebook({ context, page, serviceWorker, sim }, OOM_RUN);
  await thirteenHoursPass(serviceWorker, key);
  // The person comes back and runs the notebook: the first cell under way finds the guard idle too long.
  await runAll(page);
  expect((await waitForRun(page, 1)).ok).toBe(false);
  await expect.poll(async () => historyOf(await record(serviceWorker, key), 'guard-ended').length).toBe(1);
  const rec = await record(serviceWorker, key);
  expect(rec?.enabled).toBe(false);
  expect(historyOf(rec, 'restart-scheduled')).toEqual([]);
  expect(await logOf(page, 'restart')).toEqual([]);

  const popup = await openPopup(tabId);
  await expect(popup.locator('.status .headline')).toHaveText('Not guarded');
  await expect(popup.locator('.status .happened')).toHaveText(/^Guard ended at .+: nothing ran for 12 hours$/);
  await expect(popup.locator('.events li', { hasText: 'Guard ended: nothing ran for 12 hours' })).toHaveCount(1);
  await popup.close();
});

test('the popup ends a guard idle too long when it looks, before anything runs', async ({
  context,
  page,
  serviceWorker,
  sim,
  openPopup,
}) => {
  const { key, tabId } = await openNotebook({ context, page, serviceWorker, sim }, OOM_RUN);
  await thirteenHoursPass(serviceWorker, key);
  const popup = await openPopup(tabId);
  await expect(popup.locator('.status .happened')).toHaveText(/^Guard ended at .+: nothing ran for 12 hours$/);
  await expect(popup.locator('.status .headline')).toHaveText('Not guarded');
  expect((await record(serviceWorker, key))?.enabled).toBe(false);
  await popup.close();
});

test('a cell running longer than 12 hours keeps the guard armed: its out-of-memory end restarts', async ({
  context,
  page,
  serviceWorker,
  sim,
}) => {
  const epoch = { type: 'stream' as const, text: 'epoch 1/300: loss=0.91\n' };
  const scenario = trainNotebook({
    1: { steps: [{ output: epoch }, { pause: true }], fail: 'cuda-oom' },
    default: EPOCH_DONE,
  });
  const { key, tabId } = await openNotebook({ context, page, serviceWorker, sim }, scenario);
  await runAll(page);
  await expect(page.locator('#cell-train colab-static-output-renderer')).toContainText('epoch 1/300');
  await expect
    .poll(async () => ((await record(serviceWorker, key)) as { activity?: { busyTabs: number[] } })?.activity?.busyTabs)
    .toEqual([tabId]);
  await thirteenHoursPass(serviceWorker, key);
  await resume(page);
  await expect.poll(async () => historyOf(await record(serviceWorker, key), 'restart-scheduled').length).toBe(1);
  expect(historyOf(await record(serviceWorker, key), 'guard-ended')).toEqual([]);
  await expect.poll(async () => (await logOf(page, 'restart')).length).toBe(1);
});

test('"never end" keeps a guard on however long nothing runs', async ({ context, page, serviceWorker, sim }) => {
  await setSettings(serviceWorker, { backoffBaseSec: 1, guardNeverEnds: true });
  const { key } = await openNotebook({ context, page, serviceWorker, sim }, OOM_RUN);
  await thirteenHoursPass(serviceWorker, key);
  await runAll(page);
  await expect.poll(async () => historyOf(await record(serviceWorker, key), 'restart-scheduled').length).toBe(1);
  expect(historyOf(await record(serviceWorker, key), 'guard-ended')).toEqual([]);
});
