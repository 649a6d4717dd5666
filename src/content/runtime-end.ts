import { endsOwnRuntime, type NoticeKind } from '../colab';
import type { DisconnectKind } from '../state/disconnect';

/**
 * Why the runtime went away, once Colab's words are known: a notebook that ends its own runtime
 * (`google.colab.runtime.unassign()`, REFERENCE.md §12.4) means the disconnect that follows, and the runtime stays
 * ended until a cell runs again. The cells this page saw run are looked at only when a notice comes (rare), not as
 * they run. Lives with the page watch.
 */
export interface RuntimeEnds {
  /** A cell's execution was seen running. */
  ran(cell: Element): void;
  /** This page restarted the session: what ran before belongs to the old run. */
  forget(): void;
  /** Colab said the runtime is gone: why, or null when there is nothing to report. */
  notice(kind: NoticeKind): DisconnectKind | null;
}

export function createRuntimeEnds(): RuntimeEnds {
  const ran = new Set<Element>();
  let everRan = false;
  /** The notebook ended its runtime: every notice until a cell runs again follows from that. */
  let ended = false;

  /** Only what Colab does not explain otherwise: its own reasons (disallowed code, no units, limits) stay named. */
  const followsTheNotebook = (kind: NoticeKind) =>
    (kind === 'idle' || kind === 'unable-to-connect' || kind === 'unknown') &&
    (ended || [...ran].some((cell) => cell.isConnected && endsOwnRuntime(cell)));

  return {
    ran(cell) {
      ended = false;
      everRan = true;
      ran.add(cell);
    },
    forget() {
      ran.clear();
      ended = false;
    },
    notice(kind) {
      const intended = followsTheNotebook(kind);
      ran.clear();
      ended ||= intended;
      if (intended) return 'intended';
      // No run to bring back: a page that never saw a cell run is someone connecting by hand.
      if (kind === 'unable-to-connect' && !everRan) return null;
      return kind;
    },
  };
}
