import { describe, expect, it } from 'vitest';
import { findRecentLine, limit, tailOf } from './text';

describe('tailOf', () => {
  it('reads a text within the bound whole, and cuts a longer one after a line break', () => {
    expect(tailOf('ab\ncd', 5)).toBe('ab\ncd');
    expect(tailOf('ab\ncd', 4)).toBe('cd');
  });
});

describe('limit', () => {
  it('leaves a text as long as the longest cut alone; a cut ends in an ellipsis', () => {
    const cut = limit('x'.repeat(10_000));
    expect(cut.endsWith('…')).toBe(true);
    const longest = 'x'.repeat(cut.length);
    expect(limit(longest)).toBe(longest);
  });
});

describe('findRecentLine', () => {
  /** The lines offered to the test, newest first: each line of the text once. */
  const offered = (text: string): string[] => {
    const seen: string[] = [];
    findRecentLine(text, (line) => {
      seen.push(line);
      return false;
    });
    return seen;
  };

  it('offers each line once, newest first: a CRLF pair is one break, a lone CR or LF one each', () => {
    expect(offered('a\r\nb\r\nc')).toEqual(['c', 'b', 'a']);
    expect(offered('a\nb\rc')).toEqual(['c', 'b', 'a']);
    expect(offered('a\n\rb')).toEqual(['b', '', 'a']);
    expect(offered('a\r\rb')).toEqual(['b', '', 'a']);
    expect(offered('\r\nb')).toEqual(['b', '']);
  });

  it("offers a user's pattern the newest 2000 lines of an output, not one more", () => {
    const lines = Array.from({ length: 2001 }, (_, i) => `line ${i}`);
    const seen = offered(lines.join('\n'));
    expect(seen).toHaveLength(2000);
    expect(seen.at(-1)).toBe('line 1');
    expect(findRecentLine(lines.join('\n'), (line) => line === 'line 0')).toBeNull();
  });
});
