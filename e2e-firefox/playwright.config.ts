import { defineConfig } from '@playwright/test';
import { findFirefox, NO_FIREFOX_MESSAGE } from './harness/firefox';

if (!findFirefox()) {
  console.error(NO_FIREFOX_MESSAGE);
  process.exit(1);
}

/**
 * The Firefox suite (`npm run test:firefox`): Playwright's runner, Firefox driven by puppeteer-core over WebDriver
 * BiDi (harness/firefox.ts). One worker: one Firefox, shared by the tests (a file with its own prefs gets its own).
 */
export default defineConfig({
  // Says first that the Colab these tests drive is the simulator.
  globalSetup: '../e2e/harness/simulator-notice.ts',
  testDir: '.',
  testMatch: '**/*.spec.ts',
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
});
