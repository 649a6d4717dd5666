// Surviving mutants in src/state that change nothing
// observable, one line each on why (see stryker.config.mjs).
/** @type {import('./equivalent.d.ts').EquivalentMutant[]} */
export default [
  {
    file: 'src/state/policy.ts',
    mutator: 'ConditionalExpression',
    code: 'record.lastRestartAt !== undefined && event.detectedAt <= record.lastRestartAt',
    replacement: 'true',
    why: 'with no restart yet, `detectedAt <= undefined` is false anyway',
  },
  {
    file: 'src/state/policy.ts',
    mutator: 'ConditionalExpression',
    code: "const action = record.status.kind === 'restarting' ? record.status.action : undefined;",
    replacement: 'true',
    why: 'onRestartResult reaches a failed step only while the status is restarting (checked on entry)',
  },
  {
    file: 'src/state/policy.ts',
    mutator: 'ConditionalExpression',
    code: "if (status.kind === 'restarting' && ctx.now - status.startedAt >= RESTART_TIMEOUT_MS) {",
    replacement: 'true',
    why: 'any other status has no startedAt: `now - undefined >= …` is false',
  },
  {
    file: 'src/state/policy.ts',
    mutator: 'UnaryOperator',
    code: 'const lastTrouble = Math.max(record.lastRestartAt ?? -Infinity, record.lastFailureAt ?? -Infinity);',
    replacement: '+Infinity',
    why: 'only a crash loop above zero is reset, and it had a restart: lastRestartAt is set whenever it matters',
  },
  {
    file: 'src/state/notebook-key.ts',
    mutator: 'ConditionalExpression',
    code: "return rest.length > 0 ? nonEmpty('notebooks:', withoutIpynb(rest.join('/'))) : null;",
    why: "with no path, nonEmpty('notebooks:', '') is null too",
  },
  {
    file: 'src/state/notebook-key.ts',
    mutator: 'EqualityOperator',
    code: "return rest.length > 0 ? nonEmpty('notebooks:', withoutIpynb(rest.join('/'))) : null;",
    why: "with no path, nonEmpty('notebooks:', '') is null too",
  },
  {
    file: 'src/state/notebook-key.ts',
    mutator: 'ConditionalExpression',
    code: 'default:',
    why: 'falling out of the switch returns undefined, which `?? keyFromFragment` treats as null',
  },
  {
    file: 'src/state/notebook-key.ts',
    mutator: 'ConditionalExpression',
    code: "if (owner === undefined || repo === undefined || blob !== 'blob' || refAndPath.length < 2) return null;",
    why: "a missing owner or repo leaves blob undefined too, and `blob !== 'blob'` refuses it",
  },
  {
    file: 'src/state/notebook-key.ts',
    mutator: 'LogicalOperator',
    code: "if (owner === undefined || repo === undefined || blob !== 'blob' || refAndPath.length < 2) return null;",
    why: "a missing owner or repo leaves blob undefined too, and `blob !== 'blob'` refuses it",
  },
  {
    file: 'src/state/notebook-key.ts',
    mutator: 'ConditionalExpression',
    code: "if (value === '') return null;",
    why: "an empty #fileId= gives 'url:', which isNotebookKey refuses: null all the same",
  },
  {
    file: 'src/state/notebook-key.ts',
    mutator: 'StringLiteral',
    code: "if (value === '') return null;",
    why: "an empty #fileId= gives 'url:', which isNotebookKey refuses: null all the same",
  },
  {
    file: 'src/state/notebook-key.ts',
    mutator: 'Regex',
    code: ".replace(/^#/, '')",
    replacement: '/#/',
    why: 'a location hash starts with its only leading #: removing the first # is the same',
  },
];
