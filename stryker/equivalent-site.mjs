// Surviving mutants in src/site that change nothing
// observable, one line each on why (see stryker.config.mjs).
/** @type {import('./equivalent.d.ts').EquivalentMutant[]} */
export default [
  {
    file: 'src/site/page-language.ts',
    line: 12,
    mutator: 'BlockStatement',
    replacement: '{}',
    why: 'an empty catch returns undefined, which the ?? after it reads as null',
  },
  {
    file: 'src/site/languages.ts',
    line: 87,
    mutator: 'Regex',
    replacement: '/\\p{LC}/u',
    why: 'every text in the table that holds a cased letter ends in one: "ends in" and "holds" pick the same texts',
  },
  {
    file: 'src/site/languages.ts',
    line: 78,
    mutator: 'StringLiteral',
    replacement: '""',
    why: 'no text in the table holds a character a regex must escape: there is nothing for the replacement to write',
  },
];
