import { FRAME_SETTLED_MS } from '../limits';

/** When an output arrived, as this frame saw it; `exact`: that is when it arrived (detector/output-order.ts). */
export interface Arrival {
  at: number;
  exact: boolean;
}

export interface Arrivals {
  /** The frame's window got a message other than the page's question (the stream-tail answerer tells, it listens). */
  delivered(): void;
  /** `output` is seen now: by the frame's observer as it came (`watched`), or at the observer's first look. */
  seen(output: Element, watched: boolean): void;
  /** When `output` arrived; for one never seen, now and not exact. */
  of(output: Element | undefined): Arrival;
}

/**
 * When the frame's outputs arrived. Colab holds what a frame gets while it loads and delivers it all once the frame
 * starts showing outputs: the first delivery is the first message the frame's window gets other than the page's own
 * question (Colab's, or the notebook's script asking for its status), or the first output seen. An output that comes
 * FRAME_SETTLED_MS after that, while the observer watches, arrived when it was seen; the others, at any time since
 * the frame was made.
 */
export function frameArrivals(): Arrivals {
  let flowing: number | undefined;
  const times = new WeakMap<Element, Arrival>();
  return {
    delivered() {
      flowing ??= Date.now();
    },
    seen(output, watched) {
      if (times.has(output)) return;
      const at = Date.now();
      flowing ??= at;
      times.set(output, { at, exact: watched && at - flowing >= FRAME_SETTLED_MS });
    },
    of: (output) => (output && times.get(output)) || { at: Date.now(), exact: false },
  };
}
