// Mutation testing (`npm run test:mutation`): Stryker changes the product code one small edit at a time and runs the
// unit tests that cover it; a mutant no test notices "survives". stryker/summary.md has the last full run's score by
// folder and every survivor with its justification; docs/testing.md says how to run it.
// scripts/mutation.mjs runs it once per folder of src/ (or over the files a change touched): it names what a run
// mutates and where it keeps its results.
const reports = process.env.MUTATION_REPORTS ?? 'reports/mutation/all';
const PRODUCT = ['src/**/*.{ts,tsx}', '!src/**/*.test.{ts,tsx}', '!src/**/*.d.ts'];

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  // `related` names the mutated module to vitest.stryker.config.ts, which runs that module's own tests first.
  vitest: { configFile: 'vitest.stryker.config.ts', related: true },
  // All product code, by glob: a new file or folder is mutated without a change here. Type-only files give no mutant.
  mutate: process.env.MUTATION_MUTATE ? JSON.parse(process.env.MUTATION_MUTATE) : PRODUCT,
  coverageAnalysis: 'perTest',
  // The first run of every unit test, instrumented, takes minutes on a shared machine (its default bound is 5).
  dryRunTimeoutMinutes: 60,
  // Module-level tables (the OOM rule table, the dangerous-command tables, the selector registry) are mutated too: such
  // a mutant is active from the module's load (vitest loads modules afresh per test file), and runs every test of
  // the files that import its module.
  ignoreStatic: false,
  warnings: { slow: false },
  // Two cores shared with other work: run it under `nice -n 19`; STRYKER_CONCURRENCY=1 on a busy machine.
  concurrency: Number(process.env.STRYKER_CONCURRENCY ?? 2),
  // Incremental: a run re-tests only mutants whose code or tests changed (the file is kept between runs).
  incremental: true,
  incrementalFile: `${reports}/stryker-incremental.json`,
  reporters: ['progress', 'html', 'json'],
  htmlReporter: { fileName: `${reports}/mutation.html` },
  jsonReporter: { fileName: `${reports}/mutation.json` },
  tempDirName: '.stryker-tmp',
  // Builds, reports and profiles stay out of the sandbox copy (the unit tests read src/, test/, e2e/colab-sim/).
  ignorePatterns: [
    'dist',
    'dist-firefox',
    'release',
    'reports',
    'bench/.dist',
    'bench/.dist-map',
    'test-results',
    'playwright-report',
    '.profiles',
  ],
  // Stryker rewrites the named tsconfig with TypeScript's JS API, which TypeScript 7 does not have; the sandbox sits
  // inside the project, so nothing needs rewriting: name a file that does not exist.
  tsconfigFile: 'tsconfig.stryker-none.json',
  // A mutant that makes a test wait for a timer is cut off this long after the test's usual time: a timeout counts
  // as detected, and a long one costs a runner its time.
  timeoutMS: 5000,
};
