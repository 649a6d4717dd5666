import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AlertReceiver, startAlertReceiver } from './alert-receiver';
import { test as base, DIST, extensionServiceWorker, launchWithExtension } from './extension';
import { welcomeTabClosed } from './welcome-tab';

/**
 * A copy of the built extension whose manifest grants, at install, what the alert tests would otherwise get from a
 * browser prompt: the local receiver's host (http://127.0.0.1) and notifications. Chromium's permission prompt cannot
 * be answered from Playwright (no DevTools protocol for it; `--apps-gallery-install-auto-confirm-for-tests=accept`
 * does not answer it in Chromium 156). A permission already granted is granted again without a prompt, so the
 * product's own `permissions.request` calls run unchanged. The product code is the built one, byte for byte.
 */
export function distWithAlertPermissions(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'oom-guard-alert-dist-'));
  cpSync(DIST, dir, { recursive: true });
  const path = join(dir, 'manifest.json');
  const manifest = JSON.parse(readFileSync(path, 'utf8'));
  manifest.host_permissions = [...manifest.host_permissions, 'http://127.0.0.1/*'];
  manifest.permissions = [...manifest.permissions, 'notifications'];
  writeFileSync(path, JSON.stringify(manifest, null, 2));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The harness's test on that copy (one browser per worker), with a local receiver of its own for each test: what the
 * alert and heartbeat tests run on.
 */
export const test = base.extend<{ receiver: AlertReceiver }>({
  sharedContext: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const dist = distWithAlertPermissions();
      const { context, close } = await launchWithExtension({ extension: dist.dir });
      const worker = await extensionServiceWorker(context);
      if (!(await worker.evaluate(welcomeTabClosed))) throw new Error('no welcome page opened on install');
      await use(context);
      await close();
      dist.remove();
    },
    { scope: 'worker' },
  ],
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  receiver: async ({}, use) => {
    const receiver = await startAlertReceiver();
    await use(receiver);
    await receiver.stop();
  },
});
