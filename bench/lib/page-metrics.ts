import type { CDPSession } from '@playwright/test';

/** The CPU profiler's sampling interval in the bench's measured windows, µs. */
export const SAMPLING_US = 200;

/** Chromium's Performance.getMetrics, by name (TaskDuration, ScriptDuration, … in seconds). */
export async function metrics(cdp: CDPSession): Promise<Record<string, number>> {
  const { metrics: list } = await cdp.send('Performance.getMetrics');
  return Object.fromEntries(list.map((m) => [m.name, m.value]));
}

/** The page's used JS heap after garbage collection, MB. */
export async function heapMB(cdp: CDPSession): Promise<number> {
  // Two passes: weak maps and finalizers need a second collection to let go.
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  return usedSize / 2 ** 20;
}
