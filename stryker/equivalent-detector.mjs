// Surviving mutants in src/detector that change nothing
// observable, one line each on why (see stryker.config.mjs).
/** @type {import('./equivalent.d.ts').EquivalentMutant[]} */
export default [];
