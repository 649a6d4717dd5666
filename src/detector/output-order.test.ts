import { describe, expect, it } from 'vitest';
import { cameAfter, numbersOrder, PAGE, type Shown } from './output-order';

/** An output of `place`, `index`-th there, numbered `id`, arrived between `from` and `to`. */
const shown = (place: number, index: number | null, id: number | null, from: number, to = from): Shown => ({
  place,
  index,
  id,
  from,
  to,
});

describe('the order of outputs across places', () => {
  it("within one place, the children's order decides, whatever the times and numbers say", () => {
    expect(cameAfter(shown(PAGE, 2, 1, 10), shown(PAGE, 1, 9, 50), true)).toBe(true);
    expect(cameAfter(shown(1, 0, 9, 90), shown(1, 3, 1, 10), true)).toBe(false);
    expect(cameAfter(shown(1, 3, null, 10), shown(1, 3, null, 10), false)).toBe(false);
  });

  it("across places, Colab's numbers decide where they order places, else the times", () => {
    const page = shown(PAGE, 0, 4, 100, 300);
    const frame = shown(1, 0, 3, 200, 250);
    expect(cameAfter(page, frame, true)).toBe(true);
    expect(cameAfter(frame, page, true)).toBe(false);
    // Without numbers the two overlap in time: nothing tells.
    expect(cameAfter(page, frame, false)).toBeNull();
    expect(cameAfter(shown(PAGE, 0, null, 100, 300), frame, true)).toBeNull();
  });

  it('by time: after when it arrived after the other arrived; not after when it was there by then', () => {
    expect(cameAfter(shown(PAGE, 0, null, 251), shown(1, 0, null, 200, 250), false)).toBe(true);
    expect(cameAfter(shown(PAGE, 0, null, 250.5), shown(1, 0, null, 250), false)).toBe(true);
    expect(cameAfter(shown(PAGE, 0, null, 100, 200), shown(1, 0, null, 200, 250), false)).toBe(false);
    expect(cameAfter(shown(PAGE, 0, null, 100, 201), shown(1, 0, null, 200, 250), false)).toBeNull();
  });

  it('numbers order places when each place counts up and no number shows in two places', () => {
    const one = (place: number, index: number | null, id: number | null) => ({ place, index, id });
    // The 2026-03 capture's page shows output-id-3 alone: the frame had 1 and 2.
    expect(numbersOrder([one(PAGE, 0, 3), one(1, 0, 1), one(1, 1, 2), one(1, 2, 4)])).toBe(true);
    // Counted per place, both start at 1.
    expect(numbersOrder([one(PAGE, 0, 1), one(1, 0, 1), one(1, 1, 2)])).toBe(false);
    // Not growing with the order: not Colab's count.
    expect(numbersOrder([one(1, 0, 5), one(1, 1, 2)])).toBe(false);
    expect(numbersOrder([one(1, 1, 2), one(1, 0, 5)])).toBe(false);
    // The same output told twice (an error report and its frame's answer) is one output.
    expect(numbersOrder([one(1, 1, 2), one(1, 1, 2), one(PAGE, 0, 3)])).toBe(true);
    expect(numbersOrder([one(1, 1, 2), one(1, 1, 3)])).toBe(false);
    // Outputs without numbers, or without a known position, leave the rest to decide.
    expect(numbersOrder([one(PAGE, 0, null), one(1, null, 7), one(1, 0, 2), one(PAGE, 1, 3)])).toBe(true);
    expect(numbersOrder([])).toBe(true);
  });
});
