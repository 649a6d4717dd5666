import { runAll, waitForKernel, waitForRun } from './colab-sim';
import { expect, test } from './harness/extension';
import { resetStorage, setSettings, waitForGuard, waitForWatching } from './harness/guard';
import {
  commandsChosen,
  EPOCH_DONE,
  freshId,
  historyOf,
  notebookRecords,
  openNotebook,
  record,
  trainNotebook,
  waitForHelloDone,
} from './harness/matrix';

/**
 * Colab's notebook app on each of its domains (REFERENCE §12.1): the guard works on colab.google.com and
 * colab.sandbox.google.com as on colab.research.google.com, output frames included, and the same Drive notebook on two
 * domains is one notebook: one switch, one record, one count.
 */

test.beforeEach(async ({ serviceWorker }) => {
  await resetStorage(serviceWorker);
  await setSettings(serviceWorker, { backoffBaseSec: 1 });
});

for (const origin of ['https://colab.google.com', 'https://colab.sandbox.google.com']) {
  test(`on ${new URL(origin).host}: an OOM in an output frame restarts and runs all, once`, async ({
    context,
    page,
    serviceWorker,
    sim,
  }) => {
    const fx = { context, page, serviceWorker, sim };
    const { key } = await openNotebook(
      fx,
      trainNotebook({ 1: { fail: 'cuda-oom', place: 'frame' }, default: EPOCH_DONE }),
      {
        origin,
      },
    );
    expect(new URL(page.url()).origin).toBe(origin);
    await runAll(page);
    expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 1 });
    expect(await waitForRun(page, 2)).toMatchObject({ ok: true });
    await expect.poll(async () => historyOf(await record(serviceWorker, key), 'restarted').length).toBe(1);
    expect(await commandsChosen(page)).toEqual(['runall@toolbar', 'restart-and-run-all@runtime-menu']);
    expect(await notebookRecords(serviceWorker)).toEqual([`nb:${key}`]);
  });
}

test('switched on at colab.research.google.com, the same notebook at colab.google.com is guarded: one record', async ({
  context,
  page,
  serviceWorker,
  sim,
  openPopup,
}) => {
  const id = freshId('both');
  const key = `drive:${id}`;
  const scenario = trainNotebook({ 1: { fail: 'cuda-oom', place: 'frame' }, default: EPOCH_DONE });
  await page.goto(sim.notebook(`/drive/${id}`, scenario));
  const first = await waitForGuard(serviceWorker, page);
  await waitForHelloDone(serviceWorker, first);

  const popup = await openPopup(first);
  await popup.getByRole('switch', { name: 'Auto-restart this notebook' }).click();
  await expect(popup.locator('.status .headline')).toHaveText('Watching');
  await popup.close();

  // The same notebook on the other domain, as a README's colab.google.com link opens it.
  const other = await context.newPage();
  try {
    await other.goto(`https://colab.google.com/drive/${id}?authuser=0#scrollTo=train`);
    const second = await waitForGuard(serviceWorker, other);
    await waitForWatching(serviceWorker, second, key);
    await waitForKernel(other, 'idle');
    const popupThere = await openPopup(second);
    await expect(popupThere.getByRole('switch', { name: 'Auto-restart this notebook' })).toBeChecked();
    await popupThere.close();

    await runAll(other);
    expect(await waitForRun(other, 1)).toMatchObject({ ok: false, failedCell: 1 });
    expect(await waitForRun(other, 2)).toMatchObject({ ok: true });
    await expect.poll(async () => (await record(serviceWorker, key))?.totalRestarts).toBe(1);
    expect(await notebookRecords(serviceWorker)).toEqual([`nb:${key}`]);
    // The restart was the page's where the failure happened; the first tab's notebook was left alone.
    expect(await commandsChosen(other)).toEqual(['runall@toolbar', 'restart-and-run-all@runtime-menu']);
    expect(await commandsChosen(page)).toEqual([]);
  } finally {
    await other.close();
  }
});

test('Check Colab UI says, naming it, when the output frames come from a host the guard does not know', async ({
  context,
  page,
  serviceWorker,
  sim,
  openPopup,
}) => {
  const scenario = trainNotebook(
    { default: EPOCH_DONE },
    { ui: { frameHost: 'outputs.colab.test', places: { stream: 'frame' } } },
  );
  const { tabId } = await openNotebook({ context, page, serviceWorker, sim }, scenario, {
    origin: 'https://colab.google.com',
  });
  await runAll(page);
  expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
  await expect(page.locator('.output-iframe-sizer iframe')).not.toHaveCount(0);
  const popup = await openPopup(tabId);
  await popup.getByRole('button', { name: 'Check Colab UI' }).click();
  await expect(popup.locator('.check .check-result')).toHaveText(
    /^Not ready: Colab shows its outputs from [a-z0-9-]+-0-colab\.outputs\.colab\.test, a host the guard does not know/,
  );
  await popup.close();
});
