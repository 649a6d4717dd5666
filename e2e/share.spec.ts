import { readFileSync } from 'node:fs';
import type { BrowserContext } from '@playwright/test';
import { runAll, waitForRun } from './colab-sim';
import { expect, test } from './harness/extension';
import { resetStorage, setSettings } from './harness/guard';
import { EPOCH_DONE, historyOf, openNotebook, record, trainNotebook } from './harness/matrix';

/**
 * The night, kept and shared: "Copy night log" and "Copy diagnostics" in the popup, one notebook's export and "Copy
 * diagnostics" in the options page. What was copied is read back from the clipboard.
 */

const OOM_ONCE = trainNotebook(
  { 1: { fail: 'cuda-oom', place: 'frame' }, default: EPOCH_DONE },
  { title: 'train_llm.ipynb' },
);

test.beforeEach(async ({ serviceWorker }) => {
  await resetStorage(serviceWorker);
  await setSettings(serviceWorker, { backoffBaseSec: 1 });
});

/**
 * The browser's clipboard, read in a page of its own: permissions cannot be granted to an extension's origin, and the
 * clipboard is the browser's, whichever page reads it.
 */
async function clipboardOf(context: BrowserContext): Promise<string> {
  const origin = 'https://clipboard-reader.test';
  await context.route(`${origin}/`, (route) => route.fulfill({ contentType: 'text/html', body: '<p>reader</p>' }));
  await context.grantPermissions(['clipboard-read'], { origin });
  const reader = await context.newPage();
  await reader.goto(`${origin}/`);
  const text = await reader.evaluate(() => navigator.clipboard.readText());
  await reader.close();
  return text;
}

/** A night with one out-of-memory failure, restarted, and the run finished. */
async function night({ context, page, serviceWorker, sim }: Parameters<typeof openNotebook>[0]) {
  const opened = await openNotebook({ context, page, serviceWorker, sim }, OOM_ONCE);
  await runAll(page);
  expect((await waitForRun(page, 2)).ok).toBe(true);
  await expect.poll(async () => historyOf(await record(serviceWorker, opened.key), 'restarted').length).toBe(1);
  return opened;
}

test('Copy night log: the night in the history words, with its failure line, no ids, and a confirmation', async ({
  context,
  page,
  serviceWorker,
  sim,
  openPopup,
}) => {
  const { tabId } = await night({ context, page, serviceWorker, sim });
  const popup = await openPopup(tabId);
  await popup.getByRole('button', { name: 'Copy night log' }).click();
  await expect(popup.locator('.share .copy').first().getByRole('status')).toHaveText('Copied to the clipboard.');
  const log = await clipboardOf(context);
  expect(log).toMatch(/^train_llm\.ipynb: the night since /);
  expect(log).toContain('Failure detected: countdown started');
  expect(log).toContain('PyTorch CUDA out of memory: OutOfMemoryError: CUDA out of memory.');
  expect(log).toContain('Restarted and ran all cells');
  expect(log).not.toContain('torch-cuda-oom');
  await popup.close();
});

test('Copy diagnostics in the popup: versions, the UI check, the ids, and no notebook name', async ({
  context,
  page,
  serviceWorker,
  sim,
  openPopup,
}) => {
  const { tabId } = await night({ context, page, serviceWorker, sim });
  const popup = await openPopup(tabId);
  await popup.getByRole('button', { name: 'Copy diagnostics' }).click();
  await expect(popup.locator('#copy-diagnostics ~ [role=status]')).toHaveText('Copied to the clipboard.');
  const text = await clipboardOf(context);
  expect(text).toMatch(/^Colab OOM Guard diagnostics\n/);
  expect(text).toMatch(/\nExtension: \d+\.\d+\.\d+\n/);
  expect(text).toMatch(/\nColab UI check: ready; "Restart session and run all" found by /);
  expect(text).toContain('rule=torch-cuda-oom');
  expect(text).toMatch(/\nnb1 \(drive\): on, watching; crash loop 1, lifetime 1/);
  expect(text).not.toContain('train_llm');
  await popup.close();
});

test("the options page exports one notebook's history as JSON, and copies diagnostics of all notebooks", async ({
  context,
  page,
  serviceWorker,
  sim,
  openOptions,
}) => {
  const { key } = await night({ context, page, serviceWorker, sim });
  const options = await openOptions();
  const [download] = await Promise.all([
    options.waitForEvent('download'),
    options.getByRole('button', { name: 'Export the history of train_llm.ipynb as JSON' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^colab-oom-guard-train-llm-\d{4}-\d{2}-\d{2}\.json$/);
  const file = JSON.parse(readFileSync((await download.path()) as string, 'utf8'));
  expect(file).toMatchObject({
    format: 'colab-oom-guard',
    version: expect.any(Number),
    settings: { v: expect.any(Number) },
  });
  expect(file.notebooks).toHaveLength(1);
  expect(file.notebooks[0].key).toBe(key);
  expect(file.notebooks[0].history.map((e: { type: string }) => e.type)).toContain('restarted');
  await expect(options.locator('.notebook-row [role=status]')).toHaveText(
    /^Saved colab-oom-guard-train-llm-.+\.json with its history\.$/,
  );

  await options.getByRole('button', { name: 'Copy diagnostics' }).click();
  await expect(options.locator('#copy-diagnostics ~ [role=status]')).toHaveText('Copied to the clipboard.');
  const text = await clipboardOf(context);
  expect(text).toContain('Notebooks: 1');
  expect(text).toMatch(/ nb1 restarted n=1 max=3 action=restart-and-run-all/);
  expect(text).not.toContain('Colab UI check');
  expect(text).not.toContain('train_llm');
  await options.close();
});
