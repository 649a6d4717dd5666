import { RE2JS, RE2JSSyntaxException } from 're2js';
import { MAX_PATTERN_PROGRAM } from '../limits';
import type { CompiledPattern } from './markers';

/**
 * Users' patterns, in RE2 syntax, run by re2js (a JavaScript port of RE2): matching takes time linear in the line
 * whatever the pattern, where a backtracking engine took 56 s on one 41-character line with `(a|aa)+$`. The only
 * module that imports the engine: contexts without patterns never load it (see `loadDetector`).
 *
 * Plain text is compiled exactly as written, with no flags (so matching is case-sensitive). For flags, write a
 * literal: `/pattern/flags`, with flags among i, m and s (u is accepted for patterns written for earlier versions and
 * changes nothing: RE2 always matches by Unicode character), or RE2's inline `(?i)`. Patterns run per line, on the
 * newest MAX_USER_LINES lines cut to MAX_USER_LINE_CHARS (see text.ts), and see lines without colour codes.
 */

export type PatternCheck = { ok: true } | { ok: false; message: string };

const LITERAL = /^\/(.+)\/([a-z]*)$/s;
const FLAG_BITS: Readonly<Record<string, number>> = {
  i: RE2JS.CASE_INSENSITIVE,
  m: RE2JS.MULTILINE,
  s: RE2JS.DOTALL,
  u: 0,
};

export function validatePattern(source: string): PatternCheck {
  const compiled = compilePattern(source);
  return typeof compiled === 'string' ? { ok: false, message: compiled } : { ok: true };
}

/** Valid patterns only: invalid ones were refused at input, or are shown as not in use on the options page. */
export function compilePatterns(sources: readonly string[]): CompiledPattern[] {
  return sources.flatMap((source) => {
    const re = compilePattern(source);
    return typeof re === 'string' ? [] : [{ source, test: (line: string) => re.test(line) }];
  });
}

/** The first pattern of imported settings that `validatePattern` refuses, with its path in the settings. */
export function refusedPattern(settings: {
  failurePatterns: readonly string[];
  markerPatterns: readonly string[];
}): { path: string; message: string } | null {
  for (const list of ['failurePatterns', 'markerPatterns'] as const) {
    for (const [index, source] of settings[list].entries()) {
      const check = validatePattern(source);
      if (!check.ok) return { path: `${list}.${index}`, message: check.message };
    }
  }
  return null;
}

/** The compiled pattern, or a message saying in plain words why it is refused. */
function compilePattern(source: string): RE2JS | string {
  if (source.trim() === '') return 'The pattern is empty.';
  const literal = LITERAL.exec(source);
  const body = literal ? (literal[1] ?? '') : source;
  const flags = literal ? (literal[2] ?? '') : '';
  const badFlag = [...flags].find((flag, i) => !(flag in FLAG_BITS) || flags.indexOf(flag) !== i);
  if (badFlag !== undefined) {
    return `The flag "${badFlag}" is not allowed: after the closing slash, use only i, m, s or u, each once.`;
  }
  let re: RE2JS;
  try {
    re = RE2JS.compile(
      body,
      [...flags].reduce((bits, flag) => bits | (FLAG_BITS[flag] ?? 0), 0),
    );
  } catch (error) {
    return refusalOf(error);
  }
  const size = re.matcher('').programSize();
  if (size > MAX_PATTERN_PROGRAM) {
    return (
      `The pattern is too big to run quickly on long output (${size} steps; at most ${MAX_PATTERN_PROGRAM}). ` +
      'Large repeat counts like {300} or .{0,200} make it big: use smaller ones.'
    );
  }
  if (re.test('')) {
    return 'The pattern matches empty text, so it would match every line. Make it require at least one character.';
  }
  return re;
}

function refusalOf(error: unknown): string {
  if (!(error instanceof RE2JSSyntaxException)) {
    return `This is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}.`;
  }
  const part = error.input ?? '';
  const reason = unsupported(error.error, part);
  return reason ?? `This is not a valid regular expression: ${syntaxReason(error.error, part)}.`;
}

/** JavaScript syntax RE2 leaves out, each with what to write instead. */
function unsupported(code: string, part: string): string | null {
  const why = 'RE2 leaves it out to keep matching fast on any output';
  if (code === 'invalid or unsupported Perl syntax' && /^\(\?[=!]/.test(part)) {
    return `Lookahead like (?=…) or (?!…) is not supported: ${why}. Match the text itself instead.`;
  }
  if (code === 'invalid named capture' && /^\(\?<[=!]/.test(part)) {
    return `Lookbehind like (?<=…) or (?<!…) is not supported: ${why}. Match the text itself instead.`;
  }
  if (code !== 'invalid escape sequence') return null;
  if (/^\\[1-9k]/.test(part)) {
    return `Backreferences like \\1 or \\k<name> are not supported: ${why}. Write the repeated text out instead.`;
  }
  if (part.startsWith('\\u')) return 'Write a Unicode character as \\x{00e9}, not \\u00e9 or \\u{e9}.';
  if (part.startsWith('\\c')) return 'Write a control character as \\x{01}, not \\cA.';
  return null;
}

/** RE2's parse errors (Go's wording) in plain words; `part` is the piece of the pattern RE2 stopped at. */
function syntaxReason(code: string, part: string): string {
  switch (code) {
    case 'missing closing )':
      return 'a ( has no matching )';
    case 'unexpected )':
      return 'a ) has no matching (';
    case 'missing closing ]':
      return 'a [ has no matching ] (to match any character including line breaks, write (?s:.))';
    case 'missing argument to repetition operator':
      return `${part} has nothing before it to repeat`;
    case 'invalid nested repetition operator':
      return `${part} repeats a repeat (write a+, not a++ or a**)`;
    case 'invalid repeat count':
      return `${part}: a repeat count is at most 1000, counts inside counts multiplied`;
    case 'invalid character class range':
      return `${part} is not a range from a lower to a higher character`;
    case 'trailing backslash at end of expression':
      return 'it ends with a lone \\';
    case 'invalid escape sequence':
      return `${part} is not an escape RE2 knows (escape punctuation like \\. or \\(, or write \\x{41})`;
    case 'invalid or unsupported Perl syntax':
      return `${part} is not RE2 syntax (inline flags are written like (?i) or (?s:…))`;
    case 'invalid named capture':
      return 'a group name is letters, digits and _, as in (?P<name>…) or (?<name>…)';
    case 'duplicate capture group name':
      return `the group name ${part} is used twice`;
    default:
      return part ? `${code}: ${part}` : code;
  }
}
