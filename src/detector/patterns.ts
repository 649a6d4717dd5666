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

/**
 * Why a pattern is refused, as data: the `_locales` message key and its substitutions. The detector has no browser
 * API, so the UI layer says it in the user's language (`t(key, ...subs)`).
 */
export interface Refusal {
  key: RefusalKey;
  subs: string[];
}

export type RefusalKey =
  | 'patternEmpty'
  | 'patternBadFlag'
  | 'patternTooBig'
  | 'patternMatchesEmpty'
  | 'patternInvalid'
  | 'patternLookahead'
  | 'patternLookbehind'
  | 'patternBackreference'
  | 'patternUnicodeEscape'
  | 'patternControlEscape'
  | 'patternUnclosedGroup'
  | 'patternUnopenedGroup'
  | 'patternUnclosedClass'
  | 'patternNothingToRepeat'
  | 'patternNestedRepeat'
  | 'patternRepeatCount'
  | 'patternBadRange'
  | 'patternTrailingBackslash'
  | 'patternBadEscape'
  | 'patternBadPerl'
  | 'patternBadGroupName'
  | 'patternDuplicateName';

export type PatternCheck = { ok: true } | { ok: false; refusal: Refusal };

const refuse = (key: RefusalKey, ...subs: (string | number)[]): Refusal => ({ key, subs: subs.map(String) });

const LITERAL = /^\/(.+)\/([a-z]*)$/s;
const FLAG_BITS: Readonly<Record<string, number>> = {
  i: RE2JS.CASE_INSENSITIVE,
  m: RE2JS.MULTILINE,
  s: RE2JS.DOTALL,
  u: 0,
};

export function validatePattern(source: string): PatternCheck {
  const compiled = compilePattern(source);
  return compiled instanceof RE2JS ? { ok: true } : { ok: false, refusal: compiled };
}

/** Valid patterns only: invalid ones were refused at input, or are shown as not in use on the options page. */
export function compilePatterns(sources: readonly string[]): CompiledPattern[] {
  return sources.flatMap((source) => {
    const re = compilePattern(source);
    return re instanceof RE2JS ? [{ source, test: (line: string) => re.test(line) }] : [];
  });
}

/** The first pattern of imported settings that `validatePattern` refuses, with its path in the settings. */
export function refusedPattern(settings: {
  failurePatterns: readonly string[];
  markerPatterns: readonly string[];
}): { path: string; refusal: Refusal } | null {
  for (const list of ['failurePatterns', 'markerPatterns'] as const) {
    for (const [index, source] of settings[list].entries()) {
      const check = validatePattern(source);
      if (!check.ok) return { path: `${list}.${index}`, refusal: check.refusal };
    }
  }
  return null;
}

/** The compiled pattern, or why it is refused. */
function compilePattern(source: string): RE2JS | Refusal {
  if (source.trim() === '') return refuse('patternEmpty');
  const literal = LITERAL.exec(source);
  const body = literal ? (literal[1] ?? '') : source;
  const flags = literal ? (literal[2] ?? '') : '';
  const badFlag = [...flags].find((flag, i) => !(flag in FLAG_BITS) || flags.indexOf(flag) !== i);
  if (badFlag !== undefined) return refuse('patternBadFlag', badFlag);
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
  if (size > MAX_PATTERN_PROGRAM) return refuse('patternTooBig', size, MAX_PATTERN_PROGRAM);
  if (re.test('')) return refuse('patternMatchesEmpty');
  return re;
}

function refusalOf(error: unknown): Refusal {
  if (!(error instanceof RE2JSSyntaxException)) {
    return refuse('patternInvalid', error instanceof Error ? error.message : String(error));
  }
  const part = error.input ?? '';
  return unsupported(error.error, part) ?? syntaxReason(error.error, part);
}

/** JavaScript syntax RE2 leaves out (to keep matching fast on any output), each with what to write instead. */
function unsupported(code: string, part: string): Refusal | null {
  if (code === 'invalid or unsupported Perl syntax' && /^\(\?[=!]/.test(part)) return refuse('patternLookahead');
  if (code === 'invalid named capture' && /^\(\?<[=!]/.test(part)) return refuse('patternLookbehind');
  if (code !== 'invalid escape sequence') return null;
  if (/^\\[1-9k]/.test(part)) return refuse('patternBackreference');
  if (part.startsWith('\\u')) return refuse('patternUnicodeEscape');
  if (part.startsWith('\\c')) return refuse('patternControlEscape');
  return null;
}

/** RE2's parse errors (Go's wording) in plain words; `part` is the piece of the pattern RE2 stopped at. */
function syntaxReason(code: string, part: string): Refusal {
  switch (code) {
    case 'missing closing )':
      return refuse('patternUnclosedGroup');
    case 'unexpected )':
      return refuse('patternUnopenedGroup');
    case 'missing closing ]':
      return refuse('patternUnclosedClass');
    case 'missing argument to repetition operator':
      return refuse('patternNothingToRepeat', part);
    case 'invalid nested repetition operator':
      return refuse('patternNestedRepeat', part);
    case 'invalid repeat count':
      return refuse('patternRepeatCount', part);
    case 'invalid character class range':
      return refuse('patternBadRange', part);
    case 'trailing backslash at end of expression':
      return refuse('patternTrailingBackslash');
    case 'invalid escape sequence':
      return refuse('patternBadEscape', part);
    case 'invalid or unsupported Perl syntax':
      return refuse('patternBadPerl', part);
    case 'invalid named capture':
      return refuse('patternBadGroupName');
    case 'duplicate capture group name':
      return refuse('patternDuplicateName', part);
    default:
      // RE2's own words: rare errors this list does not know.
      return refuse('patternInvalid', part ? `${code}: ${part}` : code);
  }
}
