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
    const own = new Set(
      (this.ctx.config.related ?? []).map((file) => resolve(root, file).replace(/\.ts$/, '.test.ts')),
    );
    const isOwn = (spec: TestSpecification) => own.has(resolve(root, spec.moduleId));
    return [...fastestFirst.filter(isOwn), ...fastestFirst.filter((spec) => !isOwn(spec))];
  }
}

// Mutation testing (stryker.config.mjs) runs the unit tests of the code it mutates, not the page's wiring tests
// (guard, page script, failure watch…) that reach the same code through every layer: each of their files costs a
// mutant its DOM set-up again, and the behaviour they pin belongs to a unit test of the module that has it.
export default {
  ...base,
  test: {
    ...base.test,
    include: [
      'src/{detector,state,colab}/**/*.test.ts',
      'src/page/{notebook-session,restart-runner,blindness}.test.ts',
    ],
    sequence: { sequencer: OwnTestsFirst },
  },
};
