import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIST } from './extension';

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
