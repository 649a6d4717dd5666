import { logOf, runAll, waitForKernel, waitForRun } from '../e2e/colab-sim/puppeteer';
import { EPOCH_DONE, trainNotebook } from '../e2e/harness/matrix';
import { expect, historyOf, openNotebook, test } from './harness/test';

/**
 * Firefox has no service worker: the background script is an event page, which Firefox unloads when it has been idle
 * for `extensions.background.idle.timeout` (30 s) and loads again for the next event it listens to. Here it unloads
 * after 3 s idle, so it is gone while the countdown runs, as it would be overnight with any real back-off. Not less:
 * a listener still at work postpones the unload only once, so a page's report that takes the background page more
 * than two idle periods to handle (loaded again, then storage, on a loaded machine) is cut off and lost.
 */
test.use({ firefoxPrefs: { 'extensions.background.idle.timeout': 3000 } });

/** Long enough for the idle background page to unload during the countdown, even on a loaded machine. */
const BACKOFF_S = 12;

test.beforeEach(async ({ firefox }) => firefox.resetStorage({ backoffBaseSec: BACKOFF_S }));

test('the background page unloaded during the countdown: the claim loads it again, one restart', async ({
  firefox,
  colab,
  sim,
}) => {
  const runs = { 1: { fail: 'cuda-oom' as const, place: 'frame' as const }, default: EPOCH_DONE };
  const { key, tabId } = await openNotebook({ firefox, colab, sim }, trainNotebook(runs));
  await runAll(colab);
  // Unloaded while the restart is still pending: what follows needs a background page loaded again.
  await expect
    .poll(async () => ({ alive: await firefox.backgroundAlive(), status: (await firefox.record(key))?.status.kind }))
    .toEqual({ alive: false, status: 'pending' });

  expect(await waitForRun(colab, 2)).toMatchObject({ ok: true });
  expect(await logOf(colab, 'restart')).toHaveLength(1);
  await expect.poll(async () => historyOf(await firefox.record(key), 'restarted').length).toBe(1);
  expect((await firefox.record(key))?.status.kind).toBe('watching');
  await expect.poll(() => firefox.badgeText(tabId)).toBe('1');
});

test('the tab owning a countdown closed while the background page is unloaded: another tab takes it over', async ({
  firefox,
  colab,
  sim,
}) => {
  // Room for a second tab to open, and the background page to unload again, within the countdown.
  await firefox.resetStorage({ backoffBaseSec: 16 });
  const runs = { 1: { fail: 'cuda-oom' as const }, default: EPOCH_DONE };
  const { key, tabId } = await openNotebook({ firefox, colab, sim }, trainNotebook(runs));
  await runAll(colab);
  await expect.poll(async () => (await firefox.record(key))?.status.kind).toBe('pending');
  // The notebook in a second tab, opened after the failure: its cell has run once, so its next run succeeds.
  const heir = await firefox.browser.newPage();
  await sim.attach(heir);
  await heir.goto(`${colab.url()}?authuser=1`); // the same notebook key
  const heirTab = await firefox.waitForGuard(heir);
  await waitForKernel(heir, 'idle');
  await expect
    .poll(async () => ({ alive: await firefox.backgroundAlive(), status: (await firefox.record(key))?.status }))
    .toMatchObject({ alive: false, status: { kind: 'pending', ownerTab: tabId } });
  await colab.close();

  // tabs.onRemoved loads the background page, which hands the countdown to the other tab.
  await expect
    .poll(async () => (await firefox.record(key))?.status)
    .toMatchObject({ kind: 'pending', ownerTab: heirTab });
  expect(await waitForRun(heir, 1)).toMatchObject({ ok: true });
  expect((await logOf(heir, 'menu-item')).map((e) => `${e.command}@${e.via}`)).toEqual([
    'restart-and-run-all@runtime-menu',
  ]);
  await expect.poll(async () => historyOf(await firefox.record(key), 'restarted').length).toBe(1);
  await heir.close();
});
