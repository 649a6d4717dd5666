// Surviving mutants in the files at the top of src/ that nothing can observe, each pinned by file, line, mutator and
// replacement (scripts/mutation-summary.mjs), with why in one line.
/** @type {import('./equivalent.d.ts').EquivalentMutant[]} */
export default [
  {
    file: 'src/limits.ts',
    line: 101,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: 'slicing a text no longer than the bound gives the same text',
  },
  {
    file: 'src/limits.ts',
    line: 101,
    mutator: 'EqualityOperator',
    replacement: 'text.length >= max',
    why: 'slicing a text exactly as long as the bound gives the same text',
  },
];
