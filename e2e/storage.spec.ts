import type { Worker } from '@playwright/test';
import { runAll, waitForRun } from './colab-sim';
import { expect, test } from './harness/extension';
import { readRecord, resetStorage, setSettings } from './harness/guard';
import { EPOCH_DONE, logOf, openNotebook, trainNotebook } from './harness/matrix';

/**
 * Storage with the built extension: storage holds only what the user chose, a write the browser refuses
 * (storage full) is shown to the user, and imports are bounded before they are read and before they are stored.
 */

test.beforeEach(async ({ serviceWorker }) => {
  await resetStorage(serviceWorker);
  await setSettings(serviceWorker, { backoffBaseSec: 2 });
});

// Failed writes live in storage.session, which resetStorage leaves alone: later tests must not see them.
test.afterEach(async ({ serviceWorker }) => {
  await serviceWorker.evaluate(() => chrome.storage.session.remove('storageErrors'));
});

async function notebookKeys(serviceWorker: Worker): Promise<string[]> {
  return Object.keys(await serviceWorker.evaluate(() => chrome.storage.local.get(null))).filter((k) =>
    k.startsWith('nb:'),
  );
}

/** Fills storage.local up to `room` bytes below Chrome's quota (key length plus JSON, as Chrome counts). */
async function fillStorage(serviceWorker: Worker, room: number): Promise<void> {
  await serviceWorker.evaluate(async (room) => {
    const used = await chrome.storage.local.getBytesInUse(null);
    const name = 'filler';
    const length = chrome.storage.local.QUOTA_BYTES - used - room - name.length - 2;
    await chrome.storage.local.set({ [name]: 'x'.repeat(length) });
  }, room);
}

test('a notebook opened but never switched on leaves nothing in storage; switching it on stores its name', async ({
  context,
  page,
  serviceWorker,
  openPopup,
}) => {
  const { sim, key, tabId } = await openNotebook(
    { context, page, serviceWorker },
    trainNotebook({ default: EPOCH_DONE }),
    { guard: false },
  );
  expect(await notebookKeys(serviceWorker)).toEqual([]);

  const popup = await openPopup(tabId);
  await expect(popup.getByRole('heading', { name: 'train.ipynb' })).toBeVisible();
  expect(await notebookKeys(serviceWorker)).toEqual([]);
  await popup.getByRole('switch', { name: /Auto-restart/ }).click();
  await expect.poll(async () => (await readRecord(serviceWorker, key))?.enabled).toBe(true);
  expect(
    await serviceWorker.evaluate(async (name) => (await chrome.storage.local.get(name))[name], `nb:${key}`),
  ).toMatchObject({ key, title: 'train.ipynb', enabled: true });
  await popup.close();
  await sim.dispose();
});

test('storage full: a failure that could not be saved is shown in the popup and options; nothing restarts', async ({
  context,
  page,
  serviceWorker,
  openPopup,
  openOptions,
}) => {
  const { sim, key, tabId } = await openNotebook(
    { context, page, serviceWorker },
    trainNotebook({ 1: { fail: 'cuda-oom' }, default: EPOCH_DONE }),
  );
  // Room for nothing the failure report would write.
  await fillStorage(serviceWorker, 50);
  await runAll(page);
  expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 1 });

  const popup = await openPopup(tabId);
  const alert = popup.getByRole('alert').filter({ hasText: 'Not saved' });
  await expect(alert).toContainText(`A failure in ${key} (PyTorch CUDA out of memory`);
  await expect(alert).toContainText('was not saved, so no restart was scheduled for it');
  await expect(alert).toContainText("Could not save to the extension's storage: it is full");
  // The report was not saved: no countdown, no restart.
  expect((await readRecord(serviceWorker, key))?.status.kind).toBe('watching');
  expect(await logOf(page, 'menu-open')).toEqual([]);

  const options = await openOptions();
  const shown = options.getByRole('alert').filter({ hasText: 'Not saved' });
  await expect(shown).toContainText(`A failure in ${key}`);
  await shown.getByRole('button', { name: 'Dismiss' }).click();
  await expect(shown).toHaveCount(0);
  await expect(alert).toHaveCount(0);
  await Promise.all([popup.close(), options.close()]);
  await sim.dispose();
});

test('import: a file over the size limit is not read; one that would pass the storage quota is refused', async ({
  openOptions,
  serviceWorker,
}) => {
  const before = await serviceWorker.evaluate(() => chrome.storage.local.get(null));
  const options = await openOptions();
  const input = options.getByLabel('Import from a file');
  await input.setInputFiles({ name: 'huge.json', mimeType: 'application/json', buffer: Buffer.alloc(21_000_000, 32) });
  await expect(options.getByRole('alert')).toHaveText(
    'huge.json is too large (21.0 MB; an export of this extension is at most 20.0 MB), so it was not read. ' +
      'Nothing changed.',
  );

  await input.setInputFiles({ name: 'big.json', mimeType: 'application/json', buffer: Buffer.from(bigExport()) });
  await expect(options.getByRole('alert')).toHaveText(
    new RegExp(
      '^big\\.json was not imported, nothing changed: ' +
        'It would take 1\\d\\.\\d MB of storage, and the browser allows this extension 10\\.5 MB\\.',
    ),
  );
  expect(await serviceWorker.evaluate(() => chrome.storage.local.get(null))).toEqual(before);
  await options.close();
});

/** A valid export of 18 notebooks with full histories of long lines: about 11.5 MB stored, over Chrome's 10 MiB. */
function bigExport(): string {
  const verdict = {
    category: 'gpu-oom',
    rule: 'torch-cuda-oom',
    description: 'CUDA out of memory',
    line: 'y'.repeat(2000),
  };
  const history = Array.from({ length: 200 }, (_, i) => ({
    at: 1_700_000_000_000 + i,
    type: 'restart-scheduled',
    detail: 'x'.repeat(1000),
    verdict,
    action: 'restart-and-run-all',
  }));
  const notebooks = Array.from({ length: 18 }, (_, i) => ({ v: 2, key: `drive:big${i}`, enabled: true, history }));
  return JSON.stringify({ format: 'colab-oom-guard', version: 2, exportedAt: '', settings: { v: 2 }, notebooks });
}
