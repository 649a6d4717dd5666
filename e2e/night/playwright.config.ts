import { defineConfig } from '@playwright/test';
import { findChromium, NO_BROWSER_MESSAGE } from '../harness/browser-path';

if (!findChromium()) {
  console.error(NO_BROWSER_MESSAGE);
  process.exit(1);
}

/** The randomized night (scripts/night.mjs sets its seeds): one Chromium, one worker, as long as the night takes. */
export default defineConfig({
  // Says first that the Colab these tests drive is the simulator.
  globalSetup: '../harness/simulator-notice.ts',
  testDir: '.',
  testMatch: 'night.spec.ts',
  workers: 1,
  retries: 0,
  timeout: 0,
  expect: { timeout: 15_000 },
  // A click that cannot happen fails the event instead of waiting all night.
  use: { actionTimeout: 15_000 },
  reporter: [['list']],
  outputDir: '../../test-results/night-artifacts',
});
