import { readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import base from './vitest.config';

/** Whether the test file imports `module` (a path without its extension) by name: `from './selectors'`. */
const imports = (() => {
  const sources = new Map<string, string>();
  return (testFile: string, module: string) => {
    const source = sources.get(testFile) ?? readFileSync(testFile, 'utf8');
    sources.set(testFile, source);
    return source.includes(`/${basename(module)}'`);
  };
})();

/**
 * A mutant stops at its first failing test, and each test file costs it a fresh DOM environment, so the likeliest
 * killers go first: the mutated module's own test file (Stryker names the module as the run's `related` file), then
 * the test files that import it by name, then the other tests of its folder, then the fastest. A static mutant (in a
 * module-level table) runs every test of the files that import its module: where they run matters most there.
 */
class LikeliestKillersFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const fastestFirst = (await super.sort(files)).reverse();
    const root = this.ctx.config.root;
    const modules = (this.ctx.config.related ?? []).map((file) => resolve(root, file).replace(/\.tsx?$/, ''));
    const path = (spec: TestSpecification) => resolve(root, spec.moduleId);
    const rank = (spec: TestSpecification) => {
      const file = path(spec);
      if (modules.some((module) => file.replace(/\.test\.tsx?$/, '') === module)) return 0;
      if (modules.some((module) => imports(file, module))) return 1;
      if (modules.some((module) => dirname(file) === dirname(module))) return 2;
      return 3;
    };
    return fastestFirst
      .map((spec, i) => ({ spec, i, rank: rank(spec) }))
      .sort((a, b) => a.rank - b.rank || a.i - b.i)
      .map((s) => s.spec);
  }
}

// Mutation testing (stryker.config.mjs) mutates all product code (src/), so it runs every unit test of src/: with
// per-test coverage a mutant runs only the tests that reach it, its own module's first.
export default {
  ...base,
  test: {
    ...base.test,
    include: ['src/**/*.test.{ts,tsx}'],
    sequence: { sequencer: LikeliestKillersFirst },
    // Instrumented code at nice 19 on a shared machine: a test that loads a chunk (the pattern engine) took over 5 s.
    // A mutant that hangs is still cut off by Stryker's own timeout.
    testTimeout: 60_000,
  },
};
