import { createDetector, DEFAULT_CATEGORIES, type Detector, loadDetector } from '../detector';
import type { Settings } from '../state/schema';

/**
 * The detector the page watch reads with, following the settings: the built-in rules until the settings are read,
 * then the user's categories and patterns (the pattern engine's chunk loads only where there are patterns). `changed`
 * is told each detector taken, once it is the current one.
 */
export interface DetectorSlot {
  readonly current: Detector;
  configure(settings: Settings): void;
}

export function createDetectorSlot(changed: (detector: Detector) => void, signal: AbortSignal): DetectorSlot {
  let current = createDetector({ categories: DEFAULT_CATEGORIES, failurePatterns: [], markerPatterns: [] });
  let configured = 0;
  return {
    get current() {
      return current;
    },
    configure(settings) {
      if (signal.aborted) return;
      const config = {
        categories: settings.categories,
        failurePatterns: settings.failurePatterns,
        markerPatterns: settings.markerPatterns,
      };
      const mine = ++configured;
      const use = (next: Detector) => {
        // Loads can end out of order (only the first with patterns waits for the engine): the newest settings win.
        if (mine !== configured || signal.aborted) return;
        current = next;
        changed(next);
      };
      // The engine's chunk fails to load only when the extension was reloaded: built-in rules still apply.
      loadDetector(config).then(use, () => use(createDetector(config)));
    },
  };
}
