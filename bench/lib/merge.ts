/**
 * A run of some of the bench's parts, each measured in full (all its trials, pages and lines), replaces those parts
 * of the published results and keeps the others: a part that needs a quiet machine for an hour need not wait for the
 * rest. Every part keeps the date, machine and source commit it was measured with, and the table says them.
 */

export const PARTS = ['size', 'reaction', 'stream', 'scale'] as const;
export type Part = (typeof PARTS)[number];

/** The results' keys each part writes. */
const KEYS: Record<Part, string[]> = {
  size: ['sizes', 'sizeBreakdown'],
  reaction: ['reaction'],
  stream: ['stream', 'memory'],
  scale: ['scale'],
};

export interface Measured {
  date: string;
  machine: string;
  srcCommit: string;
}

type Results = Record<string, unknown> & {
  machine: { date: string; cpuModel: string; cores: number; memoryGiB: number };
};

const machineOf = (r: Results) => `${r.machine.cpuModel} ×${r.machine.cores}, ${r.machine.memoryGiB} GiB`;

/** When each part of `r` was measured; results kept before parts had their own dates were measured as one run. */
export function measuredParts(r: Results): Partial<Record<Part, Measured>> {
  const kept = (r.measured ?? {}) as Partial<Record<Part, Measured>>;
  const whole = {
    date: r.machine.date,
    machine: machineOf(r),
    srcCommit: ((r.scale as { srcCommit?: string } | undefined)?.srcCommit ?? 'unknown') as string,
  };
  const out: Partial<Record<Part, Measured>> = {};
  for (const part of PARTS) {
    if (!KEYS[part].some((key) => r[key] !== undefined)) continue;
    out[part] = kept[part] ?? whole;
  }
  return out;
}

/**
 * The published results with `run`'s parts in place of theirs. `run` is the newest: its machine and settings head
 * the merged results, and its parts are dated with it.
 */
export function mergeRun(published: Results | null, run: Results, parts: Part[], srcCommit: string): Results {
  const merged: Results = { ...(published ?? {}), ...run };
  const measured = published ? measuredParts(published) : {};
  for (const part of PARTS) {
    const source = parts.includes(part) ? run : published;
    for (const key of KEYS[part]) {
      if (source?.[key] === undefined) delete merged[key];
      else merged[key] = source[key];
    }
  }
  for (const part of parts) measured[part] = { date: run.machine.date, machine: machineOf(run), srcCommit };
  merged.measured = measured;
  return merged;
}

const NAMES: Record<Part, string> = {
  size: 'sizes',
  reaction: 'reaction',
  stream: 'streaming',
  scale: 'notebook scale (Run all, switching on)',
};

/** "Measured 2026-11-28 on …" for one run; one clause per date when the parts were measured apart. */
export function measuredLine(measured: Partial<Record<Part, Measured>>, browser: string): string {
  const groups = new Map<string, Part[]>();
  for (const part of PARTS) {
    const m = measured[part];
    if (!m) continue;
    const key = `${m.date.slice(0, 10)} on ${m.machine} (source ${m.srcCommit})`;
    groups.set(key, [...(groups.get(key) ?? []), part]);
  }
  if (groups.size <= 1) return `Measured ${[...groups.keys()][0] ?? 'never'}, ${browser}.`;
  const clauses = [...groups].map(([when, parts]) => `${parts.map((p) => NAMES[p]).join(', ')} ${when}`);
  return `Measured in separate runs: ${clauses.join('; ')}. ${browser}.`;
}
