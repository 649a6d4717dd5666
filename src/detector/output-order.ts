/**
 * The order of an execution's outputs, by evidence (REFERENCE §4.2, §11.4): Colab shows plain stdout in the page's
 * static renderer and rich outputs and tracebacks in the cell's output frame, so one run's outputs are spread over
 * places. Within one place the children's order is exact. Across places there are Colab's numbers (`output-id-N`:
 * one count per output area across the page and its frames, as far as the captures show; used only where they are
 * consistent) and the times the outputs arrived: exact for one the page or a watched, settled frame saw arrive; for one
 * a frame showed while it loaded, any time between the frame's making and that first look.
 */

/** Where an output showed: the page's renderer, or output frame n (n > 0, numbered by the page). */
export const PAGE = 0;

export interface Shown {
  /** PAGE, or the output frame's number. */
  place: number;
  /** Its position among its place's outputs; null when not known. */
  index: number | null;
  /** Colab's number (`output-id-N`), when it carries one. */
  id: number | null;
  /** It arrived no earlier than `from` and no later than `to` (the same when known exactly). */
  from: number;
  to: number;
}

/** One output's number at its position in its place: what tells whether Colab's numbers order places. */
export interface Numbered {
  place: number;
  index: number | null;
  id: number | null;
}

/**
 * Whether Colab's numbers order outputs across places: in each place they grow with the children's order, and no
 * number shows in two places (numbers counted per place would start again in each).
 */
export function numbersOrder(outputs: readonly Numbered[]): boolean {
  const placeOf = new Map<number, number>();
  const byPlace = new Map<number, Array<{ index: number; id: number }>>();
  for (const { place, index, id } of outputs) {
    if (id === null) continue;
    if ((placeOf.get(id) ?? place) !== place) return false;
    placeOf.set(id, place);
    if (index === null) continue;
    const list = byPlace.get(place) ?? [];
    list.push({ index, id });
    byPlace.set(place, list);
  }
  for (const list of byPlace.values()) {
    list.sort((a, b) => a.index - b.index);
    let before: { index: number; id: number } | undefined;
    for (const now of list) {
      if (before && (before.index === now.index ? before.id !== now.id : before.id >= now.id)) return false;
      before = now;
    }
  }
  return true;
}

/**
 * Whether `a` came after `b`: by their place's order, else by Colab's numbers (`numbered`: they order places here),
 * else by when they arrived. Null when nothing tells. Something known to have shown at the moment `b` arrived, or
 * before, did not come after it.
 */
export function cameAfter(a: Shown, b: Shown, numbered: boolean): boolean | null {
  if (a.place === b.place && a.index !== null && b.index !== null) return a.index > b.index;
  if (numbered && a.id !== null && b.id !== null) return a.id > b.id;
  if (a.from > b.to) return true;
  if (a.to <= b.from) return false;
  return null;
}
