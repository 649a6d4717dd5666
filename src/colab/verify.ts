/** Did the run start? Evidence read from the page (REFERENCE.md §4.1, §5.4). */

import { cellId, cellRunState, executionCount, findCells } from './cells';
import { classifyOpenDialogs } from './dialogs';
import { deepQuery, waitFor } from './dom';
import { type Fail, fail } from './result';
import { CONNECT } from './selectors';

export interface RunSnapshot {
  counts: Map<string, number | null>;
  active: Set<string>;
  connectBusy: boolean;
}

/** The connect button shows busy: icon ligature `more_horiz`, or "Connecting"/"Allocating" (§5.4). */
export function connectBusy(doc: Document): boolean {
  const host = deepQuery(doc, CONNECT.host);
  const root = host?.shadowRoot ?? host;
  if (!root) return false;
  const icon = root.querySelector(CONNECT.icon)?.textContent ?? '';
  return (
    icon.includes(CONNECT.busyIcon) || CONNECT.busyText.test(root.querySelector(CONNECT.button)?.textContent ?? '')
  );
}

const isActive = (cell: Element) => {
  const state = cellRunState(cell);
  return state === 'pending' || state === 'running';
};

/** Taken just before acting, so that verification compares with the page as it was. */
export function takeRunSnapshot(doc: Document): RunSnapshot {
  const counts = new Map<string, number | null>();
  const active = new Set<string>();
  for (const cell of findCells(doc)) {
    const id = cellId(cell) ?? '';
    counts.set(id, executionCount(cell));
    if (isActive(cell)) active.add(id);
  }
  return { counts, active, connectBusy: connectBusy(doc) };
}

/**
 * Evidence that a run started since the snapshot, or null: a cell became pending/running, a cell's execution
 * count changed (restart resets the counter; a re-run renumbers), or the connect button turned busy.
 */
export function runEvidence(doc: Document, since: RunSnapshot): string | null {
  for (const cell of findCells(doc)) {
    const id = cellId(cell) ?? '';
    if (isActive(cell) && !since.active.has(id)) return `cell ${id} ${cellRunState(cell)}`;
    const before = since.counts.get(id);
    const now = executionCount(cell);
    if (before !== undefined && before !== now)
      return `cell ${id} execution count ${before ?? '[ ]'} -> ${now ?? '[ ]'}`;
  }
  return connectBusy(doc) && !since.connectBusy ? 'connect button busy' : null;
}

export interface VerifyOptions {
  /** The snapshot taken before the action (default: now, which only sees changes from here on). */
  since?: RunSnapshot;
  /** Default 15000 ms: a restart takes a few seconds before run-all queues the cells. */
  timeoutMs?: number;
}

export async function verifyRunStarted(
  doc: Document,
  opts: VerifyOptions = {},
): Promise<{ ok: true; evidence: string } | Fail<'no-run-started'>> {
  const since = opts.since ?? takeRunSnapshot(doc);
  const evidence = await waitFor(() => runEvidence(doc, since), {
    root: doc,
    timeoutMs: opts.timeoutMs ?? 15000,
    observeShadowRoots: true,
  });
  if (evidence) return { ok: true, evidence };
  const dialogs = classifyOpenDialogs(doc)
    .map((d) => `${d.kind}: "${d.text.slice(0, 120)}"`)
    .join('; ');
  return fail(
    'no-run-started',
    `${findCells(doc).length} cells, none pending/running${dialogs ? `; open dialogs: ${dialogs}` : ''}`,
  );
}
