/** Units every layer counts in: pure, so the detector, the state and the page scripts share them. */

export const DAY_MS = 24 * 60 * 60_000;

/** Whole seconds left until `deadline`, rounded up (a countdown shows 0:01 until it is due), never negative. */
export function secondsUntil(deadline: number, now: number): number {
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}

/** Bytes as the messages say them, in megabytes of 1,000,000 bytes, one decimal: "20.0". */
export function megabytes(bytes: number): string {
  return (bytes / 1_000_000).toFixed(1);
}
