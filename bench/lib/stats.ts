export interface Summary {
  n: number;
  p50: number;
  p95: number;
  max: number;
  min: number;
  mean: number;
}

/** Nearest-rank percentiles (p95 of 20 samples is the 19th smallest). */
export function summarize(values: number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
  const mean = sorted.reduce((a, b) => a + b, 0) / (sorted.length || 1);
  return { n: sorted.length, p50: rank(50), p95: rank(95), max: sorted.at(-1) ?? NaN, min: sorted[0] ?? NaN, mean };
}

export const round = (x: number, digits = 1) => (Number.isFinite(x) ? Math.round(x * 10 ** digits) / 10 ** digits : x);

/** The median (the mean of the two middle values for an even count); NaN for none. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  if (!s.length) return NaN;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The median of `f(with) − f(without)` over runs paired in order (the i-th of each). */
export function pairedMedian<R>(withRuns: R[], withoutRuns: R[], f: (r: R) => number): number {
  return median(withRuns.flatMap((r, i) => (withoutRuns[i] ? [f(r) - f(withoutRuns[i])] : [])));
}
