import { runAll, stopCell, waitForRun } from './colab-sim';
import { expect, test } from './harness/extension';
import { resetStorage, setSettings } from './harness/guard';
import { EPOCH_DONE, historyOf, logOf, openNotebook, record, trainNotebook } from './harness/matrix';

/**
 * Every end of a guarded run is told: a Run all that finished, one an error that is not out of memory stopped (its
 * cell and the exception's line, not restarted), one the person stopped. The history keeps it, the popup says it.
 */

test.beforeEach(async ({ serviceWorker }) => {
  await resetStorage(serviceWorker);
  await setSettings(serviceWorker, { backoffBaseSec: 1 });
});

test('a Run all that completes: the run started, then finished; the popup says so', async ({
  context,
  page,
  serviceWorker,
  sim,
  openPopup,
}) => {
  const { key, tabId } = await openNotebook(
    { context, page, serviceWorker, sim },
    trainNotebook({ default: EPOCH_DONE }),
  );
  await runAll(page);
  expect((await waitForRun(page, 1)).ok).toBe(true);
  await expect.poll(async () => historyOf(await record(serviceWorker, key), 'run-finished').length).toBe(1);
  expect(historyOf(await record(serviceWorker, key), 'run-started')).toHaveLength(1);
  const popup = await openPopup(tabId);
  await expect(popup.locator('.night-line')).toHaveText(/^Since .+: no failures, no restarts, run finished at \d/);
  await expect(popup.locator('.events li').first()).toContainText('Run finished');
  // The status box: guarded, what happened, what happens next.
  await expect(popup.locator('.status .headline')).toHaveText('Watching');
  await expect(popup.locator('.status .happened')).toHaveText(/^Run finished at \d\d?:\d\d/);
  await expect(popup.locator('.status .next')).toHaveText('3 of 3 restarts left; the next one after a 1 s countdown');
  await popup.close();
});

test('an error that is not out of memory stops the run: its cell and line, not restarted', async ({
  context,
  page,
  serviceWorker,
  sim,
  openPopup,
}) => {
  const scenario = trainNotebook({
    1: { fail: { type: 'error', ename: 'ValueError', evalue: 'shapes (3,) and (4,) not aligned' }, place: 'frame' },
    default: EPOCH_DONE,
  });
  const { key, tabId } = await openNotebook({ context, page, serviceWorker, sim }, scenario);
  await runAll(page);
  expect((await waitForRun(page, 1)).ok).toBe(false);
  await expect.poll(async () => historyOf(await record(serviceWorker, key), 'run-stopped').length).toBe(1);
  const [stopped] = historyOf(await record(serviceWorker, key), 'run-stopped');
  expect(stopped?.params).toEqual({ cell: 2, saw: 'ValueError: shapes (3,) and (4,) not aligned' });
  expect(await logOf(page, 'restart')).toEqual([]);
  expect(historyOf(await record(serviceWorker, key), 'restart-scheduled')).toEqual([]);

  const popup = await openPopup(tabId);
  await expect(popup.locator('.night-line')).toHaveText(
    /^Since .+: no failures, no restarts, run stopped by an error at \d.* \(not out of memory\)$/,
  );
  const newest = popup.locator('.events li').first();
  await expect(newest).toContainText('Run stopped by an error: not out of memory, not restarted');
  await expect(newest).toContainText('Cell [2]: ValueError: shapes (3,) and (4,) not aligned');
  await expect(popup.locator('.status .happened')).toHaveText(
    /^Run stopped at .+: ValueError: shapes \(3,\) and \(4,\) not aligned \(not out of memory, not restarted\)$/,
  );
  await popup.close();
});

test('the person stops the run: told as theirs, nothing restarted', async ({ context, page, serviceWorker, sim }) => {
  const epoch = { type: 'stream' as const, text: 'epoch 1/3: loss=0.91\n' };
  const scenario = trainNotebook({ 1: { steps: [{ output: epoch }, { pause: true }] }, default: EPOCH_DONE });
  const { key } = await openNotebook({ context, page, serviceWorker, sim }, scenario);
  await runAll(page);
  await expect(page.locator('#cell-train colab-static-output-renderer')).toContainText('epoch 1/3');
  await expect.poll(async () => historyOf(await record(serviceWorker, key), 'run-started').length).toBe(1);
  await stopCell(page, 'train');
  expect((await waitForRun(page, 1)).ok).toBe(false);
  await expect.poll(async () => historyOf(await record(serviceWorker, key), 'run-interrupted').length).toBe(1);
  expect(historyOf(await record(serviceWorker, key), 'run-stopped')).toEqual([]);
  expect(await logOf(page, 'restart')).toEqual([]);
});
