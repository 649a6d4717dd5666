// Surviving mutants in src/detector that change nothing
// observable, one line each on why (see stryker.config.mjs).
const L = 'src/detector/launchers.ts';
const S = 'src/detector/shell-tail.ts';
const C = 'src/detector/classify.ts';
const G = 'src/detector/execution-gate.ts';
const N = 'src/detector/lines.ts';
const P = 'src/detector/patterns.ts';
const M = 'src/detector/markers.ts';
const T = 'src/detector/text.ts';
/** An index within bounds never reads undefined: the `?? ''` fallback is never used. */
const inBounds = (file, code) => ({
  file,
  mutator: 'StringLiteral',
  code,
  replacement: '"Stryker was here!"',
  why: 'the index is within bounds: the fallback is never read',
});

/** A fallback text that, like '', has none of the shapes tested on it (or is never read: the regex's group matched). */
const noShape = (file, code) => ({
  file,
  mutator: 'StringLiteral',
  code,
  replacement: '"Stryker was here!"',
  why: "the fallback, like '', matches none of the shapes tested on it (or is never read)",
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
    why: 'reached only by a command ending in a lone backslash inside quotes: the quote is left open',
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
    why: "python's only options that start or end so (`--help-all`, `--help-env`, `-VV`) print help too: nothing runs",
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
  // shell-tail.ts
  {
    file: S,
    mutator: 'MethodExpression',
    code: 'stripAnsi(raw.slice(0, MAX_RULE_LINE_CHARS))',
    why: 'cost only: bounds the regex work on one line; every shape tested is at its start',
  },
  {
    file: S,
    mutator: 'ArithmeticOperator',
    code: "for (let i = lines.length - 1; i >= 0; i--) if (lines[i]) return lines[i] ?? '';",
    why: 'the steps past the end read undefined, which is skipped as a blank line is',
  },
  noShape(S, "for (let i = lines.length - 1; i >= 0; i--) if (lines[i]) return lines[i] ?? '';"),
  {
    file: S,
    mutator: 'StringLiteral',
    code: "  return '';",
    why: 'an error output of blank lines: neither nothing nor "Stryker was here!" is a CalledProcessError',
  },
  {
    file: S,
    mutator: 'EqualityOperator',
    code: 'while (end > 0) {',
    why: "index -1 reads '', skipped as blank; no traceback ends before the first line either way",
  },
  {
    file: S,
    mutator: 'MethodExpression',
    code: "if (line.trim() === '' || LAUNCHER_LINES.some((re) => re.test(line))) {",
    why: "every line is trimmed at its end already (tailLines): a blank line is ''",
  },
  ...[
    "const line = lines[end - 1] ?? '';",
    "while (header >= 0 && !HEADER.test(lines[header] ?? '')) header--;",
    "const rich = header >= 0 && (lines[header] ?? '').startsWith('╭');",
    "while (i < end && RICH_BOX.test(lines[i] ?? '')) i++;",
    "if (!RICH_FOOTER.test(lines[i] ?? '')) return null;",
    "for (; i < end && (FRAME.test(lines[i] ?? '') || /^\\s/.test(lines[i] ?? '')); i++) {",
    "if (FRAME.test(lines[i] ?? '')) frames++;",
    "if (i >= end || !EXCEPTION.test(lines[i] ?? '')) return null;",
    "const first = message[0] ?? '';",
    "if (INTERRUPTED.test(lines[report.exception] ?? '')) return null;",
    "while (i >= 0 && (lines[i] ?? '') === '') i--;",
    "if (i < 0 || !CHAIN.test(lines[i] ?? '')) return first;",
  ].map((code) => noShape(S, code)),
  {
    file: S,
    mutator: 'ConditionalExpression',
    code: "const rich = header >= 0 && (lines[header] ?? '').startsWith('╭');",
    why: "without a header, index -1 reads '': no box either way",
  },
  ...['ConditionalExpression', 'EqualityOperator'].flatMap((mutator) => [
    {
      file: S,
      mutator,
      code: "while (i < end && RICH_BOX.test(lines[i] ?? '')) i++;",
      why: 'the line at `end` (a launcher line, a chain line, or past the tail) is never a box line',
    },
    {
      file: S,
      mutator,
      code: "for (; i < end && (FRAME.test(lines[i] ?? '') || /^\\s/.test(lines[i] ?? '')); i++) {",
      why: 'frames run to `end` only when the exception line is missing; what follows is then no message either way',
    },
  ]),
  {
    file: S,
    mutator: 'UpdateOperator',
    code: "if (FRAME.test(lines[i] ?? '')) frames++;",
    why: 'only whether a frame was seen is read (frames === 0): counting down says so too',
  },
  {
    file: S,
    mutator: 'MethodExpression',
    code: 'if (!CHILD_FAILED.test(first.trim())',
    why: 'lines are trimmed at their end, and an exception line starts at column 0: trim changes nothing',
  },
  ...['ConditionalExpression', 'EqualityOperator'].map((mutator) => ({
    file: S,
    mutator,
    code: 'if (root < 0) return null;',
    why: "torchrun's box always has its Root Cause section after the ChildFailedError line, never at index 0",
  })),
  {
    file: S,
    mutator: 'MethodExpression',
    code: 'if (code) return KILL_CODES.has(Number(code[1])) ? line.trim() : null;',
    why: 'the verdict clips its line, trimmed: the same line shown',
  },
  ...['EqualityOperator', 'UpdateOperator'].map((mutator) => ({
    file: S,
    mutator,
    code: 'for (let n = 0; n < MAX_CHAIN; n++) {',
    why: 'cost only: bounds the walk back over chained tracebacks (each link starts earlier, so it ends anyway)',
  })),
  {
    file: S,
    mutator: 'EqualityOperator',
    code: "while (i >= 0 && (lines[i] ?? '') === '') i--;",
    why: 'stopping at index 0 when it is blank: a blank line is no chain line, so `first` is returned either way',
  },
  ...['ConditionalExpression', 'EqualityOperator'].map((mutator) => ({
    file: S,
    mutator,
    code: "if (i < 0 || !CHAIN.test(lines[i] ?? '')) return first;",
    why: "index -1 reads '', no chain line; a chain line at index 0 has no traceback before it: `first` either way",
  })),

  // classify.ts
  ...['!KEYWORDS.test(bounded)', '!KEYWORDS.test(line)'].map((code) => ({
    file: C,
    mutator: 'ConditionalExpression',
    code,
    why: 'cost only: every built-in rule needs one of the keywords, so a text or line without one matches none',
  })),
  {
    file: C,
    mutator: 'MethodExpression',
    code: 'const line = stripAnsi(raw.slice(0, MAX_RULE_LINE_CHARS));',
    why: 'cost only: bounds the regex work on one line; rules match at the start of a message',
  },
  {
    file: C,
    mutator: 'ArithmeticOperator',
    code: 'for (let i = lines.length - 1; i >= 0; i--) {',
    why: 'the steps past the end read undefined, read as an empty line: nothing matches it',
  },
  noShape(C, 'const verdict = classifyLine('),
  noShape(C, 'const line = stripAnsi(lines[i]'),

  // execution-gate.ts
  ...['ConditionalExpression', 'EqualityOperator', 'ArithmeticOperator'].map((mutator) => ({
    file: G,
    mutator,
    code: 'if (head * 2 >= items.length) {',
    why: 'cost only: when the queue compacts its array; the values it holds are the same',
  })),
  {
    file: G,
    mutator: 'ArrayDeclaration',
    code: 'let items: T[] = [];',
    why: 'an item with no end time is outside every crash window, and the first dropped when the queue is full',
  },
  {
    file: G,
    mutator: 'ArrayDeclaration',
    code: '      items = [];',
    why: 'an item with no end time is outside every crash window, and the first dropped when the queue is full',
  },
  {
    file: G,
    mutator: 'ConditionalExpression',
    code: "if (outcome !== 'error') forgetOutputs(run);",
    why: 'cost only (memory): the error outputs of an execution that ended well are never read again',
  },

  // lines.ts
  noShape(N, "if (native) return nativeLogCandidates(native[1] ?? '', native[2] ?? '', native[3] ?? '', indent);"),
  ...[
    ['MethodExpression', 'const errorLog = ERROR_LOG.exec(text.slice(0, ERROR_LOG_SEARCH_CHARS));'],
    ['EqualityOperator', 'for (let i = 0; i < MAX_PREFIXES; i++) {'],
    ['UpdateOperator', 'for (let i = 0; i < MAX_PREFIXES; i++) {'],
    ['ConditionalExpression', 'if (segments.length >= MAX_SEGMENTS) break;'],
    ['EqualityOperator', 'if (segments.length >= MAX_SEGMENTS) break;'],
    ['EqualityOperator', 'for (let i = 0; i < MAX_WRAPPERS; i++) {'],
    ['UpdateOperator', 'for (let i = 0; i < MAX_WRAPPERS; i++) {'],
  ].map(([mutator, code]) => ({
    file: N,
    mutator,
    code,
    why: 'cost only: a bound on the prefixes, segments or wrappers read on one line (no real line has that many)',
  })),
  {
    file: N,
    mutator: 'MethodExpression',
    code: 'return segments.map((segment) => messageCandidate(stripPrefixes(segment).trimStart(), indent, true));',
    why: 'a segment starts at no space already: ERROR_LOG takes the spaces after the level, segmentsOf trims the rest',
  },
  {
    file: N,
    mutator: 'ArrayDeclaration',
    code: 'const base = { className: null, layers: [], strong: true',
    why: 'no rule matches the text "Stryker was here": a header or terminate line is judged by its class alone',
  },
  ...[
    "if (header) return { ...base, className: lastSegment(header[1] ?? '') };",
    "if (thrown) return { ...base, className: lastSegment(thrown[1] ?? '') };",
    "if (what) return { ...base, layers: layersOf(what[1] ?? '') };",
    "const className = exception ? lastSegment(exception[1] ?? '') : '';",
    "layers: layersOf(exception[2] ?? '') };",
  ].map((code) => noShape(N, code)),

  // patterns.ts
  noShape(P, "const body = literal ? (literal[1] ?? '') : source;"),
  noShape(P, "const flags = literal ? (literal[2] ?? '') : '';"),
  ...[
    ['ConditionalExpression', 'if (!(error instanceof RE2JSSyntaxException)) {'],
    ['BlockStatement', 'if (!(error instanceof RE2JSSyntaxException)) {'],
    ['StringLiteral', "return refuse('patternInvalid', error instanceof Error ? error.message : String(error));"],
  ].map(([mutator, code]) => ({
    file: P,
    mutator,
    code,
    why: 're2js throws only RE2JSSyntaxException on a pattern (its ERR_ list): kept so a new error is still worded',
  })),
  ...[
    ['ConditionalExpression', "if (code === 'invalid or unsupported Perl syntax' && /^\\(\\?[=!]/.test(part))"],
    ['Regex', "if (code === 'invalid or unsupported Perl syntax' && /^\\(\\?[=!]/.test(part))"],
    ['ConditionalExpression', "if (code === 'invalid named capture' && /^\\(\\?<[=!]/.test(part))"],
    ['Regex', "if (code === 'invalid named capture' && /^\\(\\?<[=!]/.test(part))"],
    ['ConditionalExpression', "if (code !== 'invalid escape sequence') return null;"],
    ['Regex', "if (/^\\\\[1-9k]/.test(part)) return refuse('patternBackreference');"],
    ['MethodExpression', "if (part.startsWith('\\\\u')) return refuse('patternUnicodeEscape');"],
    ['MethodExpression', "if (part.startsWith('\\\\c')) return refuse('patternControlEscape');"],
  ].map(([mutator, code]) => ({
    file: P,
    mutator,
    code,
    why: "RE2's error input starts at the construct it refused (`(?=`, `(?<=…`, `\\1`, `\\u`): only that error has it",
  })),

  // markers.ts
  {
    file: M,
    mutator: 'ConditionalExpression',
    code: 'if (patterns.length === 0) return null;',
    why: 'cost only: without patterns no line matches; the shortcut skips reading the lines',
  },
  {
    file: M,
    mutator: 'StringLiteral',
    code: "let pattern = '';",
    why: 'set by every line tested before it is read',
  },

  // text.ts
  {
    file: T,
    mutator: 'EqualityOperator',
    code: 'count < MAX_USER_LINES',
    replacement: 'count <= MAX_USER_LINES',
    why: 'cost only: one line more than the bound on the lines a user pattern is run on per output',
  },

  ...['ConditionalExpression', 'EqualityOperator'].map((mutator) => ({
    file: T,
    mutator,
    code: 'if (end > 0 && bounded.charCodeAt(end) === LF && bounded.charCodeAt(end - 1) === CR) end--;',
    replacement: mutator === 'EqualityOperator' ? 'end >= 0' : 'true',
    why: 'at end 0 or below, the character before it is NaN, never a CR: no pair to step over either way',
  })),
  {
    file: G,
    mutator: 'ArithmeticOperator',
    code: 'size: () => items.length - head,',
    why: 'head is above 0 only once the queue is full, where each end drops one and pushes one, too big a size or not',
  },
  {
    file: P,
    mutator: 'StringLiteral',
    code: "return refuse('patternInvalid', part ?",
    replacement: '``',
    why: 'no RE2 error outside the named ones carries an input (nesting too deep, too large, internal): never reached',
  },

  // rules.ts
  {
    file: 'src/detector/rules.ts',
    mutator: 'ConditionalExpression',
    code: 'return c.className !== null && c.indent < MAX_CLASS_INDENT && re.test(c.className);',
    why: 'a null class name is tested as the text "null", which no class rule matches',
  },
  {
    file: T,
    mutator: 'ConditionalExpression',
    code: 'return firstBreak < 0 ? tail : tail.slice(firstBreak + 1);',
    why: 'with no break, firstBreak is -1 and tail.slice(0) is the tail',
  },
];
