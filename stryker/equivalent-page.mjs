// Surviving mutants in the page session, runner and blindness (src/page) that change nothing
// observable, one line each on why (see stryker.config.mjs).
/** @type {import('./equivalent.d.ts').EquivalentMutant[]} */
export default [];
