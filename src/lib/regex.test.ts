import { describe, expect, it } from 'vitest';
import { joinRegex } from './regex';

describe('joinRegex', () => {
  it('joins the parts in order, alternations included, with the first part flags', () => {
    const re = joinRegex(/^(?:cuda error: )?/i, /(?:out of memory|alloc failed)/);
    expect(re.source).toBe('^(?:cuda error: )?(?:out of memory|alloc failed)');
    expect(re.flags).toBe('i');
    expect(joinRegex(/a|b/, /|c/).test('c')).toBe(true);
  });
});
