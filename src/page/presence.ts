/**
 * Whether a person is working in this Colab tab: the tab has focus, is shown, and had a key press, a pointer press or
 * a wheel turn within `PRESENT_MS`. Passive capture listeners on the top window only note the time (no polling, no
 * timer). Input inside Colab's output frames is not seen: they are cross-origin documents whose events stay there.
 */
export const PRESENT_MS = 2 * 60_000;

export interface Presence {
  present(): boolean;
  /** When the person stops counting as present unless they touch something again. */
  until(): number;
}

/** `arrived`: the first input after an absence (a countdown under way may become a question). */
export function watchPresence(win: Window, signal: AbortSignal, arrived: () => void): Presence {
  let last = Number.NEGATIVE_INFINITY;
  const note = (event: Event) => {
    // A script's synthetic events (the guard's own clicks among them) are nobody at the keyboard.
    if (!event.isTrusted) return;
    const now = Date.now();
    const wasAway = now - last >= PRESENT_MS;
    last = now;
    if (wasAway) arrived();
  };
  for (const type of ['keydown', 'pointerdown', 'wheel']) {
    win.addEventListener(type, note, { capture: true, passive: true, signal });
  }
  const { document } = win;
  return {
    present: () => document.hasFocus() && document.visibilityState === 'visible' && Date.now() - last < PRESENT_MS,
    until: () => last + PRESENT_MS,
  };
}
