import { runAll, triggerCrash, waitForKernel, waitForRun } from './colab-sim';
import { expect, test } from './harness/extension';
import { resetStorage, setSettings, waitForWatching } from './harness/guard';
import { EPOCH_DONE, historyOf, logOf, openNotebook, record, switchOnInPopup, trainNotebook } from './harness/matrix';

/**
 * What the randomized night (`npm run test:night`, e2e/night/) found, each pinned by the shortest sequence of events
 * that showed it, in the suite that runs on every change.
 */

test.beforeEach(async ({ serviceWorker }) => {
  await resetStorage(serviceWorker);
  await setSettings(serviceWorker, { backoffBaseSec: 1 });
});

test('switched off and on again after restarts in a row, the guard starts fresh: the popup says 0 used', async ({
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
  await expect(popup.getByText('Restarts in a row: 1 of 3 used')).toBeVisible();
  await toggle.click();
  await expect(toggle).not.toBeChecked();
  await toggle.click();
  await expect(toggle).toBeChecked();
  await expect(popup.getByText('Restarts in a row: 0 of 3 used')).toBeVisible();
  expect((await record(serviceWorker, key))?.loopCount).toBe(0);
  await popup.close();
  await sim.dispose();
});

test('switched off in the popup during a countdown (a MemoryError), nothing restarts, even past its deadline', async ({
  context,
  page,
  serviceWorker,
  openPopup,
}) => {
  // What the night reported as "one restart too many" after such a switch-off; its driver had never clicked the
  // switch. Every countdown is as long as the first: the sentinel's ends after the cancelled one's deadline.
  await setSettings(serviceWorker, { backoffBaseSec: 10, backoffMaxSec: 10 });
  const { sim, key, tabId } = await openNotebook(
    { context, page, serviceWorker },
    trainNotebook({ 1: { fail: 'host-ram' }, default: EPOCH_DONE }),
  );
  await runAll(page);
  expect(await waitForRun(page, 1)).toMatchObject({ ok: false });
  await expect.poll(async () => (await record(serviceWorker, key))?.status.kind).toBe('pending');
  const notice = page.locator('colab-oom-guard-notice');
  await expect(notice.getByRole('button', { name: 'Cancel restart' })).toBeVisible();

  const popup = await openPopup(tabId);
  const toggle = popup.getByRole('switch', { name: 'Auto-restart this notebook' });
  await toggle.click();
  await expect(toggle).not.toBeChecked();
  await popup.close();
  await expect.poll(async () => (await record(serviceWorker, key))?.status.kind).toBe('watching');
  await expect(notice.getByRole('button', { name: 'Cancel restart' })).toHaveCount(0);
  const cancelled = (await record(serviceWorker, key))!;
  expect(cancelled.enabled).toBe(false);
  expect(historyOf(cancelled, 'disabled').map((e) => e.params)).toEqual([{ cancelled: true }]);

  // Switched on again, a healthy Run all (the sentinel needs a run the guard saw), then the sentinel: Colab's RAM
  // crash, whose Run all comes one whole countdown after it.
  await switchOnInPopup(openPopup, tabId);
  await runAll(page);
  expect(await waitForRun(page, 2)).toMatchObject({ ok: true });
  const menuBefore = (await logOf(page, 'menu-item')).length;
  await triggerCrash(page);
  await expect
    .poll(async () => (await logOf(page, 'menu-item')).slice(menuBefore).map((e) => `${e.command}@${e.via}`), {
      timeout: 30_000,
    })
    .toEqual(['runall@runtime-menu']);
  expect(await logOf(page, 'restart')).toEqual([]);
  // Before the sentinel, only the person's Run alls (the toolbar's): nothing the guard chose.
  const before = (await logOf(page, 'menu-item')).slice(0, menuBefore);
  expect(before.map((e) => `${e.command}@${e.via}`)).toEqual(['runall@toolbar', 'runall@toolbar']);
  // The sentinel's Run all is all the guard did.
  await expect
    .poll(async () => historyOf(await record(serviceWorker, key), 'restarted').map((e) => e.action))
    .toEqual(['run-all']);
  await sim.dispose();
});

test('asked at the keyboard, the person opens another notebook in the tab: a no, nothing restarts on return', async ({
  context,
  page,
  serviceWorker,
}) => {
  // The long night's seed 43 (the question on): an OOM, asked; the tab visits another notebook and comes back. The
  // night's model expected the countdown; the guard counts leaving the notebook as closing the tab that asked.
  await setSettings(serviceWorker, { backoffBaseSec: 1, askAtKeyboard: true });
  const { sim, key, url, tabId } = await openNotebook(
    { context, page, serviceWorker },
    trainNotebook({ 1: { fail: 'host-ram' }, default: EPOCH_DONE }),
  );
  await page.locator('#cell-train').click();
  await page.keyboard.type('# a smaller batch');
  await runAll(page);
  expect(await waitForRun(page, 1)).toMatchObject({ ok: false });
  await expect(page.locator('colab-oom-guard-notice .title')).toHaveText('Restart session and run all?');

  await page.goto(sim.notebook('/drive/never-guarded', trainNotebook({ default: EPOCH_DONE })));
  await expect
    .poll(async () => historyOf(await record(serviceWorker, key), 'asked').map((e) => e.params?.choice))
    .toEqual(['closed']);
  await page.goto(url);
  await waitForWatching(serviceWorker, tabId, key);
  await waitForKernel(page, 'idle');
  await expect.poll(async () => (await record(serviceWorker, key))?.status).toEqual({ kind: 'watching' });
  // A Run all of the person's comes and ends well in the page that came back; nothing restarts meanwhile.
  await runAll(page);
  expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
  expect(await logOf(page, 'restart')).toEqual([]);
  expect(historyOf(await record(serviceWorker, key), 'restarted')).toEqual([]);
  await sim.dispose();
});
