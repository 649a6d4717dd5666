import { describe, expect, it } from 'vitest';
import { configWith } from '../../test/support/detector-configs';
import { getMessage } from '../../test/support/messages';
import { MAX_USER_LINE_CHARS, MAX_USER_LINES } from '../limits';
import { createDetector } from './index';
import * as engine from './patterns';
import { compilePatterns, type Refusal, type RefusalKey, refusedPattern, validatePattern } from './patterns';

/** README: "a pattern may compile to at most 400 RE2 steps". */
const MAX_PATTERN_PROGRAM = 400;

const refusal = (source: string): Refusal | null => {
  const result = validatePattern(source);
  return result.ok ? null : result.refusal;
};

const refused = (key: RefusalKey, ...subs: string[]): Refusal => ({ key, subs });

/** The refusal as the options page says it in English. */
const inWords = (source: string): string => {
  const reason = refusal(source);
  return reason ? getMessage(reason.key, reason.subs) : '';
};

describe('validatePattern', () => {
  it.each([
    'Trainer stalled',
    '^@@RESTART@@$',
    'loss=nan',
    '/nan loss/i',
    '/^step \\d+ failed$/m',
    '(?:CUDA|HIP) error',
    '[(]x[)]+',
    'a{2,5}b',
    '(?<name>x)+y',
    '(?P<name>x)+y',
    '\\p{L}+',
    '/\\p{L}+/u',
    '(?i)cuda error',
    'caf\\x{e9}',
    'a\\/b',
  ])('accepts %s', (source) => {
    expect(validatePattern(source)).toEqual({ ok: true });
  });

  // The backtracking engine used before took seconds to minutes on these; RE2 runs them in linear time.
  it.each(['(a+)+', '(a|aa)+$', '(\\w|\\d)+$', '(a+){2,60}$', '(.*?,){11}P', '.*.*.*x', '(\\d+\\.)+\\d'])(
    'accepts %s, which a backtracking engine could not run safely',
    (source) => {
      expect(validatePattern(source)).toEqual({ ok: true });
    },
  );

  it('refuses an empty pattern', () => {
    expect(refusal('')).toEqual(refused('patternEmpty'));
    expect(refusal('   ')).toEqual(refused('patternEmpty'));
  });

  it('refuses syntax errors, naming the piece RE2 stopped at', () => {
    expect(refusal('(unclosed')).toEqual(refused('patternUnclosedGroup'));
    expect(refusal('oops)')).toEqual(refused('patternUnopenedGroup'));
    expect(refusal('*oops')).toEqual(refused('patternNothingToRepeat', '*'));
    expect(refusal('[a-')).toEqual(refused('patternUnclosedClass'));
    expect(refusal('[z-a]')).toEqual(refused('patternBadRange', 'z-a'));
    expect(refusal('a++')).toEqual(refused('patternNestedRepeat', '++'));
    expect(refusal('x\\')).toEqual(refused('patternTrailingBackslash'));
    expect(refusal('\\Z')).toEqual(refused('patternBadEscape', '\\Z'));
    expect(refusal('(?x)a')).toEqual(refused('patternBadPerl', '(?x'));
    expect(refusal('(?P<a-b>x)')).toEqual(refused('patternBadGroupName'));
    expect(refusal('(?P<n>x)(?P<n>y)')).toEqual(refused('patternDuplicateName', 'n'));
  });

  it('refuses JavaScript syntax that RE2 leaves out, saying what to write instead', () => {
    for (const source of ['(?=x)y', 'y(?!x)']) expect(refusal(source)).toEqual(refused('patternLookahead'));
    for (const source of ['(?<=x)y', '(?<!x)y']) expect(refusal(source)).toEqual(refused('patternLookbehind'));
    for (const source of ['(a)\\1', '(?<n>a)\\k<n>']) expect(refusal(source)).toEqual(refused('patternBackreference'));
    expect(refusal('caf\\u00e9')).toEqual(refused('patternUnicodeEscape'));
    expect(refusal('\\cA')).toEqual(refused('patternControlEscape'));
  });

  it('refuses repeat counts over 1000, nested ones multiplied', () => {
    expect(refusal('a{1001}')).toEqual(refused('patternRepeatCount', '{1001}'));
    expect(refusal('(a{100}){100}')?.key).toBe('patternRepeatCount');
  });

  it(`refuses a pattern that compiles to more than ${MAX_PATTERN_PROGRAM} steps`, () => {
    // \p{L}{n}\d compiles to n + 3 instructions.
    const at = MAX_PATTERN_PROGRAM - 3;
    expect(validatePattern(`\\p{L}{${at}}\\d`)).toEqual({ ok: true });
    expect(refusal(`\\p{L}{${at + 1}}\\d`)).toEqual(
      refused('patternTooBig', String(MAX_PATTERN_PROGRAM + 1), String(MAX_PATTERN_PROGRAM)),
    );
    expect(refusal('.{0,300}x')?.key).toBe('patternTooBig');
  });

  it('refuses flags other than i, m, s and u', () => {
    expect(refusal('/x/g')).toEqual(refused('patternBadFlag', 'g'));
    expect(refusal('/x/ii')).toEqual(refused('patternBadFlag', 'i'));
  });

  it('refuses patterns that match empty text', () => {
    for (const source of ['a*', '^', 'x?', '(?:)', '/$/m', '\\z', '(?i)']) {
      expect(refusal(source)).toEqual(refused('patternMatchesEmpty'));
    }
  });

  it('says each refusal in plain words (English messages)', () => {
    expect(inWords('')).toBe('The pattern is empty.');
    expect(inWords('(unclosed')).toBe('This is not a valid regular expression: a ( has no matching ).');
    expect(inWords('*oops')).toBe('This is not a valid regular expression: * has nothing before it to repeat.');
    expect(inWords('a++')).toBe(
      'This is not a valid regular expression: ++ repeats a repeat (write a+, not a++ or a**).',
    );
    expect(inWords('x\\')).toBe('This is not a valid regular expression: it ends with a lone \\.');
    expect(inWords('(?=x)y')).toMatch(/^Lookahead like \(\?=…\) or \(\?!…\) is not supported: RE2 leaves it out/);
    expect(inWords('caf\\u00e9')).toBe('Write a Unicode character as \\x{00e9}, not \\u00e9 or \\u{e9}.');
    expect(inWords(`\\p{L}{${MAX_PATTERN_PROGRAM - 2}}\\d`)).toBe(
      `The pattern is too big to run quickly on long output (${MAX_PATTERN_PROGRAM + 1} steps; at most ` +
        `${MAX_PATTERN_PROGRAM}). Large repeat counts like {300} or .{0,200} make it big: use smaller ones.`,
    );
    expect(inWords('/x/g')).toBe(
      'The flag "g" is not allowed: after the closing slash, use only i, m, s or u, each once.',
    );
    expect(inWords('a*')).toBe(
      'The pattern matches empty text, so it would match every line. Make it require at least one character.',
    );
  });
});

describe('compilePatterns', () => {
  it('applies the flags of a /literal/ and keeps plain text case-sensitive', () => {
    const [plain, folded, dotAll] = compilePatterns(['nan loss', '/nan loss/i', '/a.b/s']);
    expect(plain?.test('NaN loss')).toBe(false);
    expect(folded?.test('NaN loss')).toBe(true);
    expect(dotAll?.test('a\nb')).toBe(true);
  });

  it('skips patterns the check refuses, keeping the others in order', () => {
    expect(compilePatterns(['(', 'ok', '(?=x)', '', 'fine']).map((p) => p.source)).toEqual(['ok', 'fine']);
  });
});

describe('refusedPattern (imports)', () => {
  it('names the first refused pattern by its path in the settings', () => {
    expect(refusedPattern({ failurePatterns: ['ok'], markerPatterns: ['fine', '(?=x)'] })).toEqual({
      path: 'markerPatterns.1',
      refusal: refused('patternLookahead'),
    });
    expect(refusedPattern({ failurePatterns: ['ok', '(a|aa)+$'], markerPatterns: [] })).toBeNull();
  });
});

/**
 * Patterns that make a backtracking engine slow, timed in V8 on one short line at 4 s to over 30 s each, on lines
 * built to make such an engine fail slowly, at the detector's bounds. These assert the verdicts: were matching not
 * linear, the run would not end.
 */
describe('hostile patterns on hostile output', () => {
  const full = (line: string): string => Array.from({ length: MAX_USER_LINES }, () => line).join('\n');
  const cut = (text: string): string => text.repeat(MAX_USER_LINE_CHARS).slice(0, MAX_USER_LINE_CHARS);
  const cases: Array<{ pattern: string; miss: string; hit: string }> = [
    { pattern: '(a|aa)+$', miss: `${cut('a').slice(1)}!`, hit: cut('a') },
    { pattern: '(\\w|\\d)+$', miss: `${cut('a1').slice(1)}!`, hit: `${cut('!').slice(1)}a` },
    { pattern: '(a+){2,60}$', miss: `${cut('a').slice(1)}!`, hit: `${cut('!').slice(2)}aa` },
    { pattern: '(.*?,){11}P', miss: `P${cut(',').slice(1)}`, hit: `${cut(',').slice(1)}P` },
    { pattern: '.*.*.*x', miss: cut('y'), hit: `${cut('y').slice(1)}x` },
    { pattern: '(x+x+)+y', miss: `y${cut('x').slice(1)}`, hit: `${cut('x').slice(1)}y` },
    // The largest program allowed, of the form measured slowest for RE2.
    {
      pattern: `\\p{L}{${MAX_PATTERN_PROGRAM - 3}}\\d`,
      miss: `${cut('é').slice(1)}!`,
      hit: `${cut('é').slice(1)}1`,
    },
  ];

  it.each(cases)('$pattern as a failure and a marker pattern', ({ pattern, miss, hit }) => {
    const detector = createDetector(configWith({}, { failurePatterns: [pattern], markerPatterns: [pattern] }), engine);
    for (const line of [miss, hit]) expect(line).toHaveLength(MAX_USER_LINE_CHARS);
    const hostile = full(miss);
    expect(detector.classifyError(hostile)).toBeNull();
    expect(detector.findMarker(hostile)).toBeNull();
    // Short lines: all MAX_USER_LINES of them are read.
    expect(detector.findMarker(full(miss.slice(-30)))).toBeNull();
    expect(detector.classifyError(`${hostile}\n${hit}`)?.rule).toBe(`custom:${pattern}`);
    expect(detector.findMarker(`${hit}\n${hostile}`)).toBeNull(); // older than the newest 2,000 lines
    expect(detector.findMarker(`${hostile}\n${hit}`)?.pattern).toBe(pattern);
  });
});

describe('validatePattern: an RE2 error the refusals do not name', () => {
  it("is refused in RE2's own words", () => {
    const deep = `${'('.repeat(1001)}a${')'.repeat(1001)}`;
    expect(refusal(deep)).toEqual(refused('patternInvalid', 'expression nests too deeply'));
  });
});

describe('compilePatterns: a pattern that only contains slashes is plain text', () => {
  it('a path that does not start with a slash is matched as written', () => {
    const [pattern] = compilePatterns(['saved to /content/out/']);
    expect(pattern?.test('checkpoint saved to /content/out/')).toBe(true);
    expect(pattern?.test('written to /content/out/')).toBe(false);
  });

  it('a path with a dot after its last slash is no `/pattern/flags` literal', () => {
    expect(validatePattern('/content/train.log')).toEqual({ ok: true });
    expect(compilePatterns(['/content/train.log'])[0]?.test('tail /content/train.log')).toBe(true);
  });
});
