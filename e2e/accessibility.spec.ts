import type { Page } from '@playwright/test';
import { runAll } from './colab-sim';
import { axeViolations, controlFindings, focusFindings } from './harness/accessibility';
import { expect, test } from './harness/extension';
import { enableGuard, resetStorage, setSettings } from './harness/guard';
import { EPOCH_DONE, openNotebook, trainNotebook } from './harness/matrix';

/**
 * Every page the extension shows, in light and in dark: no serious or critical axe-core violation of WCAG 2.2 A/AA,
 * controls whose edges and states contrast 3:1, text of at least 12 px, and a visible focus on every control Tab
 * reaches (harness/accessibility.ts).
 */

const SCHEMES = ['light', 'dark'] as const;

const OOM_ONCE = trainNotebook(
  { 1: { fail: 'cuda-oom', place: 'frame' }, default: EPOCH_DONE },
  {
    title: 'train_llm.ipynb',
  },
);

const LONG_LINE =
  'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 14.74 GiB ' +
  'of which 1.06 GiB is free. Including non-PyTorch memory, this process has 13.67 GiB memory in use. Of the ' +
  'allocated memory 13.42 GiB is allocated by PyTorch, and 120.00 MiB is reserved by PyTorch but unallocated.';

function nightHistory(now: number) {
  const verdict = { category: 'gpu-oom', rule: 'torch-cuda-oom', description: 'PyTorch CUDA out of memory' };
  return [
    { at: now - 8 * 3600_000, type: 'enabled' },
    {
      at: now - 5 * 3600_000,
      type: 'restart-scheduled',
      detail: 'Restart 1 of 3 in 5 s',
      verdict: { ...verdict, line: LONG_LINE },
      action: 'restart-and-run-all',
    },
    { at: now - 5 * 3600_000 + 9000, type: 'restarted', detail: 'Restart 1 of 3 done', action: 'restart-and-run-all' },
  ];
}

/** The page passes every check; Tab reaches each of `controls` (accessible names, as the focus findings print). */
async function expectAccessible(page: Page, controls: RegExp[], host?: string): Promise<void> {
  expect(await axeViolations(page, host)).toEqual([]);
  expect(await controlFindings(page, host ?? 'body')).toEqual([]);
  const focus = await focusFindings(page, host);
  expect(focus.findings).toEqual([]);
  for (const control of controls) expect(focus.reached, String(control)).toContainEqual(expect.stringMatching(control));
}

test.beforeEach(async ({ serviceWorker }) => {
  await resetStorage(serviceWorker);
  await setSettings(serviceWorker, { backoffBaseSec: 90 });
});

for (const colorScheme of SCHEMES) {
  test.describe(`${colorScheme}`, () => {
    test('the popup over a notebook: off, then on with the night’s events, one opened', async ({
      context,
      page,
      serviceWorker,
      sim,
      openPopup,
    }) => {
      const { key, tabId } = await openNotebook({ context, page, serviceWorker, sim }, OOM_ONCE, { guard: false });
      const popup = await openPopup(tabId);
      await popup.emulateMedia({ colorScheme });
      await popup.setViewportSize({ width: 380, height: 600 });
      const toggle = popup.getByRole('switch', { name: 'Auto-restart this notebook' });
      await expect(toggle).not.toBeChecked();
      await expectAccessible(popup, [/^a "Options"/, /^input "Auto-restart this notebook"/, /Check Colab UI/]);

      await enableGuard(serviceWorker, key, { title: 'train_llm.ipynb', history: nightHistory(Date.now()) });
      await expect(toggle).toBeChecked();
      await expect(popup.locator('.events li')).toHaveCount(3);
      await expectAccessible(popup, [
        /^button "Failure detected/,
        /^input#max-restarts "Max restarts/,
        /Reset counter/,
      ]);
      await popup.getByRole('button', { name: /^Failure detected/ }).press('Enter');
      await expect(popup.getByRole('button', { name: /^Failure detected/ })).toHaveAttribute('aria-expanded', 'true');
      await expectAccessible(popup, [/^button "Failure detected/]);
      await popup.close();
    });

    test('the popup when the guard gave up: Watch again', async ({ context, page, serviceWorker, sim, openPopup }) => {
      const { key, tabId } = await openNotebook({ context, page, serviceWorker, sim }, OOM_ONCE);
      const history = nightHistory(Date.now());
      await enableGuard(serviceWorker, key, {
        title: 'train_llm.ipynb',
        status: { kind: 'gave-up', at: Date.now(), restarts: 3 },
        loopCount: 3,
        history,
      });
      const popup = await openPopup(tabId);
      await popup.emulateMedia({ colorScheme });
      await popup.setViewportSize({ width: 380, height: 600 });
      await expect(popup.getByRole('button', { name: 'Watch again' })).toBeVisible();
      await expectAccessible(popup, [/^button "Watch again"/]);
      await popup.close();
    });

    test('the options page, with a notebook on and one off', async ({ openOptions, serviceWorker }) => {
      await enableGuard(serviceWorker, 'drive:on', { title: 'on.ipynb', loopCount: 1 });
      await enableGuard(serviceWorker, 'drive:off', { title: 'off.ipynb', enabled: false });
      const options = await openOptions();
      await options.emulateMedia({ colorScheme });
      await expect(options.getByRole('switch', { name: 'Auto-restart off.ipynb' })).not.toBeChecked();
      await expectAccessible(options, [
        /^input "Auto-restart on\.ipynb"/,
        /^input "Auto-restart off\.ipynb"/,
        /^textarea#tester-input/,
        /^button "Export/,
      ]);
      await options.close();
    });

    test('the welcome page', async ({ context, extensionId }) => {
      const welcome = await context.newPage();
      await welcome.emulateMedia({ colorScheme });
      await welcome.goto(`chrome-extension://${extensionId}/src/welcome/index.html`);
      await expect(welcome.getByRole('heading', { level: 1 })).toBeVisible();
      await expectAccessible(welcome, [/^a "User guide"/, /^a "Options"/]);
      await welcome.close();
    });

    test('the notice in the Colab page during a countdown', async ({ context, page, serviceWorker, sim }) => {
      await page.emulateMedia({ colorScheme });
      await openNotebook({ context, page, serviceWorker, sim }, OOM_ONCE);
      await runAll(page);
      const notice = page.locator('colab-oom-guard-notice');
      await expect(notice.getByRole('button', { name: 'Cancel restart' })).toBeVisible();
      await expectAccessible(page, [/^button "Cancel restart"/, /^button "Dismiss"/], 'colab-oom-guard-notice');
    });
  });
}

test("an event's whole line without hovering: Enter or a click opens it, again closes it", async ({
  context,
  page,
  serviceWorker,
  sim,
  openPopup,
}) => {
  const { key, tabId } = await openNotebook({ context, page, serviceWorker, sim }, OOM_ONCE);
  await enableGuard(serviceWorker, key, { title: 'train_llm.ipynb', history: nightHistory(Date.now()) });
  const popup = await openPopup(tabId);
  await popup.setViewportSize({ width: 380, height: 600 });
  const event = popup.locator('.events li', { hasText: 'Failure detected' });
  const line = event.locator('.verdict');
  const title = event.getByRole('button', { name: /^Failure detected/ });
  const cut = () => line.evaluate((el) => el.scrollHeight > el.clientHeight + 1);

  await expect(line).toContainText(LONG_LINE);
  await expect(title).toHaveAttribute('aria-expanded', 'false');
  await expect.poll(cut).toBe(true);
  await title.focus();
  await popup.keyboard.press('Enter');
  await expect(title).toHaveAttribute('aria-expanded', 'true');
  await expect.poll(cut).toBe(false);
  await expect(popup.locator(`#${await title.getAttribute('aria-controls')}`)).toContainText(LONG_LINE);
  await title.click();
  await expect(title).toHaveAttribute('aria-expanded', 'false');
  await expect.poll(cut).toBe(true);
  await popup.keyboard.press('Space');
  await expect(title).toHaveAttribute('aria-expanded', 'true');
  await popup.close();
});
