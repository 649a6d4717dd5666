/**
 * Lifetimes as AbortSignals (the WXT and refined-github model): whatever a lifetime starts (observers, listeners,
 * timers) takes its signal and ends with it, so no teardown is written twice.
 */

/** A lifetime inside `parent`: it ends with its parent, or on its own before. */
export function childLifetime(parent: AbortSignal): AbortController {
  const child = new AbortController();
  if (parent.aborted) child.abort(parent.reason);
  else parent.addEventListener('abort', () => child.abort(parent.reason), { once: true, signal: child.signal });
  return child;
}
