// Surviving mutants in src/background that nothing can observe, each pinned by file, line, mutator and replacement
// (scripts/mutation-summary.mjs), with why in one line.
const SESSION = 'src/background/session.ts';
const created = 'create() reads the stored id again and returns it: the same id, one promise later';
const once = 'create() runs only after a read found no id, and one at a time: the id it would keep is never there';

/** @type {import('./equivalent.d.ts').EquivalentMutant[]} */
export default [
  { file: SESSION, line: 14, mutator: 'ConditionalExpression', replacement: 'false', why: created },
  { file: SESSION, line: 14, mutator: 'StringLiteral', replacement: '""', why: created },
  { file: SESSION, line: 24, mutator: 'ConditionalExpression', replacement: 'false', why: once },
  { file: SESSION, line: 24, mutator: 'StringLiteral', replacement: '""', why: once },
  {
    file: 'src/background/retention.ts',
    line: 15,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: 'with no time stored, now - undefined is NaN: not within a day, so it is applied as before',
  },
];
