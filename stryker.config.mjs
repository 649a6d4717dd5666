// Mutation testing (`npm run test:mutation`): Stryker changes the product code one small edit at a time and runs the
// unit tests that cover it; a mutant no test notices "survives". docs/testing.md has the score and the survivors.
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
 * Surviving mutants that change nothing observable (equivalent mutants), one line each on why: the summary
 * (scripts/mutation-summary.mjs) counts them apart. `code` is a piece of the source the mutant replaced.
 * @type {Array<{ file: string; mutator: string; code: string; replacement?: string; why: string }>}
 */
export const equivalentMutants = [
  {
    file: 'src/state/policy.ts',
    mutator: 'ConditionalExpression',
    code: 'record.lastRestartAt !== undefined && event.detectedAt <= record.lastRestartAt',
    replacement: 'true',
    why: 'with no restart yet, `detectedAt <= undefined` is false anyway',
  },
  {
    file: 'src/state/policy.ts',
    mutator: 'ConditionalExpression',
    code: "const action = record.status.kind === 'restarting' ? record.status.action : undefined;",
    replacement: 'true',
    why: 'onRestartResult reaches a failed step only while the status is restarting (checked on entry)',
  },
  {
    file: 'src/state/policy.ts',
    mutator: 'ConditionalExpression',
    code: "if (status.kind === 'restarting' && ctx.now - status.startedAt >= RESTART_TIMEOUT_MS) {",
    replacement: 'true',
    why: 'any other status has no startedAt: `now - undefined >= …` is false',
  },
  {
    file: 'src/state/policy.ts',
    mutator: 'UnaryOperator',
    code: 'const lastTrouble = Math.max(record.lastRestartAt ?? -Infinity, record.lastFailureAt ?? -Infinity);',
    replacement: '+Infinity',
    why: 'only a crash loop above zero is reset, and it had a restart: lastRestartAt is set whenever it matters',
  },
  {
    file: 'src/state/notebook-key.ts',
    mutator: 'ConditionalExpression',
    code: "return rest.length > 0 ? nonEmpty('notebooks:', withoutIpynb(rest.join('/'))) : null;",
    why: "with no path, nonEmpty('notebooks:', '') is null too",
  },
  {
    file: 'src/state/notebook-key.ts',
    mutator: 'EqualityOperator',
    code: "return rest.length > 0 ? nonEmpty('notebooks:', withoutIpynb(rest.join('/'))) : null;",
    why: "with no path, nonEmpty('notebooks:', '') is null too",
  },
  {
    file: 'src/state/notebook-key.ts',
    mutator: 'ConditionalExpression',
    code: 'default:',
    why: 'falling out of the switch returns undefined, which `?? keyFromFragment` treats as null',
  },
  {
    file: 'src/state/notebook-key.ts',
    mutator: 'ConditionalExpression',
    code: "if (owner === undefined || repo === undefined || blob !== 'blob' || refAndPath.length < 2) return null;",
    why: "a missing owner or repo leaves blob undefined too, and `blob !== 'blob'` refuses it",
  },
  {
    file: 'src/state/notebook-key.ts',
    mutator: 'LogicalOperator',
    code: "if (owner === undefined || repo === undefined || blob !== 'blob' || refAndPath.length < 2) return null;",
    why: "a missing owner or repo leaves blob undefined too, and `blob !== 'blob'` refuses it",
  },
  {
    file: 'src/state/notebook-key.ts',
    mutator: 'ConditionalExpression',
    code: "if (value === '') return null;",
    why: "an empty #fileId= gives 'url:', which isNotebookKey refuses: null all the same",
  },
  {
    file: 'src/state/notebook-key.ts',
    mutator: 'StringLiteral',
    code: "if (value === '') return null;",
    why: "an empty #fileId= gives 'url:', which isNotebookKey refuses: null all the same",
  },
  {
    file: 'src/state/notebook-key.ts',
    mutator: 'Regex',
    code: ".replace(/^#/, '')",
    replacement: '/#/',
    why: 'a location hash starts with its only leading #: removing the first # is the same',
  },
  {
    file: 'src/colab/runtime-menu.ts',
    mutator: 'StringLiteral',
    code: "dispatchMouseSequence(button, 'press')",
    replacement: '""',
    why: "dispatchMouseSequence presses for any kind but 'click': '' presses the same",
  },
  {
    file: 'src/colab/runtime-menu.ts',
    mutator: 'StringLiteral',
    code: "DANGEROUS_COMMANDS.includes(item.getAttribute('command') ?? '')",
    why: 'neither an empty command nor any other made-up one is in the list',
  },
  {
    file: 'src/colab/runtime-menu.ts',
    mutator: 'ConditionalExpression',
    code: 'if (await waitFor(hidden, { root: doc, timeoutMs: settle })) return true;',
    replacement: 'false',
    why: 'a menu Escape closed is hidden: the press after it is skipped and the last wait ends at once, true',
  },
  {
    file: 'src/colab/dom.ts',
    mutator: 'ConditionalExpression',
    code: 'return node.nodeType === Node.ELEMENT_NODE ? (node as Element).shadowRoot : null;',
    replacement: 'true',
    why: 'a document or fragment has no shadowRoot: undefined, read as none all the same',
  },
  {
    file: 'src/colab/dom.ts',
    mutator: 'StringLiteral',
    code: "const parts = [el.textContent ?? ''];",
    why: "an element's textContent is never null",
  },
  {
    file: 'src/colab/dom.ts',
    mutator: 'StringLiteral',
    code: "parts.push(sr.textContent ?? '')",
    why: "a shadow root's textContent is never null",
  },
  {
    file: 'src/colab/dom.ts',
    mutator: 'StringLiteral',
    code: "(node.textContent ?? '')",
    why: "a text node's or an element's textContent is never null",
  },
  {
    file: 'src/colab/dom.ts',
    mutator: 'StringLiteral',
    code: "const old = record.oldValue ?? '';",
    why: 'without an old value, only a text that starts with the made-up one would read differently',
  },
  {
    file: 'src/colab/dom.ts',
    mutator: 'StringLiteral',
    code: "let lastRemoved = '';",
    why: 'read only for a record on lastTarget, which starts null: no record has a null target',
  },
  {
    file: 'src/colab/dom.ts',
    mutator: 'StringLiteral',
    code: "lastRemoved = lastTarget ? removed : '';",
    why: 'set so only while lastTarget is null, when it is never read',
  },
];
