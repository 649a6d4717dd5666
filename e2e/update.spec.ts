import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, expect, test } from '@playwright/test';
import { CHROMIUM_FLAGS, findChromium } from './harness/browser-path';
import { DIST, extensionServiceWorker } from './harness/extension';
import { chromeExtensionId } from './harness/extension-id';

/**
 * Updating as README's "Updating" tells a user to: a new version unzipped into another folder and loaded unpacked in
 * the same browser profile. The manifest's `key` pins the extension id, so the browser treats it as the same extension
 * and keeps its storage: the notebooks' switches and settings survive. Without the key Chrome derives the id of an
 * unpacked extension from its folder's path, and the new folder would be a new extension with empty storage.
 */

const manifest = JSON.parse(readFileSync(join(DIST, 'manifest.json'), 'utf8')) as { key: string; version: string };

/** A copy of dist/ in a folder of its own, as unzipping a release gives, with the version given. */
function unzippedRelease(root: string, name: string, version: string): string {
  const dir = join(root, name);
  cpSync(DIST, dir, { recursive: true });
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, version }));
  return dir;
}

async function launch(profile: string, extension: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profile, {
    executablePath: findChromium(),
    headless: true,
    args: [`--disable-extensions-except=${extension}`, `--load-extension=${extension}`, ...CHROMIUM_FLAGS],
  });
}

let root: string;
test.beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'oom-guard-update-'));
});
test.afterAll(() => rmSync(root, { recursive: true, force: true }));

test('the extension id is the one the manifest key pins', async () => {
  const context = await launch(join(root, 'profile-id'), unzippedRelease(root, 'id-check', manifest.version));
  try {
    const worker = await extensionServiceWorker(context);
    expect(new URL(worker.url()).host).toBe(chromeExtensionId(manifest.key));
  } finally {
    await context.close();
  }
});

test('a new version loaded from another folder keeps the notebooks and settings', async () => {
  const profile = join(root, 'profile-update');
  const notebook = { v: 1, key: 'drive:update-test', enabled: true, title: 'train_llm.ipynb' };

  const before = await launch(profile, unzippedRelease(root, 'colab-oom-guard-0.1.0', '0.1.0'));
  const oldWorker = await extensionServiceWorker(before);
  await oldWorker.evaluate(
    (notebook) => chrome.storage.local.set({ settings: { v: 1, maxRestarts: 7 }, [`nb:${notebook.key}`]: notebook }),
    notebook,
  );
  const oldId = new URL(oldWorker.url()).host;
  await before.close();

  const after = await launch(profile, unzippedRelease(root, 'colab-oom-guard-0.1.1', '0.1.1'));
  try {
    const worker = await extensionServiceWorker(after);
    expect(new URL(worker.url()).host).toBe(oldId);
    expect(await worker.evaluate(() => chrome.runtime.getManifest().version)).toBe('0.1.1');
    const stored = await worker.evaluate(() => chrome.storage.local.get(['settings', 'nb:drive:update-test']));
    // The update may have migrated the records to the current schema already: what the user chose is what counts.
    const { v: _schema, ...chosen } = notebook;
    expect(stored).toMatchObject({ settings: { maxRestarts: 7 }, 'nb:drive:update-test': chosen });
  } finally {
    await after.close();
  }
});
