import type { Page } from '@playwright/test';
import { installColabSim, runAll, type Scenario, waitForKernel, waitForRun } from './colab-sim';
import { expect, test } from './harness/extension';
import { readRecord, resetStorage, setSettings, waitForGuard } from './harness/guard';

/** The popup over a (simulated) Colab notebook and over another page, opened as a page with ?tab=<id>. */

const POPUP_VIEWPORT = { width: 380, height: 600 };
const SCREENSHOTS = 'docs/screenshots';

let n = 0;
const nextId = () => `popup${Date.now().toString(36)}${++n}`;

const OOM_ONCE: Scenario = {
  title: 'train_llm.ipynb',
  cells: [
    { source: 'import torch' },
    {
      source: 'train()',
      runs: {
        1: { fail: 'cuda-oom', place: 'frame' },
        default: { outputs: [{ type: 'stream', text: 'epoch 1 done\n' }] },
      },
    },
  ],
};

async function openPopupAt(openPopup: (tabId?: number) => Promise<Page>, tabId: number): Promise<Page> {
  const popup = await openPopup(tabId);
  await popup.setViewportSize(POPUP_VIEWPORT);
  return popup;
}

test.beforeEach(async ({ serviceWorker }) => {
  await resetStorage(serviceWorker);
  // Long enough to see the countdown in the popup; short enough for the test.
  await setSettings(serviceWorker, { backoffBaseSec: 3 });
});

test('the switch turns the guard on for the notebook, and the page follows: an OOM restarts and runs all', async ({
  context,
  page,
  serviceWorker,
  openPopup,
}) => {
  const sim = await installColabSim(context);
  const id = nextId();
  const key = `drive:${id}`;
  await page.goto(sim.notebook(`/drive/${id}`, OOM_ONCE));
  const tabId = await waitForGuard(serviceWorker, page);
  await waitForKernel(page, 'idle');

  const popup = await openPopupAt(openPopup, tabId);
  await expect(popup.getByRole('heading', { name: 'train_llm.ipynb' })).toBeVisible();
  const toggle = popup.getByRole('switch', { name: /Auto-restart/ });
  await expect(toggle).not.toBeChecked();
  await expect(popup.locator('.headline')).toHaveText('Off');

  // Keyboard only: focus the switch and press Space.
  await toggle.focus();
  await popup.keyboard.press('Space');
  await expect(toggle).toBeChecked();
  await expect(popup.locator('.headline')).toHaveText('Watching');
  await expect.poll(async () => (await readRecord(serviceWorker, key))?.enabled).toBe(true);

  await runAll(page);
  await expect(popup.locator('.headline')).toHaveText(/^OOM detected — restarting in \d+ s$/);
  await expect(popup.getByRole('button', { name: 'Cancel restart' })).toBeVisible();
  expect(await waitForRun(page, 2)).toMatchObject({ ok: true });

  await expect(popup.locator('.headline')).toHaveText('Watching');
  await expect(popup.getByText('Restarts used: 1 of 3')).toBeVisible();
  await expect(popup.locator('.events li').first()).toContainText('Restarted and ran all cells');
  await expect(popup.locator('.events li').nth(1)).toContainText('Failure detected, restart scheduled');
  await expect(popup.locator('.timeline [data-kind=restart]')).toHaveCount(1);
  await expect(popup.locator('.timeline [data-kind=failure]')).toHaveCount(1);
  await expect.poll(async () => (await readRecord(serviceWorker, key))?.totalRestarts).toBe(1);

  await popup.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await popup.screenshot({ path: `${SCREENSHOTS}/popup-notebook.png` });
  await popup.close();
  await sim.dispose();
});

test('switching off and a per-notebook Max restarts are stored', async ({
  context,
  page,
  serviceWorker,
  openPopup,
}) => {
  const sim = await installColabSim(context);
  const id = nextId();
  const key = `drive:${id}`;
  await page.goto(sim.notebook(`/drive/${id}`, OOM_ONCE));
  const tabId = await waitForGuard(serviceWorker, page);

  const popup = await openPopupAt(openPopup, tabId);
  const toggle = popup.getByRole('switch', { name: /Auto-restart/ });
  await toggle.click();
  await expect.poll(async () => (await readRecord(serviceWorker, key))?.enabled).toBe(true);

  const max = popup.getByRole('textbox', { name: 'Max restarts' });
  await max.fill('many');
  await max.press('Tab');
  await expect(popup.getByRole('alert')).toContainText('Enter a whole number from 0 to 1000');
  await expect(max).toHaveAttribute('aria-invalid', 'true');

  await max.fill('7');
  await max.press('Tab');
  await expect(popup.getByText('Restarts used: 0 of 7')).toBeVisible();
  await expect
    .poll(
      async () =>
        ((await readRecord(serviceWorker, key)) as { overrides?: { maxRestarts?: number } } | undefined)?.overrides,
    )
    .toEqual({ maxRestarts: 7 });

  await toggle.click();
  await expect(popup.locator('.headline')).toHaveText('Off');
  await expect.poll(async () => (await readRecord(serviceWorker, key))?.enabled).toBe(false);
  await popup.close();
  await sim.dispose();
});

test('Check Colab UI runs the dry run in the Colab tab and shows its result', async ({
  context,
  page,
  serviceWorker,
  openPopup,
}) => {
  const sim = await installColabSim(context);
  const id = nextId();
  await page.goto(sim.notebook(`/drive/${id}`, OOM_ONCE));
  const tabId = await waitForGuard(serviceWorker, page);
  await waitForKernel(page, 'idle');

  const popup = await openPopupAt(openPopup, tabId);
  await popup.getByRole('button', { name: 'Check Colab UI' }).click();
  await expect(popup.locator('.check [role=status]')).toHaveText(/^Ready: /);
  await popup.close();
  await sim.dispose();
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
  await popup.screenshot({ path: `${SCREENSHOTS}/popup-other.png` });
  await popup.close();
  await context.unroute('https://example.com/**', handler);
});
