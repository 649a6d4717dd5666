import { BLIND_AFTER_MS, KERNEL_WATCH_AFTER_MS } from '../limits';

/**
 * Whether detection may be blind: Colab shows the runtime busy running code, yet no cell has been seen running for
 * BLIND_AFTER_MS (a cell whose run state this page cannot read). Said when it begins, and when a cell is seen running
 * again: once per watch at the first one seen (the record may say blind from another tab or an earlier page), and
 * after each blind spell.
 *
 * Between two cells of a Run all no cell runs for a moment, and the connect button changes at every cell: it is
 * watched only once a stretch with no cell running has lasted KERNEL_WATCH_AFTER_MS (one timer, set again when it
 * fires), and read when the stretch has lasted BLIND_AFTER_MS.
 */
export interface BlindnessCheck {
  /**
   * What the page shows changed: `running`, whether a cell is seen running now; `at`, when what changed it changed
   * (a cell's state is read a moment after it changed).
   */
  check(running: boolean, at?: number): void;
  /** The connect button changed, while it is watched. */
  kernelChanged(): void;
  /** The watch ends: no timer stays. */
  stop(): void;
}

/** What the check reads of the page (the page observer's). */
export interface BlindnessPage {
  /** Reads the cells' changes that wait to be read, before a stretch is judged. */
  settle(): void;
  /** Whether the connect button's changes are said (kernelChanged). */
  watchKernel(on: boolean): void;
  /** Whether the connect button shows the runtime busy running code, now. */
  kernelBusy(): boolean;
}

/** `sight(blind)`: detection may be blind (true), or sees a cell running again (false). */
export function createBlindnessCheck(page: BlindnessPage, sight: (blind: boolean) => void): BlindnessCheck {
  let blind = false;
  let seen = false;
  /** Since when no cell is seen running (while not blind); null while one is. */
  let unseenSince: number | null = null;
  /** While the connect button is watched: when it last changed (its changes before the watch: the stretch's start). */
  let kernelChangedAt: number | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const stopLooking = () => {
    unseenSince = null;
    if (kernelChangedAt === null) return;
    kernelChangedAt = null;
    page.watchKernel(false);
    // Its timer counts from this stretch: the next stretch sets its own.
    clearTimeout(timer);
    timer = undefined;
  };

  const look = () => {
    // Cells' changes that wait to be read (the next cell's start) are read first: a stretch is judged on what the page
    // shows now, however late the change that began it was read. (This timer stays set meanwhile: none is added.)
    if (unseenSince !== null) page.settle();
    timer = undefined;
    if (unseenSince === null) return;
    const now = Date.now();
    if (kernelChangedAt === null) {
      // The timer may have been set for an earlier stretch: this one is watched once it has lasted long enough.
      const watchAt = unseenSince + KERNEL_WATCH_AFTER_MS;
      if (now < watchAt) {
        timer = setTimeout(look, watchAt - now);
        return;
      }
      kernelChangedAt = unseenSince;
      page.watchKernel(true);
      timer = setTimeout(look, unseenSince + BLIND_AFTER_MS - now);
      return;
    }
    if (!page.kernelBusy()) {
      stopLooking();
      return;
    }
    // Busy now, and surely since its last change only: the spell is counted from the later of the two.
    const left = Math.max(unseenSince, kernelChangedAt) + BLIND_AFTER_MS - now;
    if (left > 0) {
      timer = setTimeout(look, left);
      return;
    }
    blind = true;
    stopLooking();
    sight(true);
  };

  return {
    check(running, at = Date.now()) {
      if (running && (blind || !seen)) {
        blind = false;
        seen = true;
        sight(false);
      }
      if (running || blind) {
        stopLooking();
        return;
      }
      unseenSince ??= at;
      timer ??= setTimeout(look, unseenSince + KERNEL_WATCH_AFTER_MS - Date.now());
    },
    kernelChanged() {
      if (kernelChangedAt !== null) kernelChangedAt = Date.now();
    },
    stop: () => clearTimeout(timer),
  };
}
