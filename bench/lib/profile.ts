/**
 * Attribution of a CDP CPU profile (Profiler.stop): the time of samples whose stack holds a frame of a given script
 * (inclusive: what that script's functions call, native DOM work such as `innerText` included), and the functions of
 * that script that cost most (each sample charged to the innermost frame of the script, and apart for each browser
 * function it was in: a `querySelector` or a `setTimeout` weighs more than the script's own lines).
 * A sample stands for the time until the next one, but at most MAX_SAMPLE_INTERVALS sampling intervals: a longer gap
 * means the thread was not running or not sampled (a loaded machine), and nothing says where that time went. Without
 * the bound one late sample charged 0.85 s to a one-line function.
 */
export interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
export interface CpuProfile {
  nodes: CpuProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

export interface Attribution {
  /** Milliseconds of samples with a frame matching the predicate on the stack. */
  ms: number;
  /** Milliseconds of all non-idle samples ((idle) excluded; (program) and (garbage collector) included). */
  busyMs: number;
  /**
   * Samples with a matching frame, and all non-idle samples. Their ratio is the script's share of the thread's CPU
   * time: a thread taken off its core yields one sample for the whole gap, so a loaded machine's gaps weigh nothing
   * (whereas `ms` charges each gap, up to the bound, to whatever ran when it ended).
   */
  samples: number;
  busySamples: number;
  top: Array<{ fn: string; url: string; line: number; column: number; ms: number; calls?: string; source?: string }>;
}

/** A frame of the browser's own code (a DOM or timer function), not a script's nor a V8 pseudo-frame like (program). */
const isBrowserFunction = (f: CpuProfileNode['callFrame']) => f.url === '' && /^[A-Za-z_$]/.test(f.functionName);

/** How the breakdown names a function and the browser function a sample was in: `flush → setTimeout`. */
export const inBrowserFunction = (name: string, calls?: string) => (calls ? `${name} → ${calls}` : name);

export const MAX_SAMPLE_INTERVALS = 10;

export function attribute(
  profile: CpuProfile,
  matches: (frame: CpuProfileNode['callFrame']) => boolean,
  samplingUs: number,
  limit = 10,
): Attribution {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // innermost matching frame of each node's stack (memoised), or null
  const innermost = new Map<number, CpuProfileNode | null>();
  const find = (id: number): CpuProfileNode | null => {
    if (innermost.has(id)) return innermost.get(id)!;
    const node = byId.get(id)!;
    const p = parent.get(id);
    const result = matches(node.callFrame) ? node : p === undefined ? null : find(p);
    innermost.set(id, result);
    return result;
  };
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  let ms = 0;
  let busyMs = 0;
  let hits = 0;
  let busySamples = 0;
  const fns = new Map<string, Attribution['top'][number]>();
  for (let i = 0; i < samples.length; i++) {
    // timeDeltas[i] is the time before sample i: sample i lasts until sample i+1.
    const dt = Math.min(deltas[i + 1] ?? deltas[i] ?? 0, MAX_SAMPLE_INTERVALS * samplingUs) / 1000;
    const node = byId.get(samples[i]!)!;
    if (node.callFrame.functionName === '(idle)') continue;
    busyMs += dt;
    busySamples++;
    const hit = find(node.id);
    if (!hit) continue;
    ms += dt;
    hits++;
    const f = hit.callFrame;
    const calls = hit !== node && isBrowserFunction(node.callFrame) ? node.callFrame.functionName : undefined;
    const fn = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}:${f.columnNumber + 1}`;
    const key = inBrowserFunction(fn, calls);
    const entry = fns.get(key) ?? {
      fn,
      url: f.url,
      line: f.lineNumber,
      column: f.columnNumber,
      ms: 0,
      ...(calls ? { calls } : {}),
    };
    entry.ms += dt;
    fns.set(key, entry);
  }
  const top = [...fns.values()].sort((a, b) => b.ms - a.ms).slice(0, limit);
  return { ms, busyMs, samples: hits, busySamples, top };
}
