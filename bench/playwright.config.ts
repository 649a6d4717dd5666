import { defineConfig } from '@playwright/test';

// `npm run bench`: the benchmark runs as one Playwright "test" so it can import the TypeScript simulator and harness
// as they are. It is not part of `npm test` (the main config's testDir is e2e/); nothing here asserts timings.
export default defineConfig({
  testDir: '.',
  testMatch: 'bench.spec.ts',
  workers: 1,
  retries: 0,
  // A full run takes about 35 minutes on 2 cores (the notebook-scale pages most of it).
  timeout: 90 * 60_000,
  reporter: [['list']],
});
