import type { SimPageApi } from '../e2e/colab-sim';
import { logOf, POLL, runAll, triggerCrash, waitForRun } from '../e2e/colab-sim/puppeteer';
import { EPOCH_DONE, trainNotebook } from '../e2e/harness/matrix';
import { expect, historyOf, openNotebook, test } from './harness/test';

/** The guard in Firefox on the simulated Colab: an OOM, Colab's RAM crash, the guard off, the in-page notice. */

const BACKOFF_S = 1;

type SimWindow = Window & { __colabSim?: SimPageApi };

test.beforeEach(async ({ firefox }) => firefox.resetStorage({ backoffBaseSec: BACKOFF_S }));

test('an OOM in an output frame gives one restart and run all, and the next run completes', async ({
  firefox,
  colab,
  sim,
}) => {
  const runs = { 1: { fail: 'cuda-oom' as const, place: 'frame' as const }, default: EPOCH_DONE };
  const { key, tabId } = await openNotebook({ firefox, colab, sim }, trainNotebook(runs));
  expect(await firefox.badgeText(tabId)).toBe('ON');
  await runAll(colab);
  expect(await waitForRun(colab, 1)).toMatchObject({ ok: false, failedCell: 1 });
  expect(await waitForRun(colab, 2)).toMatchObject({ ok: true });

  const chosen = (await logOf(colab, 'menu-item')).map((e) => `${e.command}@${e.via}`);
  expect(chosen).toEqual(['runall@toolbar', 'restart-and-run-all@runtime-menu']);
  expect((await logOf(colab, 'dialog-confirm')).map((e) => e.kind)).toEqual(['restart-confirm']);
  expect(await logOf(colab, 'restart')).toHaveLength(1);
  expect(await logOf(colab, 'dangerous')).toEqual([]);
  await expect.poll(async () => (await firefox.record(key))?.totalRestarts).toBe(1);
  const rec = (await firefox.record(key))!;
  expect(historyOf(rec, 'restart-scheduled').map((e) => e.verdict?.category)).toEqual(['gpu-oom']);
  expect(rec.status.kind).toBe('watching');
  await expect.poll(() => firefox.badgeText(tabId)).toBe('1');
});

test("Colab's RAM-crash notice gets Run all once Colab has brought the kernel back", async ({
  firefox,
  colab,
  sim,
}) => {
  const runs = { 1: { crash: 'ram' as const }, default: EPOCH_DONE };
  const { key } = await openNotebook({ firefox, colab, sim }, trainNotebook(runs));
  await runAll(colab);
  expect(await waitForRun(colab, 1)).toMatchObject({ ok: false, reason: 'crash' });
  expect(await waitForRun(colab, 2)).toMatchObject({ ok: true });

  expect((await logOf(colab, 'menu-item')).map((e) => `${e.command}@${e.via}`)).toEqual([
    'runall@toolbar',
    'runall@runtime-menu',
  ]);
  expect(await logOf(colab, 'run-ignored')).toEqual([]);
  expect(await logOf(colab, 'restart')).toEqual([]);
  expect(await logOf(colab, 'dangerous')).toEqual([]);
  await expect.poll(async () => historyOf(await firefox.record(key), 'restarted').length).toBe(1);
  expect(historyOf(await firefox.record(key), 'restart-scheduled').map((e) => e.action)).toEqual(['run-all']);
});

test('with the guard off, an OOM is left alone; switched on, the next failure is handled first', async ({
  firefox,
  colab,
  sim,
}) => {
  // Run 2 waits in the cell until the test raises the sentinel crash.
  const runs = { 1: { fail: 'cuda-oom' as const }, 2: { pause: true }, default: EPOCH_DONE };
  const { key, tabId } = await openNotebook({ firefox, colab, sim }, trainNotebook(runs), { guard: 'off' });
  expect(await firefox.badgeText(tabId)).toBe('');
  await runAll(colab);
  expect(await waitForRun(colab, 1)).toMatchObject({ ok: false, failedCell: 1 });
  expect(await colab.$('colab-oom-guard-notice')).toBeNull();

  // Off, the guard does nothing, so there is no event to wait for. The sentinel: switched on as the popup does (the
  // background keeps the record and its history), a crash raised now gets its Run all one back-off later; had
  // anything been under way for the OOM, it would be in the log and the record first.
  await firefox.switchOn(key);
  await firefox.waitForWatching(tabId, key);
  await runAll(colab);
  expect(await firefox.badgeText(tabId)).toBe('ON');
  await colab.waitForFunction(() => (window as SimWindow).__colabSim?.state().cells[1]?.state === 'running', POLL);
  await triggerCrash(colab);
  await expect
    .poll(async () => (await logOf(colab, 'menu-item')).map((e) => `${e.command}@${e.via}`))
    .toEqual(['runall@toolbar', 'runall@toolbar', 'runall@runtime-menu']);
  expect(await waitForRun(colab, 3)).toMatchObject({ ok: true });
  expect(await logOf(colab, 'restart')).toEqual([]);
  await expect.poll(async () => historyOf(await firefox.record(key), 'restarted').length).toBe(1);
  expect(historyOf(await firefox.record(key), 'restart-scheduled').map((e) => e.verdict?.category)).toEqual([
    'colab-crash',
  ]);
  const types = (await firefox.record(key))?.history.map((e) => e.type);
  expect(types?.slice(0, 3)).toEqual(['enabled', 'disabled', 'enabled']);
});

test('the in-page notice counts down, ignores a page script, and its Cancel button cancels the restart', async ({
  firefox,
  colab,
  sim,
}) => {
  // A 5 s back-off leaves time, even on a loaded machine, to read the countdown twice and press Cancel.
  await firefox.resetStorage({ backoffBaseSec: 5 });
  const runs = { 1: { fail: 'cuda-oom' as const }, default: EPOCH_DONE };
  const { key, tabId } = await openNotebook({ firefox, colab, sim }, trainNotebook(runs));
  await runAll(colab);
  expect(await waitForRun(colab, 1)).toMatchObject({ ok: false, failedCell: 1 });
  await expect.poll(async () => (await firefox.record(key))?.status.kind).toBe('pending');

  const body = await colab.waitForSelector('colab-oom-guard-notice >>> .body');
  expect(await body!.evaluate((el) => el.textContent)).toContain('CUDA out of memory');
  // Styled in its shadow root under Colab's CSP: a fixed box in the corner, not an unstyled line in the page.
  expect(await body!.evaluate((el) => getComputedStyle(el.closest('.box')!).position)).toBe('fixed');
  // The countdown reads "… in 0:05" (m:ss).
  const seconds = async () => {
    const left = /in (\d+):(\d\d)\b/.exec((await body!.evaluate((el) => el.textContent)) ?? '');
    return left ? Number(left[1]) * 60 + Number(left[2]) : Number.NaN;
  };
  const first = await seconds();
  expect(first).toBeGreaterThanOrEqual(1);
  expect(first).toBeLessThanOrEqual(5);
  await expect.poll(seconds, { timeout: 2500 }).toBeLessThan(first);

  const cancel = await colab.waitForSelector('colab-oom-guard-notice >>> .actions button');
  expect(await cancel!.evaluate((el) => el.textContent)).toMatch(/cancel/i);
  // A page script clicking Cancel does nothing: the button takes a person's click only.
  await colab.evaluate(() =>
    document
      .querySelector('colab-oom-guard-notice')
      ?.shadowRoot?.querySelector<HTMLElement>('.actions button')
      ?.click(),
  );
  await cancel!.click();
  await expect.poll(async () => (await firefox.record(key))?.status.kind).toBe('watching');
  await colab.waitForFunction(() => !document.querySelector('colab-oom-guard-notice'), { polling: 100 });
  const rec = (await firefox.record(key))!;
  expect(historyOf(rec, 'cancelled')).toHaveLength(1);
  expect(rec.totalRestarts).toBe(0);
  expect(await firefox.badgeText(tabId)).toBe('ON');
  // The sentinel: a crash raised now gets its Run all one back-off later, after the cancelled deadline. Had the
  // cancelled restart happened, it would be in the log first.
  await triggerCrash(colab);
  await expect
    .poll(async () => (await logOf(colab, 'menu-item')).map((e) => `${e.command}@${e.via}`), { timeout: 20_000 })
    .toEqual(['runall@toolbar', 'runall@runtime-menu']);
  expect(await logOf(colab, 'restart')).toEqual([]);
});
