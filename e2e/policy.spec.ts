import type { Worker } from '@playwright/test';
import { runAll, simLog, triggerCrash, waitForKernel, waitForRun } from './colab-sim';
import { expect, test } from './harness/extension';
import { resetStorage, setSettings, waitForGuard, waitForWatching } from './harness/guard';
import {
  badgeText,
  EPOCH_DONE,
  expectNothingBeforeSentinel,
  type FullRecord,
  failuresReported,
  historyOf,
  logOf,
  noteFailureReports,
  openNotebook,
  pageTimeOrigin,
  record,
  switchOnInPopup,
  trainNotebook,
  waitForHelloDone,
} from './harness/matrix';

/**
 * The restart policy on the simulated Colab with the built extension: the crash-loop limit and back-off, the guard
 * switched off, a reload during the back-off, two tabs on one notebook, the in-page countdown and its Cancel button,
 * the badge.
 * A countdown carried into a new page starts again, shown; one nobody carried out in time is skipped.
 * Back-off base 1 s (so 1, 2, 4 s) unless a test says otherwise.
 */

test.beforeEach(async ({ serviceWorker }) => {
  await resetStorage(serviceWorker);
  await setSettings(serviceWorker, { backoffBaseSec: 1 });
});

const OOM_EVERY_RUN = { default: { fail: 'cuda-oom' as const } };

/** Moves a pending countdown's deadline, as time passing with nobody carrying it out would. */
async function moveDeadline(serviceWorker: Worker, key: string, restartAt: number): Promise<void> {
  await serviceWorker.evaluate(
    async ({ name, restartAt }) => {
      const rec = (await chrome.storage.local.get(name))[name] as { status: object };
      await chrome.storage.local.set({ [name]: { ...rec, status: { ...rec.status, restartAt } } });
    },
    { name: `nb:${key}`, restartAt },
  );
}

/** The service worker has forgotten a closed tab (its registration is gone). */
/**
 * The countdown the new page carried: the record once its attempt is no longer `old` (the new page's hello replaces
 * it). Waits on that state: after a reload, the tab's registration is already there from the page before.
 */
async function carriedCountdown(serviceWorker: Worker, key: string, old: string): Promise<FullRecord> {
  await expect.poll(async () => (await record(serviceWorker, key))?.status.attempt).not.toBe(old);
  return (await record(serviceWorker, key))!;
}

/** A countdown as the guard stored it: its attempt, deadline, and when it was scheduled (worker clock). */
type Countdown = { attempt: string; restartAt: number; scheduledAt: number };

/**
 * Notes, in the worker, each countdown the guard schedules for `key` as it is stored: its deadline and when the
 * guard scheduled it (the `restart-scheduled` entry), both on the guard's own clock, so load cannot skew them.
 */
async function noteCountdowns(serviceWorker: Worker, key: string): Promise<void> {
  await serviceWorker.evaluate((name) => {
    type Stored = { status?: { kind?: string; attempt?: string; restartAt?: number }; history?: FullRecord['history'] };
    const seen: Countdown[] = [];
    (self as unknown as { countdowns: typeof seen }).countdowns = seen;
    chrome.storage.onChanged.addListener((changes, area) => {
      const rec = changes[name]?.newValue as Stored | undefined;
      const status = rec?.status;
      if (area !== 'local' || status?.kind !== 'pending' || seen.some((c) => c.attempt === status.attempt)) return;
      const scheduled = rec?.history?.filter((e) => e.type === 'restart-scheduled').at(-1);
      seen.push({ attempt: status.attempt!, restartAt: status.restartAt!, scheduledAt: scheduled?.at ?? Number.NaN });
    });
  }, `nb:${key}`);
}

function countdownsNoted(serviceWorker: Worker): Promise<Countdown[]> {
  return serviceWorker.evaluate(() => (self as unknown as { countdowns: Countdown[] }).countdowns);
}

async function waitForSessionKeyGone(serviceWorker: Worker, name: string): Promise<void> {
  await expect
    .poll(() => serviceWorker.evaluate(async (name) => (await chrome.storage.session.get(name))[name], name))
    .toBeUndefined();
}

/**
 * The worker has handed over the countdown of a tab gone (closed, or navigated away): the history says the tab is
 * gone. A test that writes the record itself waits for this, or the handover's write can land after it.
 */
async function waitForTabGone(serviceWorker: Worker, key: string, tabId: number): Promise<void> {
  await expect
    .poll(async () => (await record(serviceWorker, key))?.history.at(-1))
    .toMatchObject({ type: 'tab-gone', params: { tab: tabId } });
}

test(
  'a notebook that runs out of memory on every run is restarted 3 times, backed off 1, 2, 4 s, then left ' + 'alone',
  async ({ context, page, serviceWorker }) => {
    test.setTimeout(90_000);
    const { sim, key, tabId } = await openNotebook({ context, page, serviceWorker }, trainNotebook(OOM_EVERY_RUN));
    expect(await badgeText(serviceWorker, tabId)).toBe('ON');
    await noteCountdowns(serviceWorker, key);
    await runAll(page);
    // The badge counts tonight's restarts once the first one is done.
    await expect
      .poll(async () => historyOf(await record(serviceWorker, key), 'restarted').length, { timeout: 20_000 })
      .toBe(1);
    await expect.poll(() => badgeText(serviceWorker, tabId)).toBe('1');

    await expect.poll(async () => (await record(serviceWorker, key))?.status.kind, { timeout: 30_000 }).toBe('gave-up');
    expect(await waitForRun(page, 4)).toMatchObject({ ok: false, failedCell: 1 });
    const rec = (await record(serviceWorker, key))!;
    expect(rec.loopCount).toBe(3);
    expect(rec.totalRestarts).toBe(3);
    expect(rec.status.restarts).toBe(3);
    expect(historyOf(rec, 'restart-scheduled')).toHaveLength(3);
    expect(historyOf(rec, 'restarted')).toHaveLength(3);
    expect(historyOf(rec, 'gave-up')).toHaveLength(1);
    await expect.poll(() => badgeText(serviceWorker, tabId)).toBe('!');
    await expect(page.locator('colab-oom-guard-notice .box')).toHaveAttribute('data-tone', 'error');

    const log = await simLog(page);
    const failedRunEnds = log.filter((e) => e.type === 'run-end' && !e.ok);
    const menuOpens = log.filter((e) => e.type === 'menu-open');
    expect(log.filter((e) => e.type === 'restart')).toHaveLength(3);
    expect(menuOpens).toHaveLength(3);
    expect(failedRunEnds).toHaveLength(4);
    // The promise is the back-off, doubling per restart: each countdown's deadline, set by the guard, is exactly its
    // back-off after the guard scheduled it, and each restart waited out its back-off after the failure it answers
    // (and was not claimed before its deadline). How much later it came is load, not back-off: no upper bound.
    const countdowns = await countdownsNoted(serviceWorker);
    expect(countdowns.map((c) => c.restartAt - c.scheduledAt)).toEqual([1000, 2000, 4000]);
    const origin = await pageTimeOrigin(page);
    const gaps = menuOpens.map((open, i) => open.t - failedRunEnds[i]!.t);
    [1000, 2000, 4000].forEach((backoff, i) => {
      expect(gaps[i], `gap ${i + 1}: ${gaps.map(Math.round).join(', ')} ms`).toBeGreaterThanOrEqual(backoff - 50);
      expect(origin + menuOpens[i]!.t, `restart ${i + 1} before its deadline`).toBeGreaterThanOrEqual(
        countdowns[i]!.restartAt - 500,
      );
    });
    // Left alone: the fourth failure scheduled nothing (a restart needs a pending countdown; gave-up waits for the
    // user).
    expect((await record(serviceWorker, key))?.status.kind).toBe('gave-up');
    expect(await logOf(page, 'dangerous')).toEqual([]);
    await sim.dispose();
  },
);

test('a notebook with the guard off is never restarted', async ({ context, page, serviceWorker, openPopup }) => {
  const twoOoms = { 1: { fail: 'cuda-oom' as const }, 2: { fail: 'cuda-oom' as const }, default: EPOCH_DONE };
  await noteFailureReports(serviceWorker);
  const { sim, key, tabId } = await openNotebook({ context, page, serviceWorker }, trainNotebook(twoOoms), {
    guard: 'off',
  });
  expect(await badgeText(serviceWorker, tabId)).toBe('');
  await runAll(page);
  expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 1 });
  await runAll(page);
  expect(await waitForRun(page, 2)).toMatchObject({ ok: false, failedCell: 1 });
  await expect(page.locator('colab-oom-guard-notice')).toHaveCount(0);
  // Off, the guard reports nothing: no event to wait for. Switched on as the user does (the worker keeps the record
  // and its history), the person's next Run all (a run the sentinel's crash needs the guard to have seen) comes
  // first, so nothing was under way from before; and the worker, which notes each report as it arrives, got none
  // for the two OOMs.
  await switchOnInPopup(openPopup, tabId);
  await runAll(page);
  expect(await waitForRun(page, 3)).toMatchObject({ ok: true });
  await expectNothingBeforeSentinel({ context, page, serviceWorker }, key);
  expect(await failuresReported(serviceWorker)).toEqual(['colab-crash']);
  const rec = await record(serviceWorker, key);
  expect(rec?.totalRestarts).toBe(1);
  // Nothing between the switch off and on: the record kept all there was.
  expect(rec?.history.slice(0, 3).map((e) => e.type)).toEqual(['enabled', 'disabled', 'enabled']);
  expect(await logOf(page, 'restart')).toEqual([]);
  await sim.dispose();
});

test('a reload during the back-off starts the countdown again, shown, from the first delay: one restart', async ({
  context,
  page,
  serviceWorker,
}) => {
  const fx = { context, page, serviceWorker };
  // Base 2 s (2, then 4 s): room for a reload inside the second back-off even on a busy machine.
  await setSettings(serviceWorker, { backoffBaseSec: 2 });
  // The cell's runs are counted across reloads: run 1 and run 2 fail, later runs succeed.
  const { sim, key, tabId } = await openNotebook(
    fx,
    trainNotebook({ 1: { fail: 'cuda-oom' }, 2: { fail: 'cuda-oom' }, default: EPOCH_DONE }),
  );
  await runAll(page);
  // First failure → restart 1 (2 s); its run fails again → restart 2 pending for 4 s: reload now.
  await expect
    .poll(
      async () => {
        const rec = await record(serviceWorker, key);
        return rec?.status.kind === 'pending' && historyOf(rec, 'restarted').length === 1;
      },
      { timeout: 20_000, intervals: [50] },
    )
    .toBe(true);
  const stored = (await record(serviceWorker, key))!.status;
  const firstPage = await simLog(page);
  expect(firstPage.filter((e) => e.type === 'restart')).toHaveLength(1);
  expect(Date.now(), 'the reload starts within the back-off').toBeLessThan(stored.restartAt! - 1000);
  await page.reload();
  expect(await waitForGuard(serviceWorker, page)).toBe(tabId);

  // The new page got a whole new countdown of the first delay, its own attempt, and shows it…
  const carried = await carriedCountdown(serviceWorker, key, stored.attempt!);
  expect(carried.status).toMatchObject({ kind: 'pending', ownerTab: tabId });
  const resumed = historyOf(carried, 'resumed');
  expect(resumed).toHaveLength(1);
  expect(carried.status.restartAt! - resumed[0]!.at).toBe(2000);
  await expect(page.locator('colab-oom-guard-notice .box')).toHaveAttribute('data-tone', 'warning');
  // …and performs the pending restart once, at that new deadline.
  expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
  await expect.poll(async () => historyOf(await record(serviceWorker, key), 'restarted').length).toBe(2);
  const log = await simLog(page);
  expect(log.filter((e) => e.type === 'restart')).toHaveLength(1);
  expect(log.filter((e) => e.type === 'menu-item').map((e) => e.command)).toEqual(['restart-and-run-all']);
  const opened = log.find((e) => e.type === 'menu-open')!;
  const openedAt = (await pageTimeOrigin(page)) + opened.t;
  expect(openedAt).toBeGreaterThanOrEqual(carried.status.restartAt! - 500); // the claim tolerance, never earlier
  expect(openedAt).toBeLessThan(carried.status.restartAt! + 1500);

  const rec = (await record(serviceWorker, key))!;
  expect(rec.status.kind).toBe('watching');
  expect(rec.loopCount).toBe(2);
  expect(rec.totalRestarts).toBe(2);
  expect(historyOf(rec, 'restart-scheduled')).toHaveLength(2);
  expect(historyOf(rec, 'interrupted')).toEqual([]);
  expect(historyOf(rec, 'restart-failed')).toEqual([]);
  // Nothing else happens afterwards: the OOM output saved before the reload is history.
  expect(await logOf(page, 'dangerous')).toEqual([]);
  await sim.dispose();
});

test('a countdown that ended while its notebook was closed is skipped when the notebook opens again', async ({
  context,
  page,
  serviceWorker,
  openPopup,
}) => {
  await setSettings(serviceWorker, { backoffBaseSec: 3 });
  const first = await context.newPage();
  const { sim, key, url, tabId } = await openNotebook(
    { context, page: first, serviceWorker },
    trainNotebook({ 1: { fail: 'cuda-oom' }, default: EPOCH_DONE }),
  );
  await runAll(first);
  await expect.poll(async () => (await record(serviceWorker, key))?.status.kind).toBe('pending');
  await first.close();
  await waitForSessionKeyGone(serviceWorker, `tab:${tabId}`);
  await waitForTabGone(serviceWorker, key, tabId);
  // Nobody had the notebook open when its countdown ended, 3 minutes ago.
  await moveDeadline(serviceWorker, key, Date.now() - 3 * 60_000);

  await page.goto(url);
  const again = await waitForGuard(serviceWorker, page);
  await waitForHelloDone(serviceWorker, again);
  const rec = (await record(serviceWorker, key))!;
  expect(rec.status.kind).toBe('watching');
  expect(rec.history.at(-1)).toMatchObject({
    type: 'skipped',
    action: 'restart-and-run-all',
    verdict: { category: 'gpu-oom' },
  });
  expect(rec.totalRestarts).toBe(0);
  await expect(page.locator('colab-oom-guard-notice')).toHaveCount(0);
  // Nothing is due, so there is no state to wait on: a bounded wait past the first delay (3 s) with margin.
  await page.waitForTimeout(4500);
  expect(await logOf(page, 'menu-open')).toEqual([]);
  expect(await logOf(page, 'restart')).toEqual([]);
  expect((await record(serviceWorker, key))!.status.kind).toBe('watching');

  const popup = await openPopup(again);
  await expect(popup.locator('.headline')).toHaveText('Watching');
  await expect(popup.locator('.events li').first()).toContainText('Restart skipped: the notebook was not open');
  await popup.close();
  await sim.dispose();
});

test('a tab back on its notebook after the deadline gets a new countdown, shown before anything restarts', async ({
  context,
  page,
  serviceWorker,
}) => {
  await setSettings(serviceWorker, { backoffBaseSec: 3 });
  const { sim, key, url, tabId } = await openNotebook(
    { context, page, serviceWorker },
    trainNotebook({ 1: { fail: 'cuda-oom' }, default: EPOCH_DONE }),
  );
  await runAll(page);
  await expect.poll(async () => (await record(serviceWorker, key))?.status.kind).toBe('pending');
  const stored = (await record(serviceWorker, key))!.status;
  await page.goto('about:blank');
  await waitForTabGone(serviceWorker, key, tabId);
  // Its deadline passed 30 s ago while the tab was elsewhere (within the 2 minutes a countdown may be carried).
  await moveDeadline(serviceWorker, key, Date.now() - 30_000);

  await page.goto(url);
  expect(await waitForGuard(serviceWorker, page)).toBe(tabId);
  const carried = await carriedCountdown(serviceWorker, key, stored.attempt!);
  expect(carried.status).toMatchObject({ kind: 'pending', ownerTab: tabId });
  expect(carried.status.restartAt! - historyOf(carried, 'resumed')[0]!.at).toBe(3000);
  const body = page.locator('colab-oom-guard-notice .body');
  await expect(body).toContainText(/restart and run all in 0:0[1-3]$/);
  expect(await logOf(page, 'menu-open'), 'nothing fired at load').toEqual([]);

  expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
  const opened = (await logOf(page, 'menu-open'))[0]!;
  expect((await pageTimeOrigin(page)) + opened.t).toBeGreaterThanOrEqual(carried.status.restartAt! - 500);
  await expect.poll(async () => (await record(serviceWorker, key))?.totalRestarts).toBe(1);
  expect(await logOf(page, 'restart')).toHaveLength(1);
  await sim.dispose();
});

test('the same notebook in two tabs: both fail, one restart', async ({ context, page, serviceWorker }) => {
  const fx = { context, page, serviceWorker };
  // Each tab has its own simulated kernel; runs are counted per page, so run 1 fails in both.
  const { sim, key, url, tabId } = await openNotebook(
    fx,
    trainNotebook({ 1: { fail: 'cuda-oom' }, default: EPOCH_DONE }, { runCounting: 'page' }),
  );
  const other = await context.newPage();
  await other.goto(`${url}?authuser=1`); // the same notebook key
  const otherTab = await waitForGuard(serviceWorker, other);
  expect(otherTab).not.toBe(tabId);
  await waitForHelloDone(serviceWorker, otherTab);
  await waitForWatching(serviceWorker, otherTab, key);
  await waitForKernel(other, 'idle');

  await Promise.all([runAll(page), runAll(other)]);
  expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 1 });
  expect(await waitForRun(other, 1)).toMatchObject({ ok: false, failedCell: 1 });
  await expect.poll(async () => historyOf(await record(serviceWorker, key), 'restarted').length).toBe(1);
  const restarts = async () => [(await logOf(page, 'restart')).length, (await logOf(other, 'restart')).length];
  const [mine, theirs] = await restarts();
  expect(mine! + theirs!).toBe(1);
  const owner = mine === 1 ? page : other;
  expect(await waitForRun(owner, 2)).toMatchObject({ ok: true });
  const rec = (await record(serviceWorker, key))!;
  expect(historyOf(rec, 'restart-scheduled')).toHaveLength(1);
  expect(rec.totalRestarts).toBe(1);
  expect(rec.status.kind).toBe('watching');
  // The other tab's report came while the restart was pending (absorbed) or after it (its execution began before the
  // claim: noted as already handled): nothing left to do for it either way.
  expect(await restarts()).toEqual([mine, theirs]);
  expect([...(await logOf(page, 'dangerous')), ...(await logOf(other, 'dangerous'))]).toEqual([]);
  await other.close();
  await sim.dispose();
});

test('the in-page notice counts down, and its Cancel button cancels the restart', async ({
  context,
  page,
  serviceWorker,
}) => {
  // A 5 s back-off leaves time, even on a loaded machine, to read the countdown twice and press Cancel.
  await setSettings(serviceWorker, { backoffBaseSec: 5 });
  const { sim, key, tabId } = await openNotebook(
    { context, page, serviceWorker },
    trainNotebook({ 1: { fail: 'cuda-oom' }, default: EPOCH_DONE }),
  );
  await runAll(page);
  expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 1 });
  await expect.poll(async () => (await record(serviceWorker, key))?.status.kind).toBe('pending');

  const body = page.locator('colab-oom-guard-notice .body');
  await expect(body).toContainText('CUDA out of memory');
  // The countdown in m:ss: "PyTorch CUDA out of memory: restart and run all in 0:05".
  const seconds = async () => Number(/in 0:(\d\d)$/.exec((await body.textContent()) ?? '')?.[1]);
  const first = await seconds();
  expect(first).toBeGreaterThanOrEqual(1);
  expect(first).toBeLessThanOrEqual(5);
  await expect.poll(seconds, { timeout: 2500 }).toBeLessThan(first);

  // A page script clicking Cancel does nothing: the button takes a person's click only.
  await page.evaluate(() =>
    [...(document.querySelector('colab-oom-guard-notice')?.shadowRoot?.querySelectorAll('button') ?? [])]
      .find((button) => /cancel/i.test(button.textContent ?? ''))
      ?.click(),
  );
  await page.locator('colab-oom-guard-notice button', { hasText: /cancel/i }).click();
  await expect.poll(async () => (await record(serviceWorker, key))?.status.kind).toBe('watching');
  await expect(page.locator('colab-oom-guard-notice')).toHaveCount(0);
  const rec = (await record(serviceWorker, key))!;
  expect(historyOf(rec, 'cancelled')).toHaveLength(1);
  expect(rec.totalRestarts).toBe(0);
  expect(rec.loopCount).toBe(0);
  expect(await badgeText(serviceWorker, tabId)).toBe('ON');
  // A crash raised now gets its Run all one back-off later, i.e. after the cancelled deadline: had the cancelled
  // restart happened, it would be in the log first.
  await triggerCrash(page);
  await expect
    .poll(async () => (await logOf(page, 'menu-item')).map((e) => `${e.command}@${e.via}`))
    .toEqual(['runall@toolbar', 'runall@runtime-menu']);
  expect(await logOf(page, 'restart')).toEqual([]);
  await sim.dispose();
});

test('a page script clicking Cancel in the notice does not stop the countdown: the restart happens', async ({
  context,
  page,
  serviceWorker,
  sim,
}) => {
  const { key } = await openNotebook(
    { context, page, serviceWorker, sim },
    trainNotebook({ 1: { fail: 'cuda-oom' }, default: EPOCH_DONE }),
  );
  await runAll(page);
  const cancel = page.locator('colab-oom-guard-notice button', { hasText: /cancel/i });
  await expect(cancel).toBeVisible();
  await page.evaluate(() => {
    const buttons = document.querySelector('colab-oom-guard-notice')?.shadowRoot?.querySelectorAll('button');
    for (const button of buttons ?? []) button.click();
    for (const button of buttons ?? []) button.dispatchEvent(new MouseEvent('click', { bubbles: true }));
  });
  expect(await waitForRun(page, 2)).toMatchObject({ ok: true });
  await expect.poll(async () => historyOf(await record(serviceWorker, key), 'restarted').length).toBe(1);
  expect(historyOf(await record(serviceWorker, key), 'cancelled')).toEqual([]);
  expect(await logOf(page, 'restart')).toHaveLength(1);
});

test('a notebook whose runtime crashes (RAM) on every run is run again 3 times, then left alone', async ({
  context,
  page,
  serviceWorker,
}) => {
  test.setTimeout(90_000);
  // Colab's crash toast is sticky: nobody closes it overnight, so each new crash shows in the toast still open.
  const { sim, key, tabId } = await openNotebook(
    { context, page, serviceWorker },
    trainNotebook({ default: { stream: { lines: 2 }, crash: 'ram' } }),
  );
  await runAll(page);
  await expect.poll(async () => (await record(serviceWorker, key))?.status.kind, { timeout: 30_000 }).toBe('gave-up');
  expect(await waitForRun(page, 4)).toMatchObject({ ok: false, reason: 'crash' });
  const rec = (await record(serviceWorker, key))!;
  expect(rec.totalRestarts).toBe(3);
  expect(historyOf(rec, 'restart-scheduled').map((e) => e.action)).toEqual(['run-all', 'run-all', 'run-all']);
  expect((await logOf(page, 'menu-item')).map((e) => `${e.command}@${e.via}`)).toEqual([
    'runall@toolbar',
    'runall@runtime-menu',
    'runall@runtime-menu',
    'runall@runtime-menu',
  ]);
  expect(await logOf(page, 'crash')).toHaveLength(4);
  expect(await logOf(page, 'restart')).toEqual([]);
  expect(await badgeText(serviceWorker, tabId)).toBe('!');
  expect(await logOf(page, 'dangerous')).toEqual([]);
  await sim.dispose();
});
