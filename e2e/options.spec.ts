import { readFileSync } from 'node:fs';
import type { Worker } from '@playwright/test';
import { expect, test } from './harness/extension';
import { enableGuard, readRecord, resetStorage, setSettings } from './harness/guard';
import { screenshot } from './harness/screenshots';

/** The options page in the built extension, talking to the real service worker. */

const OPTIONS_VIEWPORT = { width: 900, height: 1000 };
const KEY = 'drive:1AbCdEfGhIjKlMnOpQrStUvWxYz012345';

async function stored(serviceWorker: Worker): Promise<Record<string, unknown>> {
  return serviceWorker.evaluate(() => chrome.storage.local.get(null));
}

async function storedSettings(serviceWorker: Worker): Promise<Record<string, unknown> | undefined> {
  return (await stored(serviceWorker)).settings as Record<string, unknown> | undefined;
}

test.beforeEach(async ({ serviceWorker }) => {
  await resetStorage(serviceWorker);
});

test('a pattern that does not compile is refused with a message naming the line; a valid one is saved', async ({
  openOptions,
  serviceWorker,
}) => {
  const page = await openOptions();
  const box = page.getByRole('textbox', { name: 'Your failure patterns' });
  await box.fill('MyTrainer: ran out of budget\n(unclosed');
  await expect(page.getByText('Line 2: This is not a valid regular expression: a ( has no matching ).')).toBeVisible();
  await expect(box).toHaveAttribute('aria-invalid', 'true');

  await page.getByRole('button', { name: 'Save failure patterns' }).click();
  await expect(page.getByRole('alert')).toHaveText('Not saved: fix the lines listed above first.');
  expect((await storedSettings(serviceWorker))?.failurePatterns ?? []).toEqual([]);

  await box.fill('MyTrainer: ran out of budget\n/budget exceeded/i');
  await page.getByRole('button', { name: 'Save failure patterns' }).click();
  await expect(page.getByText('Saved (2 patterns).')).toBeVisible();
  await expect
    .poll(async () => (await storedSettings(serviceWorker))?.failurePatterns)
    .toEqual(['MyTrainer: ran out of budget', '/budget exceeded/i']);

  // The tester uses the new pattern.
  await page.getByRole('textbox', { name: 'Test an output' }).fill('RuntimeError: Budget exceeded at step 400');
  await expect(page.locator('#tester-verdict .verdict-headline')).toHaveText(
    'Would restart: Your failure pattern /budget exceeded/i',
  );
  await page.close();
});

test("patterns are RE2's: one that hangs a backtracking engine answers at once on hostile output", async ({
  openOptions,
}) => {
  const page = await openOptions();
  const box = page.getByRole('textbox', { name: 'Your failure patterns' });
  await expect(page.getByText(/^RE2 matches in time proportional to the output/)).toBeVisible();
  await box.fill('(a|aa)+$\n(?<!x)y');
  await expect(page.getByText(/^Line 2: Lookbehind like \(\?<=…\) or \(\?<!…\) is not supported/)).toBeVisible();
  await box.fill('(a|aa)+$');
  await page.getByRole('button', { name: 'Save failure patterns' }).click();
  await expect(page.getByText('Saved (1 pattern).')).toBeVisible();

  // V8's backtracking took 56 s on one such line (the unit tests run these at the detector's bounds).
  const tester = page.getByRole('textbox', { name: 'Test an output' });
  const verdict = page.locator('#tester-verdict');
  const hostile = `${'a'.repeat(40)}!\n`.repeat(20);
  await tester.fill(hostile);
  await expect(verdict).toHaveText('Would not restartNo built-in rule and none of your patterns match this text.');
  await tester.fill(`${hostile}${'a'.repeat(41)}`);
  await expect(verdict).toHaveText(
    /^Would restart: Your failure pattern \(a\|aa\)\+\$One of your failure patterns\. Matched line: a{41}$/,
  );
  await page.close();
});

test('saved patterns this version refuses stay as written, marked not in use with the reason', async ({
  openOptions,
  serviceWorker,
}) => {
  await setSettings(serviceWorker, { markerPatterns: ['^=== FRESH RUNTIME ===$', '^(?=.*done)restart'] });
  const page = await openOptions();
  await expect(
    page.getByText(/^Not in use: 1 of the saved patterns are refused by this version of the extension/),
  ).toBeVisible();
  const box = page.getByRole('textbox', { name: 'Your restart markers' });
  await expect(box).toHaveValue('^=== FRESH RUNTIME ===$\n^(?=.*done)restart');
  await expect(page.getByText(/^Line 2: Lookahead like \(\?=…\) or \(\?!…\) is not supported/)).toBeVisible();
  await box.fill('^=== FRESH RUNTIME ===$\n^restart .*done');
  await page.getByRole('button', { name: 'Save restart markers' }).click();
  await expect(page.getByText('Saved (2 patterns).')).toBeVisible();
  await expect(page.getByText(/^Not in use:/)).toHaveCount(0);
  await page.close();
});

test('an import with a pattern this version refuses is refused, naming the pattern, and changes nothing', async ({
  openOptions,
  serviceWorker,
}) => {
  const before = await stored(serviceWorker);
  const page = await openOptions();
  const file = (failurePatterns: string[]) => ({
    name: 'patterns.json',
    mimeType: 'application/json',
    buffer: Buffer.from(
      JSON.stringify({ format: 'colab-oom-guard', version: 1, settings: { v: 1, failurePatterns }, notebooks: [] }),
    ),
  });
  await page.getByLabel('Import from a file').setInputFiles(file(['ok', '(a)\\1']));
  await expect(page.getByRole('alert')).toHaveText(
    /^patterns\.json was not imported, nothing changed: Invalid field at settings\.failurePatterns\.1: Backreferences/,
  );
  expect(await stored(serviceWorker)).toEqual(before);

  // The service worker checks patterns with the engine: valid ones import.
  await page.getByLabel('Import from a file').setInputFiles(file(['ok', '(a|aa)+$']));
  await expect(page.getByText('Imported patterns.json: settings and 0 notebooks.')).toBeVisible();
  await expect.poll(async () => (await storedSettings(serviceWorker))?.failurePatterns).toEqual(['ok', '(a|aa)+$']);
  await page.close();
});

test('Test an output: what the guard would do, as information, the rule only as a detail', async ({ openOptions }) => {
  const page = await openOptions();
  const box = page.getByRole('textbox', { name: 'Test an output' });
  const verdict = page.locator('#tester-verdict');
  await box.fill(
    'Traceback (most recent call last):\n  File "train.py", line 3, in <module>\n' +
      'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 14.75 ' +
      'GiB',
  );
  await expect(verdict.locator('.verdict-headline')).toHaveText('Would restart: PyTorch CUDA out of memory');
  await expect(verdict).toContainText('GPU out of memory. Matched line: torch.OutOfMemoryError: CUDA out of memory');
  // The rule's id is for Copy diagnostics, not for people.
  await expect(verdict).not.toContainText('torch-');
  // Information, not an error: a status in the accent colour, never an alert in the error colour.
  await expect(verdict).toHaveAttribute('role', 'status');
  await expect(page.getByRole('alert')).toHaveCount(0);
  const colours = await verdict.evaluate((el) => {
    const style = getComputedStyle(el);
    const probe = document.createElement('p');
    probe.className = 'error';
    document.body.append(probe);
    const error = getComputedStyle(probe).color;
    probe.remove();
    return { border: style.borderLeftColor, text: style.color, error };
  });
  expect(colours.border).not.toBe(colours.error);
  expect(colours.text).not.toBe(colours.error);
  await box.fill('ValueError: operands could not be broadcast together');
  await expect(verdict.locator('.verdict-headline')).toHaveText('Would not restart');
  await page.close();
});

test('settings are saved through the service worker, and its refusals are shown', async ({
  openOptions,
  serviceWorker,
}) => {
  const page = await openOptions();
  const max = page.getByRole('textbox', { name: 'Max restarts in a row' });
  await expect(max).toHaveValue('3');
  await max.fill('5');
  await max.press('Tab');
  await expect.poll(async () => (await storedSettings(serviceWorker))?.maxRestarts).toBe(5);

  const longest = page.getByRole('textbox', { name: 'Longest countdown (seconds)' });
  await longest.fill('2');
  await longest.press('Tab');
  await expect(page.getByRole('alert')).toContainText('must not be shorter than the first one');
  expect((await storedSettings(serviceWorker))?.backoffMaxSec).toBe(300);

  await page.getByRole('checkbox', { name: 'GPU faults (off by default)' }).check();
  await expect
    .poll(
      async () =>
        ((await storedSettings(serviceWorker))?.categories as Record<string, boolean> | undefined)?.['gpu-fault'],
    )
    .toBe(true);
  await page.close();
});

test('an invalid import file is refused with a message and changes nothing', async ({ openOptions, serviceWorker }) => {
  await enableGuard(serviceWorker, KEY, { title: 'kept.ipynb' });
  const before = await stored(serviceWorker);
  const page = await openOptions();
  const input = page.getByLabel('Import from a file');

  await input.setInputFiles({
    name: 'broken.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"format": "colab-oom-guard",'),
  });
  await expect(page.getByRole('alert')).toHaveText(
    /^broken\.json was not imported, nothing changed: The file is not valid JSON/,
  );

  await input.setInputFiles({
    name: 'other.json',
    mimeType: 'application/json',
    buffer: Buffer.from(
      JSON.stringify({ format: 'colab-oom-guard', version: 1, settings: { v: 1, maxRestarts: -4 }, notebooks: [] }),
    ),
  });
  await expect(page.getByRole('alert')).toHaveText(/^other\.json was not imported, nothing changed: .*maxRestarts/);
  expect(await stored(serviceWorker)).toEqual(before);
  await page.close();
});

test('export downloads settings and history as JSON, which imports back; clear all data asks first', async ({
  openOptions,
  serviceWorker,
}) => {
  await enableGuard(serviceWorker, KEY, { title: 'exported.ipynb' });
  const page = await openOptions();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export settings and history (JSON)' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^colab-oom-guard-\d{4}-\d{2}-\d{2}\.json$/);
  const text = readFileSync((await download.path())!, 'utf8');
  expect(JSON.parse(text)).toMatchObject({
    format: 'colab-oom-guard',
    notebooks: [{ key: KEY, title: 'exported.ipynb' }],
  });

  await page.getByRole('button', { name: 'Clear all data…' }).click();
  await expect(page.getByRole('button', { name: 'Keep my data' })).toBeFocused();
  await page.getByRole('button', { name: 'Delete all data' }).click();
  await expect(page.getByText('All data cleared.')).toBeVisible();
  await expect.poll(async () => Object.keys(await stored(serviceWorker))).not.toContain(`nb:${KEY}`);

  await page
    .getByLabel('Import from a file')
    .setInputFiles({ name: 'backup.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  await expect(page.getByText('Imported backup.json: settings and 1 notebook.')).toBeVisible();
  await expect.poll(async () => Object.keys(await stored(serviceWorker))).toContain(`nb:${KEY}`);
  await page.close();
});

test('the version, and links to the user guide, troubleshooting and the changelog in the repository', async ({
  openOptions,
  extensionId,
}) => {
  const page = await openOptions();
  const repo = (JSON.parse(readFileSync('package.json', 'utf8')) as { repository: { url: string } }).repository.url
    .replace(/^git\+/, '')
    .replace(/\.git$/, '');
  const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
  await expect(page.getByText(`Version ${version}`)).toBeVisible();
  await expect(page.getByRole('link', { name: 'User guide' })).toHaveAttribute(
    'href',
    `${repo}/blob/main/docs/guide.md`,
  );
  await expect(page.getByRole('link', { name: 'Troubleshooting' })).toHaveAttribute(
    'href',
    `${repo}/blob/main/docs/troubleshooting.md`,
  );
  await expect(page.getByRole('link', { name: "What's new (changelog)" })).toHaveAttribute(
    'href',
    `${repo}/blob/main/CHANGELOG.md`,
  );
  await expect(page.getByRole('link', { name: 'Quick start' })).toHaveAttribute(
    'href',
    `chrome-extension://${extensionId}/src/welcome/index.html`,
  );
  await page.close();
});

test('guarded notebooks: each listed with its state; switched off or its counter reset from here', async ({
  openOptions,
  serviceWorker,
}) => {
  await enableGuard(serviceWorker, KEY, { title: 'train_llm.ipynb', loopCount: 2 });
  const page = await openOptions();
  const row = page.locator('.notebook-row', { hasText: 'train_llm.ipynb' });
  await expect(row).toContainText('Watching · 2 of 3 restarts used');
  await row.getByRole('button', { name: 'Reset counter of train_llm.ipynb' }).click();
  await expect(row).toContainText('Watching · 0 of 3 restarts used');
  await expect.poll(async () => (await readRecord(serviceWorker, KEY))?.loopCount).toBe(0);

  const toggle = page.getByRole('switch', { name: 'Auto-restart train_llm.ipynb' });
  await expect(toggle).toBeChecked();
  await toggle.press('Space');
  await expect(row).toContainText('Not guarded · 0 of 3 restarts used');
  await expect.poll(async () => (await readRecord(serviceWorker, KEY))?.enabled).toBe(false);
  await expect(toggle).not.toBeChecked();
  await page.close();
});

test('Restore defaults asks first, resets the settings and keeps the notebooks and their history', async ({
  openOptions,
  serviceWorker,
}) => {
  const history = [{ at: Date.now() - 60_000, type: 'enabled' }];
  await enableGuard(serviceWorker, KEY, { title: 'kept.ipynb', history });
  await setSettings(serviceWorker, { maxRestarts: 9, markerPatterns: ['^NEXT$'], notifications: false });
  const page = await openOptions();
  const max = page.getByRole('textbox', { name: 'Max restarts in a row' });
  await expect(max).toHaveValue('9');
  await page.getByRole('button', { name: 'Restore defaults…' }).click();
  await expect(page.getByRole('button', { name: 'Keep my settings' })).toBeFocused();
  await page.getByRole('button', { name: 'Restore defaults', exact: true }).click();
  await expect(
    page.getByText('Settings are back to their defaults. Notebooks and their history were kept.'),
  ).toBeVisible();
  await expect(max).toHaveValue('3');
  await expect(page.getByRole('textbox', { name: 'Your restart markers' })).toHaveValue('');
  expect(await storedSettings(serviceWorker)).toMatchObject({ maxRestarts: 3, markerPatterns: [] });
  expect(await readRecord(serviceWorker, KEY)).toMatchObject({ title: 'kept.ipynb', enabled: true, history });
  await page.close();
});

test('screenshot of the options page', async ({ openOptions, serviceWorker }) => {
  await enableGuard(serviceWorker, KEY, { title: 'train_llm.ipynb', loopCount: 1 });
  const page = await openOptions();
  await page.setViewportSize(OPTIONS_VIEWPORT);
  await expect(page.getByRole('heading', { name: 'Colab OOM Guard options' })).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Auto-restart train_llm.ipynb' })).toBeChecked();
  await page.getByRole('textbox', { name: 'Your restart markers' }).fill('^=== FRESH RUNTIME ===$');
  await page
    .getByRole('textbox', { name: 'Test an output' })
    .fill('jax.errors.JaxRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 17179869184 bytes.');
  await expect(page.locator('#tester-verdict .verdict-headline')).toHaveText(/^Would restart: /);
  await screenshot(page, 'options', { fullPage: true });
  // The store's picture of Test an output: narrow enough to stand beside its caption (e2e/store.spec.ts).
  await page.setViewportSize({ width: 760, height: OPTIONS_VIEWPORT.height });
  await screenshot(page.locator('section.card', { has: page.locator('#tester-verdict') }), 'options-tester');
  await page.close();
});
