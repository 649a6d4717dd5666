import { describe, expect, it } from 'vitest';
import { validatePattern } from './index';
import { compileParts, findMarkerLine } from './markers';
import { hasNestedRepetition, patternParts } from './patterns';

const refusal = (source: string): string => {
  const result = validatePattern(source);
  return result.ok ? '' : result.message;
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
    '\\p{L}+',
    '/\\p{L}+/u',
  ])('accepts %s', (source) => {
    expect(validatePattern(source)).toEqual({ ok: true });
  });

  it('refuses an empty pattern', () => {
    expect(refusal('')).toBe('The pattern is empty.');
    expect(refusal('   ')).toBe('The pattern is empty.');
  });

  it('refuses syntax errors, quoting the reason in plain words', () => {
    expect(refusal('(unclosed')).toBe('This is not a valid regular expression: unterminated group.');
    expect(refusal('*oops')).toBe('This is not a valid regular expression: nothing to repeat.');
    expect(refusal('[a-')).toBe('This is not a valid regular expression: unterminated character class.');
  });

  it('refuses flags other than i, m, s and u', () => {
    expect(refusal('/x/g')).toBe(
      'The flag "g" is not allowed: after the closing slash, use only i, m, s or u, each once.',
    );
    expect(refusal('/x/ii')).toContain('"i" is not allowed');
  });

  it('refuses patterns that match empty text', () => {
    for (const source of ['a*', '^', 'x?', '(?:)', '/$/m']) {
      expect(refusal(source)).toBe(
        'The pattern matches empty text, so it would match every line. Make it require at least one character.',
      );
    }
  });

  it('refuses nested unbounded repeats, saying why', () => {
    for (const source of ['(a+)+', '(a*)*b', '(.*a)*x', '(?:x+y)+', '(a|b+){2,}z', '((a)+)+']) {
      expect(refusal(source)).toBe(
        'A repeat inside a repeat, like (a+)+ or (.*a)*, could take forever on long output. Remove one of the two ' +
          'repeats.',
      );
    }
  });
});

describe('hasNestedRepetition', () => {
  it.each([
    ['(a+)+', true],
    ['(a+)*?', true],
    ['(?:a|b)+', false],
    ['(a+){3}', false],
    ['(a+)?', false],
    ['a+b+c*', false],
    ['\\(a+\\)+', false],
    ['[(a+)]+', false],
    ['[\\]+(]+', false],
    ['(?<n>a+)+', true],
    ['(?=a+)b', false],
    ['x{2,}(y{1,})+', true],
  ] as const)('%s → %s', (source, nested) => {
    expect(hasNestedRepetition(source)).toBe(nested);
  });
});

describe('patternParts and compileParts (the output frame compiles what the service worker validated)', () => {
  it('keeps valid patterns only, and they match in the frame as they do here', () => {
    const parts = patternParts(['^### restart ###$', '/please RESTART/i', '(a+)+', '/x/g', '']);
    expect(parts.map((p) => p.source)).toEqual(['^### restart ###$', '/please RESTART/i']);
    const compiled = compileParts(parts);
    expect(findMarkerLine('step 9\n### restart ###\nbye', compiled)).toEqual({
      pattern: '^### restart ###$',
      line: '### restart ###',
    });
    expect(findMarkerLine('Please restart now', compiled)?.pattern).toBe('/please RESTART/i');
    expect(findMarkerLine('### restart ### and more', compiled)).toBeNull();
  });

  it('skips a part that does not compile instead of failing the frame', () => {
    expect(
      compileParts([
        { source: '(', body: '(', flags: '' },
        { source: 'ok', body: 'ok', flags: '' },
      ]).map((p) => p.source),
    ).toEqual(['ok']);
  });
});
