// Surviving mutants in src/site that change nothing
// observable, one line each on why (see stryker.config.mjs).
/** @type {import('./equivalent.d.ts').EquivalentMutant[]} */
export default [
  {
    file: 'src/site/page-language.ts',
    mutator: 'BlockStatement',
    code: '} catch {',
    why: 'an empty catch returns undefined, which the ?? after it reads as null',
  },
];
