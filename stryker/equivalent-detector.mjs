// Surviving mutants in src/detector that change nothing
// observable, one line each on why (see stryker.config.mjs).
const L = 'src/detector/launchers.ts';
/** An index within bounds never reads undefined: the `?? ''` fallback is never used. */
const inBounds = (file, code) => ({
  file,
  mutator: 'StringLiteral',
  code,
  replacement: '"Stryker was here!"',
  why: 'the index is within bounds: the fallback is never read',
});

/** @type {import('./equivalent.d.ts').EquivalentMutant[]} */
export default [
  // launchers.ts
  {
    file: L,
    mutator: 'StringLiteral',
    code: "const magic = lines[first]?.trim() ?? '';",
    why: 'only an all-blank cell has no first line, and any text but a cell magic makes it a code cell of blank lines',
  },
  {
    file: L,
    mutator: 'MethodExpression',
    code: 'if (SHELL_MAGIC.test(magic)) return lines.slice(first + 1).some(launchesLine);',
    why: 'the magic line itself and the blank lines before it read as commands launch nothing (`%%bash` is no program)',
  },
  {
    file: L,
    mutator: 'MethodExpression',
    code: "const code = magic.startsWith('%%') ? lines.slice(first + 1) : lines;",
    why: 'a code magic line (`%%capture log`, `%%time`) holds no shell escape or process call: read or not, the same',
  },
  {
    file: L,
    mutator: 'ConditionalExpression',
    code: 'if (pending) joined.push(pending);',
    replacement: 'true',
    why: 'an empty last line launches nothing',
  },
  {
    file: L,
    mutator: 'ArrayDeclaration',
    code: 'const commands: string[][] = [];',
    why: 'a command whose program is "Stryker was here" launches nothing',
  },
  {
    file: L,
    mutator: 'ConditionalExpression',
    code: 'if (words.length) commands.push(withoutRedirections(words));',
    why: 'an empty command has no program: it launches nothing',
  },
  {
    file: L,
    mutator: 'EqualityOperator',
    code: 'for (let i = 0; i < line.length; i++) {',
    why: "one step past the end reads '', which ends the command as the loop's end does",
  },
  inBounds(L, "const c = line[i] ?? '';"),
  {
    file: L,
    mutator: 'StringLiteral',
    code: "else word += c === '\\\\' && quote === '\"' ? (line[++i] ?? '') : c;",
    replacement: '"Stryker was here!"',
    why: 'only a command ending in a lone backslash inside quotes reaches it: an unclosed quote, one last argument word',
  },
  {
    file: L,
    mutator: 'StringLiteral',
    code: "word = (word ?? '') + (line[++i] ?? '');",
    replacement: '"Stryker was here!"',
    why: 'only a command ending in a lone backslash reaches it: the text joins its last word, an argument',
  },
  ...['ConditionalExpression', 'EqualityOperator', 'StringLiteral', 'LogicalOperator', 'ArithmeticOperator'].map(
    (mutator) => ({
      file: L,
      mutator,
      code: "!(c === '&' && (line[i - 1] === '>' || line[i + 1] === '>'))",
      why:
        'what follows the `&` of `2>&1`, `>&2` or `&>` is a file descriptor or name, never a program, split off or ' +
        'not; a `;|()` touching `>` ends a command whose program is already read',
    }),
  ),
  inBounds(L, "const redirection = REDIRECTION.exec(words[i] ?? '');"),
  inBounds(L, "if (!redirection) kept.push(words[i] ?? '');"),
  {
    file: L,
    mutator: 'BooleanLiteral',
    code: 'for (let wrapped = false; i < words.length; i++) {',
    why: 'an option or a number where the program stands, with no wrapper before it, is no command line a cell runs',
  },
  {
    file: L,
    mutator: 'EqualityOperator',
    code: 'for (let wrapped = false; i < words.length; i++) {',
    why: "one step past the last word reads '', which is no prefix: the loop stops where it would have",
  },
  inBounds(L, "const word = words[i] ?? '';"),
  {
    file: L,
    mutator: 'Regex',
    code: "if (name === 'autotrain') return args.some((arg) => arg === '--train' || /^--config(?:=|$)/.test(arg));",
    replacement: '/--config(?:=|$)/',
    why: 'no autotrain option but `--config` itself ends in `--config`',
  },
  inBounds(L, "const arg = args[i] ?? '';"),
  {
    file: L,
    mutator: 'Regex',
    code: "if (arg === '-c' || arg === '-' || /^(?:-V|--version|-h|--help)$/.test(arg)) return false;",
    why: "python's only options that start or end so (`--help-all`, `--help-env`, `-VV`) print help too: no script runs",
  },
  {
    file: L,
    mutator: 'StringLiteral',
    code: "if (arg === '-c') return launchesLine(args[i + 1] ?? '');",
    why: '`bash -c` with nothing after it: neither nothing nor "Stryker was here!" launches',
  },
  {
    file: L,
    mutator: 'ConditionalExpression',
    code: 'while (i < code.length && code[i] !== close) {',
    why: 'at the end, no literal is found and the item ends at once: the next check returns null all the same',
  },
  {
    file: L,
    mutator: 'EqualityOperator',
    code: 'while (i < code.length && code[i] !== close) {',
    why: 'at the end, no literal is found and the item ends at once: the next check returns null all the same',
  },
  {
    file: L,
    mutator: 'StringLiteral',
    code: "words.push('?');",
    why: 'an unknown word, empty or `?`, is no option, no program and no module that trains nothing',
  },
  {
    file: L,
    mutator: 'EqualityOperator',
    code: 'for (let i = from; i < code.length; i++) {',
    why: "one step past the end reads '', which opens a bracket: the item ends at the end of the code all the same",
  },
  inBounds(L, "const c = code[i] ?? '';"),
  {
    file: L,
    mutator: 'StringLiteral',
    code: "const quote = head[1] ?? '';",
    why: 'the regex matched, so its group did: the fallback is never read',
  },
  {
    file: L,
    mutator: 'EqualityOperator',
    code: 'for (let j = i + head[0].length; j < code.length; j++) {',
    why: "one step past the end reads '', which ends no string: null all the same",
  },
  inBounds(L, "const c = code[j] ?? '';"),
  {
    file: L,
    mutator: 'StringLiteral',
    code: "value += c === '\\\\' ? (code[++j] ?? '') : c;",
    why: 'a backslash at the very end leaves the string unclosed: null, whatever it appends',
  },
  {
    file: L,
    mutator: 'ConditionalExpression',
    code: "while (j < code.length && /\\s/.test(code[j] ?? '')) j++;",
    why: "past the end, '' is no white space: the loop stops where it would have",
  },
  {
    file: L,
    mutator: 'EqualityOperator',
    code: "while (j < code.length && /\\s/.test(code[j] ?? '')) j++;",
    why: "past the end, '' is no white space: the loop stops where it would have",
  },
  inBounds(L, "while (j < code.length && /\\s/.test(code[j] ?? '')) j++;"),
];
