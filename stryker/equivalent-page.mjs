// Surviving mutants in the page session, runner and blindness (src/page) that change nothing
// observable, one line each on why (see stryker.config.mjs).
/** @type {import('./equivalent.d.ts').EquivalentMutant[]} */
export default [
  {
    file: 'src/page/notebook-session.ts',
    mutator: 'StringLiteral',
    code: "let shown = '';",
    why: 'another start only hides, at the first record with nothing to show, a notice never shown (hide is a no-op)',
  },
  {
    file: 'src/page/notebook-session.ts',
    mutator: 'BooleanLiteral',
    code: 'let personShown = false;',
    why: 'read only once a record with nothing to show follows a shown notice, whose showing reset it first',
  },
  {
    file: 'src/page/notebook-session.ts',
    mutator: 'StringLiteral',
    code: "const signature = content ? JSON.stringify(record.status) : '';",
    why: 'another "nothing shown" mark only hides, at the first record, a notice never shown (hide is a no-op)',
  },
  {
    file: 'src/page/notebook-session.ts',
    mutator: 'LogicalOperator',
    code: 'presence: deps.watchPresence(doc.defaultView ?? window, signal, () => question.arrived()),',
    why: "a Colab page's document always has its window: `defaultView && window` is that window too",
  },
  {
    file: 'src/page/notebook-session.ts',
    mutator: 'LogicalOperator',
    code: 'doc.defaultView ?? window,',
    why: "a Colab page's document always has its window: `defaultView && window` is that window too",
  },
  {
    file: 'src/page/notebook-session.ts',
    mutator: 'LogicalOperator',
    code: 'if (!content || !isPersonOnly(kind)) return;',
    why: 'needsPersonNotice has words only for person-only kinds: the second test only narrows the type',
  },
  {
    file: 'src/page/notebook-session.ts',
    mutator: 'UpdateOperator',
    code: 'changes++;',
    why: 'the count only has to move: a read compares it for equality, down as well as up',
  },
  {
    file: 'src/page/notebook-session.ts',
    mutator: 'ConditionalExpression',
    code: 'if (latest) showNotice(latest);',
    why: "a refusal follows the ask's reply; the record that asked was stored as latest in that same task: never null",
  },
  {
    file: 'src/page/restart-runner.ts',
    mutator: 'ConditionalExpression',
    code: 'if (scheduled === countdown.attempt || fired.has(countdown.attempt)) return;',
    replacement: 'false',
    why: 'cost only: the countdown scheduled already is scheduled again for the same deadline with the same retries',
  },
];
