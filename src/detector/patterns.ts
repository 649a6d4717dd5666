/**
 * User patterns. Plain text is compiled exactly as written, with no flags (so matching is case-sensitive). For flags,
 * write a literal: `/pattern/flags`, with flags among i, m, s and u. Patterns run per line, on the newest
 * MAX_USER_LINES lines cut to MAX_USER_LINE_CHARS (see text.ts), and see lines without colour codes.
 */

export type PatternCheck = { ok: true } | { ok: false; message: string };

export interface CompiledPattern {
  /** As the user wrote it. */
  source: string;
  re: RegExp;
}

const LITERAL = /^\/(.+)\/([a-z]*)$/s;
const ALLOWED_FLAGS = 'imsu';

export function validatePattern(source: string): PatternCheck {
  const compiled = compilePattern(source);
  return compiled instanceof RegExp ? { ok: true } : { ok: false, message: compiled };
}

/** Valid patterns only; invalid ones were refused at input and are skipped here. */
export function compilePatterns(sources: readonly string[]): CompiledPattern[] {
  return sources.flatMap((source) => {
    const re = compilePattern(source);
    return re instanceof RegExp ? [{ source, re }] : [];
  });
}

/** A valid pattern as RegExp source and flags: what a context compiles without carrying this validator. */
export interface PatternParts {
  source: string;
  body: string;
  flags: string;
}

export function patternParts(sources: readonly string[]): PatternParts[] {
  return compilePatterns(sources).map(({ source, re }) => ({ source, body: re.source, flags: re.flags }));
}

/** The compiled pattern, or a message saying in plain words why it is refused. */
function compilePattern(source: string): RegExp | string {
  if (source.trim() === '') return 'The pattern is empty.';
  const literal = LITERAL.exec(source);
  const body = literal ? (literal[1] ?? '') : source;
  const flags = literal ? (literal[2] ?? '') : '';
  const badFlag = [...flags].find((flag, i) => !ALLOWED_FLAGS.includes(flag) || flags.indexOf(flag) !== i);
  if (badFlag !== undefined) {
    return `The flag "${badFlag}" is not allowed: after the closing slash, use only i, m, s or u, each once.`;
  }
  let re: RegExp;
  try {
    re = new RegExp(body, flags);
  } catch (error) {
    return `This is not a valid regular expression: ${syntaxReason(error)}.`;
  }
  if (hasNestedRepetition(body)) {
    return (
      'A repeat inside a repeat, like (a+)+ or (.*a)*, could take forever on long output. Remove one of the ' +
      'two repeats.'
    );
  }
  if (re.test('')) {
    return 'The pattern matches empty text, so it would match every line. Make it require at least one character.';
  }
  return re;
}

/** V8 says `Invalid regular expression: /(/: Unterminated group`; the part after the pattern is the plain reason. */
function syntaxReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const reason = message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '');
  return reason.charAt(0).toLowerCase() + reason.slice(1);
}

interface Quantifier {
  length: number;
  unbounded: boolean;
}

const NO_QUANTIFIER: Quantifier = { length: 0, unbounded: false };

/**
 * A simple star-height check: an unbounded repeat (`*`, `+`, `{n,}`) applied to a group that itself contains an
 * unbounded repeat, e.g. `(a+)+`, `(a*)*`, `(.*a)*`. Such patterns can backtrack exponentially. It also refuses some
 * safe ones like `(\d+\.)+`; those can be written without the nesting.
 */
export function hasNestedRepetition(source: string): boolean {
  // One entry per open group, the outermost being the whole pattern: does it contain an unbounded repeat?
  const groups: boolean[] = [false];
  let i = 0;
  while (i < source.length) {
    const ch = source[i];
    if (ch === '\\') {
      i += 2;
    } else if (ch === '[') {
      i = afterClass(source, i);
    } else if (ch === '(') {
      groups.push(false);
      i = afterGroupHeader(source, i + 1);
    } else if (ch === ')' && groups.length > 1) {
      const inner = groups.pop() === true;
      const repeat = quantifierAt(source, i + 1);
      if (inner && repeat.unbounded) return true;
      if (inner || repeat.unbounded) groups[groups.length - 1] = true;
      i += 1 + repeat.length;
    } else {
      const repeat = quantifierAt(source, i);
      if (repeat.unbounded) groups[groups.length - 1] = true;
      i += Math.max(1, repeat.length);
    }
  }
  return false;
}

function quantifierAt(source: string, i: number): Quantifier {
  const ch = source[i];
  const lazy = source[i + 1] === '?' ? 1 : 0;
  if (ch === '*' || ch === '+') return { length: 1 + lazy, unbounded: true };
  if (ch === '?') return { length: 1 + lazy, unbounded: false };
  const braces = /^\{(\d+)(,(\d*))?\}\??/.exec(source.slice(i, i + 24));
  if (!braces) return NO_QUANTIFIER;
  return { length: braces[0].length, unbounded: braces[2] !== undefined && braces[3] === '' };
}

/** Past a character class; a `]` right after `[` or `[^` closes it in JavaScript. */
function afterClass(source: string, open: number): number {
  let i = open + 1;
  if (source[i] === '^') i++;
  while (i < source.length) {
    if (source[i] === '\\') i += 2;
    else if (source[i] === ']') return i + 1;
    else i++;
  }
  return i;
}

/** Past `?:`, `?=`, `?!`, `?<=`, `?<!` or `?<name>`, so their `?` is not read as a quantifier. */
function afterGroupHeader(source: string, i: number): number {
  if (source[i] !== '?') return i;
  const next = source[i + 1];
  if (next === ':' || next === '=' || next === '!') return i + 2;
  if (next !== '<') return i + 1;
  const after = source[i + 2];
  if (after === '=' || after === '!') return i + 3;
  const close = source.indexOf('>', i);
  return close < 0 ? source.length : close + 1;
}
