import { resolve } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import base from './vitest.config';

/**
 * A mutant stops at its first failing test, and each test file costs it a fresh DOM environment, so the likeliest
 * killer goes first: the mutated module's own test file (Stryker names the module as the run's `related` file),
 * then the fastest files.
 */
class OwnTestsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const fastestFirst = (await super.sort(files)).reverse();
    const root = this.ctx.config.root;
    const own = new Set((this.ctx.config.related ?? []).map((file) => resolve(root, file).replace(/\.tsx?$/, '.test')));
    const isOwn = (spec: TestSpecification) => own.has(resolve(root, spec.moduleId).replace(/\.tsx?$/, ''));
    return [...fastestFirst.filter(isOwn), ...fastestFirst.filter((spec) => !isOwn(spec))];
  }
}

// Mutation testing (stryker.config.mjs) mutates all product code (src/), so it runs every unit test of src/: with
// per-test coverage a mutant runs only the tests that reach it, its own module's first.
export default {
  ...base,
  test: {
    ...base.test,
    include: ['src/**/*.test.{ts,tsx}'],
    sequence: { sequencer: OwnTestsFirst },
    // Instrumented code at nice 19 on a shared machine: a test that loads a chunk (the pattern engine) took over 5 s.
    // A mutant that hangs is still cut off by Stryker's own timeout.
    testTimeout: 60_000,
  },
};
