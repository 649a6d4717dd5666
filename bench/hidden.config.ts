import { defineConfig } from '@playwright/test';

// `npm run bench:hidden`: Colab tabs hidden for a long stretch (bench/hidden-tab.spec.ts), as one Playwright "test"
// so it can import the TypeScript simulator and harness. Not part of `npm test` nor of `npm run bench`.
export default defineConfig({
  testDir: '.',
  testMatch: 'hidden-tab.spec.ts',
  workers: 1,
  retries: 0,
  reporter: [['list']],
});
