import { defineConfig } from '@playwright/test';
import { findChromium, NO_BROWSER_MESSAGE } from './e2e/harness/browser-path';

if (!findChromium()) {
  console.error(NO_BROWSER_MESSAGE);
  process.exit(1);
}

export default defineConfig({
  // Says first that the Colab these tests drive is the simulator.
  globalSetup: './e2e/harness/simulator-notice.ts',
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  // The randomized night has its own config and runner (npm run test:night).
  testIgnore: 'night/**',
  // One Chromium per worker; two cores on CI.
  workers: process.env.CI ? 2 : undefined,
  fullyParallel: false,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: { trace: 'retain-on-failure' },
});
