import { runAll, waitForRun } from './colab-sim';
import { expect, test } from './harness/extension';
import { resetStorage, setSettings } from './harness/guard';
import { EPOCH_DONE, historyOf, openNotebook, record, trainNotebook } from './harness/matrix';

/**
 * What the randomized night (`npm run test:night`, e2e/night/) found, each pinned by the shortest sequence of events
 * that showed it, in the suite that runs on every change.
 */

test.beforeEach(async ({ serviceWorker }) => {
  await resetStorage(serviceWorker);
  await setSettings(serviceWorker, { backoffBaseSec: 1 });
});

test('switched off and on again in a crash loop, the guard starts fresh: the popup says 0 restarts used', async ({
  context,
  page,
  serviceWorker,
  openPopup,
}) => {
  // The night's shrunk list: oom, switch off, switch on.
  const { sim, key, tabId } = await openNotebook(
    { context, page, serviceWorker },
    trainNotebook({ 1: { fail: 'cuda-oom' }, default: EPOCH_DONE }),
  );
  await runAll(page);
  expect(await waitForRun(page, 2)).toMatchObject({ ok: true });
  await expect.poll(async () => historyOf(await record(serviceWorker, key), 'restarted').length).toBe(1);

  const popup = await openPopup(tabId);
  const toggle = popup.getByRole('switch', { name: 'Auto-restart this notebook' });
  await expect(popup.getByText('Crash loop: 1 of 3 restarts used')).toBeVisible();
  await toggle.click();
  await expect(toggle).not.toBeChecked();
  await toggle.click();
  await expect(toggle).toBeChecked();
  await expect(popup.getByText('Crash loop: 0 of 3 restarts used')).toBeVisible();
  expect((await record(serviceWorker, key))?.loopCount).toBe(0);
  await popup.close();
  await sim.dispose();
});
