import { expect, test } from '@playwright/test';
import { logOf, resume, runAll, serveColabSim, waitForKernel, waitForRun } from '../e2e/colab-sim/puppeteer';
import { EPOCH_DONE, freshId, trainNotebook } from '../e2e/harness/matrix';
import { type Firefox, launchFirefox } from './harness/firefox';
import { historyOf, switchOnAndRun } from './harness/test';

/**
 * Colab tabs already open when the add-on is installed or updated. Chrome leaves them without the content scripts
 * (or with orphaned ones), so the extension injects them itself (src/background/reinject.ts); Firefox injects the
 * manifest's content scripts into matching tabs and frames by itself, and unloads the old ones on an update, so the
 * extension skips that there. Each test has its own Firefox: the add-on comes and goes under the open tab.
 */

let firefox: Firefox | undefined;
test.afterEach(async () => firefox?.close());

test('a Colab tab open before the install is guarded without a reload: OOM, one restart, the run ends', async () => {
  firefox = await launchFirefox({ install: false });
  const colab = await firefox.browser.newPage();
  const sim = await serveColabSim(colab);
  const id = freshId('before');
  const key = `drive:${id}`;
  const runs = { 1: { pause: true, fail: 'cuda-oom' as const }, default: EPOCH_DONE };
  await colab.goto(sim.notebook(`/drive/${id}`, trainNotebook(runs)));
  await waitForKernel(colab, 'idle');

  await firefox.install();
  await firefox.resetStorage({ backoffBaseSec: 1 });
  const tabId = await firefox.waitForGuard(colab);
  expect(await firefox.session(`tab:${tabId}`)).toBe(key);
  await switchOnAndRun(firefox, colab, key);
  await expect.poll(() => firefox!.badgeText(tabId)).toBe('ON');
  await resume(colab);
  expect(await waitForRun(colab, 1)).toMatchObject({ ok: false, failedCell: 1 });
  expect(await waitForRun(colab, 2)).toMatchObject({ ok: true });
  expect(await logOf(colab, 'restart')).toHaveLength(1);
  await expect.poll(async () => historyOf(await firefox!.record(key), 'restarted').length).toBe(1);
});

test('an update while a cell runs: the new scripts take over the page and its output frame, one restart', async () => {
  firefox = await launchFirefox();
  await firefox.resetStorage({ backoffBaseSec: 1 });
  const colab = await firefox.browser.newPage();
  const sim = await serveColabSim(colab);
  const id = freshId('update');
  const key = `drive:${id}`;
  await firefox.enableGuard(key);
  // The cell's output frame exists before the update; the OOM comes in it after.
  const epoch = { type: 'stream' as const, text: 'epoch 1 done\n' };
  const runs = { 1: { outputs: [epoch], pause: true, fail: 'cuda-oom' as const, place: 'frame' as const } };
  await colab.goto(sim.notebook(`/drive/${id}`, trainNotebook({ ...runs, default: EPOCH_DONE })));
  const tabId = await firefox.waitForGuard(colab);
  const before = await firefox.session(`token:${tabId}`);
  await waitForKernel(colab, 'idle');
  await runAll(colab);
  await colab.waitForFunction(() => document.querySelector('#cell-train iframe') !== null, { polling: 100 });

  await firefox.install();
  // The new background page answered the new page script's hello: a new token (session storage starts empty).
  await firefox.waitForGuard(colab);
  expect(await firefox.session(`token:${tabId}`)).not.toBe(before);
  expect((await firefox.record(key))?.enabled).toBe(true);

  await resume(colab);
  expect(await waitForRun(colab, 1)).toMatchObject({ ok: false, failedCell: 1 });
  expect(await waitForRun(colab, 2)).toMatchObject({ ok: true });
  // One restart: no orphaned copy of the old scripts acted too.
  expect(await logOf(colab, 'restart')).toHaveLength(1);
  expect((await logOf(colab, 'menu-item')).map((e) => `${e.command}@${e.via}`)).toEqual([
    'runall@toolbar',
    'restart-and-run-all@runtime-menu',
  ]);
  await expect.poll(async () => historyOf(await firefox!.record(key), 'restarted').length).toBe(1);
  const rec = (await firefox.record(key))!;
  expect(historyOf(rec, 'restart-scheduled').map((e) => e.verdict?.category)).toEqual(['gpu-oom']);
});
