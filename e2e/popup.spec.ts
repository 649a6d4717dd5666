import type { Page, Worker } from '@playwright/test';
import { runAll, type Scenario, waitForRun } from './colab-sim';
import { expect, test } from './harness/extension';
import { readRecord, resetStorage, setSettings } from './harness/guard';
import { badgeText, EPOCH_DONE, openNotebook, record, trainNotebook } from './harness/matrix';
import { screenshot } from './harness/screenshots';

/**
 * The popup over a (simulated) Colab notebook and over another page, opened as a page with ?tab=<id>: every state it
 * shows, reached the way the night reaches it, and (with SCREENSHOTS=1) the pictures of each for README and docs/.
 */

const POPUP_VIEWPORT = { width: 380, height: 600 };

const OOM_ONCE = trainNotebook(
  { 1: { fail: 'cuda-oom', place: 'frame' }, default: EPOCH_DONE },
  {
    title: 'train_llm.ipynb',
  },
);

async function openPopupAt(openPopup: (tabId?: number) => Promise<Page>, tabId: number): Promise<Page> {
  const popup = await openPopup(tabId);
  await popup.setViewportSize(POPUP_VIEWPORT);
  return popup;
}

/** The toolbar icon's tooltip for the tab. */
function badgeTitle(serviceWorker: Worker, tabId: number): Promise<string> {
  return serviceWorker.evaluate((tabId) => chrome.action.getTitle({ tabId }), tabId);
}

const headline = (popup: Page) => popup.locator('.status .headline');

test.beforeEach(async ({ serviceWorker }) => {
  await resetStorage(serviceWorker);
  await setSettings(serviceWorker, { backoffBaseSec: 2 });
});

test('the switch turns the guard on for the notebook, and the page follows: an OOM restarts and runs all', async ({
  context,
  page,
  serviceWorker,
  sim,
  openPopup,
}) => {
  const { key, tabId } = await openNotebook({ context, page, serviceWorker, sim }, OOM_ONCE, { guard: false });

  const popup = await openPopupAt(openPopup, tabId);
  await expect(popup.getByRole('heading', { name: 'train_llm.ipynb' })).toBeVisible();
  const toggle = popup.getByRole('switch', { name: 'Auto-restart this notebook' });
  await expect(toggle).not.toBeChecked();
  await expect(headline(popup)).toHaveText('Not guarded');
  await expect(popup.locator('.night-line')).toHaveCount(0);
  await screenshot(popup, 'popup-off');

  // Keyboard only: focus the switch and press Space.
  await toggle.focus();
  await popup.keyboard.press('Space');
  await expect(toggle).toBeChecked();
  await expect(headline(popup)).toHaveText('Watching');
  await expect.poll(async () => (await readRecord(serviceWorker, key))?.enabled).toBe(true);
  await expect.poll(() => badgeText(serviceWorker, tabId)).toBe('ON');
  // The tooltip says what the status box says.
  await expect
    .poll(() => badgeTitle(serviceWorker, tabId))
    .toBe('Colab OOM Guard: Watching\n3 of 3 restarts left; the next one after a 2 s countdown');
  await screenshot(popup, 'popup-watching');

  await runAll(page);
  // What was found, and what will happen, in m:ss.
  await expect(headline(popup)).toHaveText(/^PyTorch CUDA out of memory: restart and run all in 0:0[0-2]$/);
  await expect(popup.getByRole('button', { name: 'Cancel restart' })).toBeVisible();
  expect(await waitForRun(page, 2)).toMatchObject({ ok: true });

  await expect(headline(popup)).toHaveText('Watching');
  await expect(popup.getByText('Restarts in a row: 1 of 3 used')).toBeVisible();
  await expect(popup.locator('.night-line')).toHaveText(/^Since .+: 1 failure, 1 restart, last at \d/);
  // The run the restart started finished: the newest event, and what the status box says happened.
  await expect(popup.locator('.events li').first()).toContainText('Run finished');
  await expect(popup.locator('.status .happened')).toHaveText(/^Run finished at .+ after 1 restart$/);
  await expect(popup.locator('.events li').nth(1)).toContainText('Restarted and ran all cells');
  await expect(popup.locator('.events li').nth(2)).toContainText('Failure detected: countdown started');
  await expect(popup.locator('.timeline [data-kind=restart]')).toHaveCount(1);
  await expect(popup.locator('.timeline [data-kind=failure]')).toHaveCount(1);
  await expect.poll(async () => (await readRecord(serviceWorker, key))?.totalRestarts).toBe(1);
  await expect.poll(() => badgeText(serviceWorker, tabId)).toBe('1');
  await expect
    .poll(() => badgeTitle(serviceWorker, tabId))
    .toMatch(
      /^Colab OOM Guard: Watching\nRun finished at .+ after 1 restart\n2 of 3 restarts left; the next one after a 4 s/,
    );
  await screenshot(popup, 'popup-notebook');
  await popup.close();
});

test('the countdown says what was found and what will happen, in m:ss, in the popup and the page; Cancel', async ({
  context,
  page,
  serviceWorker,
  sim,
  openPopup,
}) => {
  // Long enough to read, photograph and cancel on a loaded machine.
  await setSettings(serviceWorker, { backoffBaseSec: 90 });
  const { key, tabId } = await openNotebook({ context, page, serviceWorker, sim }, OOM_ONCE);
  const popup = await openPopupAt(openPopup, tabId);
  await expect(headline(popup)).toHaveText('Watching');
  await runAll(page);
  await expect(headline(popup)).toHaveText(/^PyTorch CUDA out of memory: restart and run all in 1:[23]\d$/);
  await expect(popup.locator('.status .details')).toContainText(
    'PyTorch CUDA out of memory: OutOfMemoryError: CUDA out of memory.',
  );
  await expect(popup.locator('body')).not.toContainText('torch-cuda-oom');
  await expect(page.locator('colab-oom-guard-notice .countdown')).toHaveText(
    /^PyTorch CUDA out of memory: restart and run all in 1:[23]\d$/,
  );
  await expect
    .poll(() => badgeTitle(serviceWorker, tabId))
    .toBe('Colab OOM Guard: PyTorch CUDA out of memory: countdown to the restart started');
  await screenshot(popup, 'popup-countdown');
  await screenshot(page.locator('colab-oom-guard-notice .box'), 'notice-countdown');

  await popup.getByRole('button', { name: 'Cancel restart' }).click();
  await expect(headline(popup)).toHaveText('Watching');
  await expect(popup.locator('.events li').first()).toContainText('Countdown cancelled');
  await expect(page.locator('colab-oom-guard-notice')).toHaveCount(0);
  expect((await record(serviceWorker, key))?.totalRestarts).toBe(0);
  await popup.close();
});

test('Restarting…, while Colab restarts the session, then Watching again', async ({
  context,
  page,
  serviceWorker,
  sim,
  openPopup,
}) => {
  // Colab takes 6 s to restart the session: the guard's verification waits for the cells to run again.
  const scenario: Scenario = { ...OOM_ONCE, timing: { restartMs: 6000 } };
  const { tabId } = await openNotebook({ context, page, serviceWorker, sim }, scenario);
  const popup = await openPopupAt(openPopup, tabId);
  await runAll(page);
  await expect(headline(popup)).toHaveText('Restarting…');
  await expect(popup.locator('.status .detail')).toHaveText('Restart session and run all');
  await expect.poll(() => badgeTitle(serviceWorker, tabId)).toBe('Colab OOM Guard: Restarting…');
  await screenshot(popup, 'popup-restarting');
  expect(await waitForRun(page, 2)).toMatchObject({ ok: true });
  await expect(headline(popup)).toHaveText('Watching');
  await popup.close();
});

test('gave up: a badge and icon of its own, the night line says when, Watch again starts again', async ({
  context,
  page,
  serviceWorker,
  sim,
  openPopup,
}) => {
  // The default limit of 3, so the picture says what the store listing says ("at most 3 restarts in a row").
  await setSettings(serviceWorker, { backoffBaseSec: 1 });
  const { key, tabId } = await openNotebook(
    { context, page, serviceWorker, sim },
    trainNotebook({ default: { fail: 'cuda-oom' } }, { title: 'train_llm.ipynb' }),
  );
  await runAll(page);
  await expect.poll(async () => (await record(serviceWorker, key))?.status.kind, { timeout: 60_000 }).toBe('gave-up');
  await expect.poll(() => badgeText(serviceWorker, tabId)).toBe('!');
  await expect
    .poll(() => badgeTitle(serviceWorker, tabId))
    .toMatch(
      /^Colab OOM Guard: Gave up after 3 restarts\nGave up at .+ after 3 restarts\nNothing restarts until you choose/,
    );

  const popup = await openPopupAt(openPopup, tabId);
  await expect(headline(popup)).toHaveText('Gave up after 3 restarts');
  // Every line of the box agrees: 4 failures (3 restarted, the 4th given up on), 3 restarts, 3 of 3 used.
  await expect(popup.locator('.night-line')).toHaveText(/^Since .+: 4 failures, 3 restarts, gave up at \d/);
  await expect(popup.getByText('Restarts in a row: 3 of 3 used')).toBeVisible();
  await expect(popup.locator('.events li').first()).toContainText('Gave up');
  await expect(popup.locator('.events li').first()).toContainText('it failed again after 3 restarts in a row');
  await screenshot(popup, 'popup-gave-up');

  await popup.getByRole('button', { name: 'Watch again' }).click();
  await expect(headline(popup)).toHaveText('Watching');
  // Watching again, with the night's three restarts on the badge.
  await expect.poll(() => badgeText(serviceWorker, tabId)).toBe('3');
  await popup.close();
});

test('Colab UI problem: the step in words, no ids nor what it saw in the page; a badge and icon of their own', async ({
  context,
  page,
  serviceWorker,
  sim,
  openPopup,
}) => {
  await setSettings(serviceWorker, { backoffBaseSec: 1 });
  const scenario = trainNotebook(
    { default: { fail: 'cuda-oom' } },
    { title: 'train_llm.ipynb', ui: { removeItems: ['restart-and-run-all'], toolbarRunButton: false } },
  );
  const { key, tabId } = await openNotebook({ context, page, serviceWorker, sim }, scenario);
  await page.keyboard.press('Control+F9'); // Run all, as a user does without the toolbar
  await expect.poll(async () => (await record(serviceWorker, key))?.status.kind).toBe('ui-problem');
  await expect.poll(() => badgeText(serviceWorker, tabId)).toBe('UI');
  await expect
    .poll(() => badgeTitle(serviceWorker, tabId))
    .toBe(
      'Colab OOM Guard: Colab UI problem: could not find Runtime → Restart session and run all\n' +
        'Nothing restarts until you choose Watch again',
    );

  const popup = await openPopupAt(openPopup, tabId);
  await expect(headline(popup)).toHaveText('Colab UI problem: could not find Runtime → Restart session and run all');
  // Colab's item ids (runall, runbefore…), the step's id and its reason are for Copy diagnostics only.
  await expect(popup.getByRole('button', { name: 'Watch again' })).toBeVisible();
  for (const id of ['item-missing', 'find-item', 'runall', 'items:'])
    await expect(popup.locator('body')).not.toContainText(id);
  await screenshot(popup, 'popup-ui-problem');
  await popup.close();
});

test('the morning after: the night in words at the top, the last events above the controls', async ({
  context,
  page,
  serviceWorker,
  sim,
  openPopup,
}) => {
  await setSettings(serviceWorker, { backoffBaseSec: 5 });
  const now = Date.now();
  const verdict = {
    category: 'gpu-oom',
    rule: 'torch-cuda-oom',
    description: 'PyTorch CUDA out of memory',
    line: 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 14.74',
  };
  const ago = (hours: number) => now - hours * 3600_000;
  const restart = (at: number) => [
    { at, type: 'restart-scheduled', params: { n: 1, max: 3, delaySec: 5 }, verdict, action: 'restart-and-run-all' },
    { at: at + 9000, type: 'restarted', params: { n: 1, max: 3 }, action: 'restart-and-run-all' },
  ];
  // An overnight run as the guard records it: two OOMs far apart, each restart recovered, the run finished. The
  // healthy stretch after the first restart is dated when it was reached (30 min later), not at the second OOM.
  const history = [
    { at: ago(8), type: 'enabled' },
    { at: ago(8) + 60_000, type: 'run-started' },
    ...restart(ago(5)),
    { at: ago(5) + 9000 + 30 * 60_000, type: 'healthy-reset', params: { minutes: 30, total: 1 } },
    ...restart(ago(3)),
    { at: ago(0.5), type: 'run-finished' },
  ];
  const { tabId } = await openNotebook({ context, page, serviceWorker, sim }, OOM_ONCE, {
    record: {
      title: 'train_llm.ipynb',
      loopCount: 1,
      totalRestarts: 2,
      lastRestartAt: ago(3) + 9000,
      lastFailureAt: ago(3),
      history,
    },
  });
  const popup = await openPopupAt(openPopup, tabId);
  await expect(popup.locator('.night-line')).toHaveText(
    /^Since .+: 2 failures, 2 restarts, last at .+, run finished at /,
  );
  await expect(popup.locator('.status .happened')).toHaveText(/^Run finished at .+ after 2 restarts$/);
  // A healthy run since the last restart: the restarts in a row are back to 0, and the next countdown is the first.
  await expect(popup.getByText('Restarts in a row: 0 of 3 used')).toBeVisible();
  await expect(popup.locator('.status .next')).toHaveText('3 of 3 restarts left; the next one after a 5 s countdown');
  const events = popup.locator('.events li');
  await expect(events).toHaveCount(5);
  await expect(events.first()).toContainText('Run finished');
  await expect(events.nth(3)).toContainText('Healthy run');
  await expect(events.first()).toBeInViewport();
  const eventsBox = await popup.locator('.events').boundingBox();
  const controlsBox = await popup.locator('.controls').boundingBox();
  expect(eventsBox!.y).toBeLessThan(controlsBox!.y);
  await expect.poll(() => badgeText(serviceWorker, tabId)).toBe('2');
  await screenshot(popup, 'popup-morning');
  await popup.close();
});

test('switching off and a per-notebook Max restarts are stored', async ({
  context,
  page,
  serviceWorker,
  sim,
  openPopup,
}) => {
  const { key, tabId } = await openNotebook({ context, page, serviceWorker, sim }, OOM_ONCE, { guard: false });
  const popup = await openPopupAt(openPopup, tabId);
  const toggle = popup.getByRole('switch', { name: 'Auto-restart this notebook' });
  await toggle.click();
  await expect.poll(async () => (await readRecord(serviceWorker, key))?.enabled).toBe(true);

  const max = popup.getByRole('textbox', { name: 'Max restarts' });
  await max.fill('many');
  await max.press('Tab');
  await expect(popup.getByRole('alert')).toContainText('Enter a whole number from 0 to 1000');
  await expect(max).toHaveAttribute('aria-invalid', 'true');

  await max.fill('7');
  await max.press('Tab');
  await expect(popup.getByText('Restarts in a row: 0 of 7 used')).toBeVisible();
  await expect
    .poll(
      async () =>
        ((await readRecord(serviceWorker, key)) as { overrides?: { maxRestarts?: number } } | undefined)?.overrides,
    )
    .toEqual({ maxRestarts: 7 });

  await toggle.click();
  await expect(headline(popup)).toHaveText('Not guarded');
  await expect.poll(async () => (await readRecord(serviceWorker, key))?.enabled).toBe(false);
  await popup.close();
});

test('Check Colab UI runs the dry run in the Colab tab and shows its result', async ({
  context,
  page,
  serviceWorker,
  sim,
  openPopup,
}) => {
  const { tabId } = await openNotebook({ context, page, serviceWorker, sim }, OOM_ONCE);
  const popup = await openPopupAt(openPopup, tabId);
  await popup.getByRole('button', { name: 'Check Colab UI' }).click();
  await expect(popup.locator('.check .check-result')).toHaveText(/^Ready: /);
  await popup.close();
});

test('Check Colab UI says Not ready while Colab greys out the restart (no runtime connected)', async ({
  context,
  page,
  serviceWorker,
  sim,
  openPopup,
}) => {
  const greyed = trainNotebook({ default: EPOCH_DONE }, { ui: { disableItems: ['restart-and-run-all'] } });
  const { tabId } = await openNotebook({ context, page, serviceWorker, sim }, greyed);
  const popup = await openPopupAt(openPopup, tabId);
  await popup.getByRole('button', { name: 'Check Colab UI' }).click();
  await expect(popup.locator('.check .check-result')).toHaveText(
    'Not ready: Runtime → Restart session and run all is greyed out (Colab does that while no runtime is connected)',
  );
  await popup.close();
});

test('over another page: no switch, a line saying it works on Colab notebooks', async ({
  context,
  page,
  serviceWorker,
  openPopup,
}) => {
  const handler = (route: import('@playwright/test').Route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Example</title><h1>Some other page</h1>' });
  await context.route('https://example.com/**', handler);
  await page.goto('https://example.com/');
  // The extension may not read this tab's URL (no host permission), so find it as the active tab.
  await page.bringToFront();
  const tabIds = await serviceWorker.evaluate(async () =>
    (await chrome.tabs.query({ active: true })).map((tab) => tab.id),
  );
  expect(tabIds).toHaveLength(1);
  const tabId = tabIds[0];

  const popup = await openPopupAt(openPopup, tabId!);
  await expect(popup.getByText('Colab OOM Guard works on Google Colab notebooks.')).toBeVisible();
  await expect(popup.getByText(/switch Auto-restart on/)).toBeVisible();
  await expect(popup.getByRole('switch')).toHaveCount(0);
  await screenshot(popup, 'popup-other');
  await popup.close();
  await context.unroute('https://example.com/**', handler);
});
