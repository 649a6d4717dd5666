/**
 * Chromium for the bench: the same launch as e2e/harness/extension.ts, with the extension built into bench/.dist
 * (so a bench run never rebuilds the dist/ that e2e tests may be loading), or without any extension.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Worker } from '@playwright/test';
import { CHROMIUM_FLAGS, findChromium } from '../../e2e/harness/browser-path';
import { welcomeTabClosed } from '../../e2e/harness/welcome-tab';

export interface Browser {
  context: BrowserContext;
  serviceWorker?: Worker;
  extensionId?: string;
  close(): Promise<void>;
}

export function chromiumPath(): string {
  const path = findChromium();
  if (!path) throw new Error('bench: no Chromium found (set CHROMIUM_PATH or install chromium)');
  return path;
}

/** A persistent context (a non-persistent one loads no extension), with the extension from `dist` or none. */
export async function launch(dist: string | null): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'oom-guard-bench-'));
  const extensionArgs = dist ? [`--disable-extensions-except=${dist}`, `--load-extension=${dist}`] : [];
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: true,
    args: [...extensionArgs, ...CHROMIUM_FLAGS],
  });
  const close = async () => {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  };
  if (!dist) return { context, close };
  const serviceWorker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  // The welcome page opens on install, at times after the first page a caller opens: that page is then a tab behind
  // it, which Chromium does not render, and its Run all costs a third of the main-thread time of a tab in front.
  if (!(await serviceWorker.evaluate(welcomeTabClosed))) throw new Error('bench: no welcome page opened on install');
  return { context, serviceWorker, extensionId: new URL(serviceWorker.url()).host, close };
}

/**
 * Bench setup written straight into storage.local from the service worker (DEVELOPERS.md: records are
 * `settings` and `nb:<key>`, src/state/schema.ts). Only used before a notebook page is opened, so it never races
 * the service worker's own serialised writes.
 */
export async function writeSettings(sw: Worker, settings: Record<string, unknown>): Promise<void> {
  await sw.evaluate(async (s) => {
    await chrome.storage.local.set({ settings: { v: 1, ...s } });
  }, settings);
}

export async function enableNotebook(sw: Worker, key: string): Promise<void> {
  await sw.evaluate(async (k) => {
    await chrome.storage.local.set({ [`nb:${k}`]: { v: 1, key: k, enabled: true } });
  }, key);
}
