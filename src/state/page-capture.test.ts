import { describe, expect, it } from 'vitest';
import { keepCapture, type PageCapture, validCaptures } from './page-capture';

const capture = (at: number, nodes = [{ tag: 'mwc-dialog' }]): PageCapture => ({
  v: 1,
  kind: 'dialog',
  occasion: 'restart',
  at,
  language: 'en',
  nodes,
});

describe("the page's captures", () => {
  it('keeps the last 8, oldest dropped first', () => {
    let list: PageCapture[] = [];
    for (let at = 1; at <= 10; at++) list = keepCapture(list, capture(at));
    expect(list.map((c) => c.at)).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('keeps 64 KiB of them at most, the newest always', () => {
    const big = (at: number) =>
      capture(
        at,
        Array.from({ length: 300 }, () => ({ tag: 'x'.repeat(90) })),
      );
    let list: PageCapture[] = [];
    for (let at = 1; at <= 4; at++) list = keepCapture(list, big(at));
    expect(list.map((c) => c.at)).toEqual([3, 4]);
    expect(JSON.stringify(list).length).toBeLessThanOrEqual(64 * 1024);
    const huge = capture(
      5,
      Array.from({ length: 300 }, () => ({ tag: 'x'.repeat(100), text: 'y'.repeat(80) })),
    );
    expect(keepCapture(list, huge).map((c) => c.at)).toEqual([5]);
  });

  it('takes from a page only what is a capture: others dropped, a reply without any read as none', () => {
    expect(validCaptures(undefined)).toEqual([]);
    expect(validCaptures('x')).toEqual([]);
    const odd = [
      { ...capture(1), kind: 'cell' },
      { ...capture(2), v: 2 },
      { ...capture(3), nodes: [{ tag: 'a', text: 'z'.repeat(81) }] },
      { ...capture(4), nodes: [{ tag: 'a', attrs: { id: 3 } }] },
    ];
    expect(validCaptures([capture(0), ...odd, capture(5)]).map((c) => c.at)).toEqual([0, 5]);
  });
});
