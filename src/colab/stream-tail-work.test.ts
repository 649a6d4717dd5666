// @vitest-environment happy-dom
// The work streamTail does, counted: what it hands to tailOf is at most the bound and one character more, however
// long the stream and however many outputs it has (a training run's stream holds megabytes).
import { afterEach, describe, expect, it, vi } from 'vitest';

const handed = vi.hoisted(() => ({ lengths: [] as number[] }));

vi.mock('../detector/text', async (importOriginal) => {
  const real = await importOriginal<typeof import('../detector/text')>();
  return {
    ...real,
    tailOf: (text: string, maxChars: number) => {
      handed.lengths.push(text.length);
      return real.tailOf(text, maxChars);
    },
  };
});

const { streamTail } = await import('./stream-tail');
const { tailOf } = await vi.importActual<typeof import('../detector/text')>('../detector/text');

afterEach(() => {
  handed.lengths.length = 0;
  document.body.innerHTML = '';
});

const pre = (...texts: string[]) => {
  const el = document.createElement('pre');
  el.append(...texts);
  document.body.append(el);
  return el;
};

describe('streamTail reads no more than it keeps', () => {
  it('takes the end of one megabyte-long text node, not the node', () => {
    const line = 'x'.repeat(99);
    const output = pre(`${line}\n`.repeat(10_000));
    expect(streamTail([output], 250)).toBe(`${line}\n${line}\n`);
    expect(handed.lengths).toEqual([251]);
  });

  it('stops at the text nodes it needs, of thousands', () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `step ${i}\n`);
    const output = pre(...lines);
    expect(streamTail([output], 20)).toBe(tailOf(lines.join(''), 20));
    expect(handed.lengths).toEqual([21]);
  });

  it('stops at the outputs it needs, of thousands, a line between two outputs counted', () => {
    const outputs = Array.from({ length: 3000 }, (_, i) => pre(`line ${i}`));
    expect(streamTail(outputs, 20)).toBe('line 2998\nline 2999');
    expect(handed.lengths).toEqual([21]);
  });
});
