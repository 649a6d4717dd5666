import { endsOwnRuntime, type NoticeKind, saysUnassigned } from '../colab';
import type { DisconnectKind } from '../state/disconnect';

/**
 * Why the runtime went away, once Colab's words are known: a notebook that ends its own runtime
 * (`google.colab.runtime.unassign()`, REFERENCE.md §12.4) means the disconnect that follows, and the runtime stays
 * ended until a cell runs again. The cells this page saw are looked at only when a notice comes (rare), not as they
 * run: one seen running whose source or output shows the call, or one seen queued whose output says it (a queued
 * cell's outputs are cleared, so any it shows are its run's). A cell calling it is watched closely from its queueing
 * (launch-check.ts), so its running is seen however short. Lives with the page watch.
 */
export interface RuntimeEnds {
  /** A cell's execution was seen queued, or running. */
  started(cell: Element, running: boolean): void;
  /** This page restarted the session: what ran before belongs to the old run. */
  forget(): void;
  /** Colab said the runtime is gone: why, or null when there is nothing to report. */
  notice(kind: NoticeKind): DisconnectKind | null;
}

export function createRuntimeEnds(): RuntimeEnds {
  /** Since the last notice: cells seen queued or running, and those seen running. */
  const queued = new Set<Element>();
  const ran = new Set<Element>();
  let everStarted = false;
  /** The notebook ended its runtime: every notice until a cell runs again follows from that. */
  let ended = false;

  const endedByNotebook = () =>
    [...ran].some((cell) => cell.isConnected && endsOwnRuntime(cell)) ||
    [...queued].some((cell) => cell.isConnected && saysUnassigned(cell));

  /** Only what Colab does not explain otherwise: its own reasons (disallowed code, no units, limits) stay named. */
  const followsTheNotebook = (kind: NoticeKind) =>
    (kind === 'idle' || kind === 'unable-to-connect' || kind === 'unknown') && (ended || endedByNotebook());

  return {
    started(cell, running) {
      // A run started: the runtime is in use again (Colab connects one to run a cell).
      everStarted = true;
      ended = false;
      queued.add(cell);
      if (running) ran.add(cell);
    },
    forget() {
      queued.clear();
      ran.clear();
      ended = false;
    },
    notice(kind) {
      const intended = followsTheNotebook(kind);
      queued.clear();
      ran.clear();
      ended ||= intended;
      if (intended) return 'intended';
      // No run to bring back: a page that never saw a cell run is someone connecting by hand.
      if (kind === 'unable-to-connect' && !everStarted) return null;
      return kind;
    },
  };
}
