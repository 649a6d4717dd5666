import { describe, expect, it } from 'vitest';
import { checkSizes, EXCEPTIONS, lineCount, repositoryFiles } from './check-sizes.mjs';

const lines = (n) => 'x\n'.repeat(n);

describe("the repository's product files", () => {
  it('are at most 400 lines each, but the known exceptions, each still over', () => {
    const { problems, known } = checkSizes(repositoryFiles());
    expect(problems).toEqual([]);
    expect(known.map((entry) => entry.file).sort()).toEqual(Object.keys(EXCEPTIONS).sort());
  });
});

describe('checkSizes', () => {
  it('refuses a product file over 400 lines and lets one of exactly 400 pass', () => {
    const { problems } = checkSizes({ 'src/state/big.ts': lines(401), 'src/state/fits.ts': lines(400) }, {});
    expect(problems).toEqual(['src/state/big.ts: 401 lines, more than 400: split it along its own sections']);
  });

  it('leaves tests and files outside src/ alone', () => {
    const files = {
      'src/state/big.test.ts': lines(900),
      'src/popup/Popup.test.tsx': lines(900),
      'e2e/a.ts': lines(900),
    };
    expect(checkSizes(files, {})).toEqual({ problems: [], known: [] });
  });

  it('reports an exception in use as known, and fails one that fits or names no file', () => {
    const exceptions = { 'src/a.ts': 'not split yet', 'src/b.ts': 'split since', 'src/gone.ts': 'moved' };
    const { problems, known } = checkSizes({ 'src/a.ts': lines(450), 'src/b.ts': lines(12) }, exceptions);
    expect(known).toEqual([{ file: 'src/a.ts', lines: 450, why: 'not split yet' }]);
    expect(problems).toEqual([
      'src/b.ts is an exception but fits in 400 lines: remove it from EXCEPTIONS',
      'src/gone.ts is an exception but no such file: remove it from EXCEPTIONS',
    ]);
  });
});

describe('lineCount', () => {
  it('counts lines as an editor numbers them', () => {
    expect(lineCount('')).toBe(0);
    expect(lineCount('a')).toBe(1);
    expect(lineCount('a\n')).toBe(1);
    expect(lineCount('a\nb')).toBe(2);
    expect(lineCount('a\n\n')).toBe(2);
  });
});
