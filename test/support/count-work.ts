/**
 * Counts the work the page observer does (unit tests only): DOM lookups and reads by method, the nodes it starts to
 * observe, and the callbacks of every MutationObserver made while counting. "Work proportional to new output, no
 * whole-page re-reads" (README) is checked by such counts: a shortcut or cache lost costs calls the page would pay at
 * every printed line or state change.
 */

import { vi } from 'vitest';

const LOOKUPS = {
  closest: Element.prototype,
  matches: Element.prototype,
  querySelector: Element.prototype,
  querySelectorAll: Element.prototype,
  getRootNode: Node.prototype,
  contains: Node.prototype,
} as const;

export type Lookup = keyof typeof LOOKUPS | 'fragmentQuery' | 'documentQuery';

export interface WorkCount {
  /** Calls of each DOM lookup since the last reset. */
  calls: Record<Lookup, number>;
  /** `MutationObserver.observe` calls since the last reset. */
  observes: number;
  /** MutationObserver callbacks since the last reset. */
  callbacks: number;
  reset(): void;
}

/** Starts counting; `vi.restoreAllMocks()` and `vi.unstubAllGlobals()` (the tests' afterEach) stop it. */
export function countWork(): WorkCount {
  const zero = (): Record<Lookup, number> => ({
    closest: 0,
    matches: 0,
    querySelector: 0,
    querySelectorAll: 0,
    getRootNode: 0,
    contains: 0,
    fragmentQuery: 0,
    documentQuery: 0,
  });
  const count: WorkCount = {
    calls: zero(),
    observes: 0,
    callbacks: 0,
    reset() {
      count.calls = zero();
      count.observes = 0;
      count.callbacks = 0;
    },
  };
  const spy = (proto: object, name: string, as: Lookup) => {
    const original = (proto as Record<string, (...args: unknown[]) => unknown>)[name]!;
    vi.spyOn(proto as Record<string, (...args: unknown[]) => unknown>, name).mockImplementation(function (
      this: unknown,
      ...args: unknown[]
    ) {
      count.calls[as]++;
      return original.apply(this, args);
    });
  };
  for (const [name, proto] of Object.entries(LOOKUPS)) spy(proto, name, name as Lookup);
  for (const name of ['querySelector', 'querySelectorAll']) {
    spy(DocumentFragment.prototype, name, 'fragmentQuery');
    spy(Document.prototype, name, 'documentQuery');
  }
  const Native = globalThis.MutationObserver;
  class Counting extends Native {
    constructor(callback: MutationCallback) {
      super((records, observer) => {
        count.callbacks++;
        callback(records, observer);
      });
    }
    override observe(target: Node, options?: MutationObserverInit): void {
      count.observes++;
      super.observe(target, options);
    }
  }
  vi.stubGlobal('MutationObserver', Counting);
  return count;
}
