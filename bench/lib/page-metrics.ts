/** A CDP session to a page: Playwright's or Puppeteer's (the bench's hidden tabs, lib/hidden.ts). */
export interface CDPSession {
  // biome-ignore lint/suspicious/noExplicitAny: both libraries type the methods and results by protocol name
  send(method: any, params?: any): Promise<any>;
}

/** The CPU profiler's sampling interval in the bench's measured windows, µs. */
export const SAMPLING_US = 200;

/** Chromium's Performance.getMetrics, by name (TaskDuration, ScriptDuration, … in seconds). */
export async function metrics(cdp: CDPSession): Promise<Record<string, number>> {
  const { metrics: list } = (await cdp.send('Performance.getMetrics')) as {
    metrics: Array<{ name: string; value: number }>;
  };
  return Object.fromEntries(list.map((m) => [m.name, m.value]));
}

/** The page's used JS heap after garbage collection, MB. */
export async function heapMB(cdp: CDPSession): Promise<number> {
  // Two passes: weak maps and finalizers need a second collection to let go.
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  return usedSize / 2 ** 20;
}
