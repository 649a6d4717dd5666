/** Is the runtime ready, and did the run start? Evidence read from the page (REFERENCE.md §4.1, §5.4, §11.5). */

import { type Failed, fail } from '../state/failed-step';
import { cellId, cellRunState, executionCount, findCells, isUnderWay } from './cells';
import { classifyOpenDialogs } from './dialogs';
import { deepQuery, waitFor } from './dom';
import { connectButtonState, runtimeState } from './kernel-state';
import { CONNECT } from './selectors';

export interface ReadyOptions {
  /** Default 60000 ms: Colab brings a crashed kernel back within seconds, a slow VM in tens of seconds. */
  timeoutMs?: number;
}

/**
 * Waits until the connect button shows the runtime connected and idle (§11.5: right after a crash Colab is still
 * bringing the kernel back, and a Run all sent then is ignored). Observes the button's shadow roots, no polling.
 */
export async function waitForReadyRuntime(
  doc: Document,
  opts: ReadyOptions = {},
): Promise<{ ok: true } | Failed<'runtime-ready'>> {
  const host = deepQuery(doc, CONNECT.host);
  if (!host)
    return fail(
      'runtime-ready',
      'connect-button-missing',
      `no ${CONNECT.host}: cannot tell whether the runtime is ready`,
    );
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const ready = await waitFor(() => connectButtonState(host) === 'idle', {
    root: host.shadowRoot ?? host,
    timeoutMs,
    observeShadowRoots: true,
  });
  if (ready) return { ok: true };
  return fail(
    'runtime-ready',
    'runtime-not-ready',
    `the connect button still showed "${connectButtonState(host)}" after ${timeoutMs} ms`,
  );
}

export interface RunSnapshot {
  counts: Map<string, number | null>;
  active: Set<string>;
}

const isActive = (cell: Element) => isUnderWay(cellRunState(cell));

/** Taken just before acting, so that verification compares with the page as it was. */
export function takeRunSnapshot(doc: Document): RunSnapshot {
  const counts = new Map<string, number | null>();
  const active = new Set<string>();
  for (const cell of findCells(doc)) {
    const id = cellId(cell) ?? '';
    counts.set(id, executionCount(cell));
    if (isActive(cell)) active.add(id);
  }
  return { counts, active };
}

/**
 * A check for proof that a run started since the snapshot, to call on every DOM change: a cell turned pending or
 * running (a cell already active in the snapshot counts once it was seen settled and active again), or a cell's
 * execution count changed to another number (only an execution numbers a cell; it may have run between two looks).
 * Not proof: the connect button turning busy, which a restart alone does (§11.5), and a count that was cleared.
 */
export function runStartCheck(doc: Document, since: RunSnapshot): () => string | null {
  const active = new Set(since.active);
  return () => {
    for (const cell of findCells(doc)) {
      const id = cellId(cell) ?? '';
      if (!isActive(cell)) active.delete(id);
      else if (!active.has(id)) return `cell ${id} ${cellRunState(cell)}`;
      const before = since.counts.get(id);
      const now = executionCount(cell);
      if (before !== undefined && now !== null && now !== before)
        return `cell ${id} execution count ${before ?? '[ ]'} -> ${now}`;
    }
    return null;
  };
}

export interface VerifyOptions {
  /** The snapshot taken before the action (default: now, which only sees changes from here on). */
  since?: RunSnapshot;
  /** Default 15000 ms. */
  timeoutMs?: number;
}

export async function verifyRunStarted(
  doc: Document,
  opts: VerifyOptions = {},
): Promise<{ ok: true; evidence: string } | Failed<'verify'>> {
  const evidence = await waitFor(runStartCheck(doc, opts.since ?? takeRunSnapshot(doc)), {
    root: doc,
    timeoutMs: opts.timeoutMs ?? 15000,
    observeShadowRoots: true,
  });
  if (evidence) return { ok: true, evidence };
  const dialogs = classifyOpenDialogs(doc)
    .map((d) => `${d.kind}: "${d.text.slice(0, 120)}"`)
    .join('; ');
  const runtime = runtimeState(doc);
  return fail(
    'verify',
    'no-run-started',
    `${findCells(doc).length} cells, none pending/running${runtime ? `; runtime ${runtime}` : ''}` +
      `${dialogs ? `; open dialogs: ${dialogs}` : ''}`,
  );
}
