// Mutation testing (`npm run test:mutation`): Stryker changes the product code one small edit at a time and runs the
// unit tests that cover it; a mutant no test notices "survives". docs/testing.md has the score and the survivors.
import colab from './stryker/equivalent-colab.mjs';
import detector from './stryker/equivalent-detector.mjs';
import page from './stryker/equivalent-page.mjs';
import state from './stryker/equivalent-state.mjs';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  // `related` names the mutated module to vitest.stryker.config.ts, which runs that module's own tests first.
  vitest: { configFile: 'vitest.stryker.config.ts', related: true },
  mutate: [
    'src/detector/**/*.ts',
    'src/state/**/*.ts',
    'src/colab/**/*.ts',
    'src/page/notebook-session.ts',
    'src/page/restart-runner.ts',
    'src/page/blindness.ts',
    '!src/**/*.test.ts',
  ],
  coverageAnalysis: 'perTest',
  // Mutants in module-level tables (the rule table, the selector registry) can only be tested by reloading every
  // module and running every test: a fifth of the mutants and five sixths of the time. They are counted, not tested.
  ignoreStatic: true,
  // Two cores, shared: one or two runners. Incremental: a run re-tests only mutants whose code or tests changed.
  concurrency: 2,
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  tempDirName: '.stryker-tmp',
  // Builds, reports and profiles stay out of the sandbox copy (the unit tests read src/, test/, e2e/colab-sim/).
  ignorePatterns: [
    'dist',
    'dist-firefox',
    'release',
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

/**
 * Surviving mutants that change nothing observable (equivalent mutants), one line each on why, kept per mutated
 * folder in stryker/: the summary (scripts/mutation-summary.mjs) counts them apart. `code` is a piece of the source
 * the mutant replaced.
 */
export const equivalentMutants = [...colab, ...detector, ...page, ...state];
