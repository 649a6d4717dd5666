import { describe, expect, it } from 'vitest';
import { DAY_MS, megabytes, secondsUntil } from './units';

describe('units', () => {
  it('a day is 86,400,000 ms', () => {
    expect(DAY_MS).toBe(86_400_000);
  });

  it('counts whole seconds left, rounded up, never below zero', () => {
    expect(secondsUntil(10_000, 5_000)).toBe(5);
    expect(secondsUntil(10_000, 9_999)).toBe(1);
    expect(secondsUntil(10_000, 10_000)).toBe(0);
    expect(secondsUntil(10_000, 12_000)).toBe(0);
  });

  it('says bytes in megabytes of 1,000,000 bytes, one decimal', () => {
    expect(megabytes(20_000_000)).toBe('20.0');
    expect(megabytes(10 * 1024 * 1024)).toBe('10.5');
    expect(megabytes(0)).toBe('0.0');
  });
});
