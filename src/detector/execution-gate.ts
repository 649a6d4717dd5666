/**
 * When to act (issue 13). A failure counts only for an execution this page saw queued or running since its last
 * restart, that then ended in a fresh error. `stale` (REFERENCE §11.4) marks a state from an earlier kernel session:
 * a saved error, a cell scrolled into view with its old outputs, a cell killed by a restart; it is never fresh.
 * The cell's state is the trigger and its error outputs are the evidence: held while the execution runs, judged when
 * it ends in error, and still taken for a short while after it ended (output frames load late). An execution that
 * ends any other way drops its evidence: an error-looking output of a cell that goes on is not a failure.
 */

/** How long after an execution ended in error its error output may still arrive (an output frame loading). */
export const LATE_OUTPUT_MS = 10_000;
/**
 * How far back a crash notice looks for the executions it ended. Every tab on the notebook shows the crash, a
 * background one possibly late, by when the next run may already have started there.
 */
export const CRASH_LOOKBACK_MS = 5 * 60_000;
/** Evidence kept per execution: the newest error outputs (each already cut to what the detector reads). */
const EVIDENCE_KEPT = 8;
/** Ended executions remembered for crash notices, at most. */
const RECENT_KEPT = 500;

/** A cell's run state as the page reads it; 'stale-error' is an error from an earlier kernel session. */
export type GateRunState = 'idle' | 'pending' | 'running' | 'error' | 'stale-error';

export type ExecutionOutcome = 'ok' | 'error' | 'stale';

/** An execution seen in this page that just ended. `evidence`: its error outputs so far, oldest first. */
export interface EndedExecution {
  startedAt: number;
  endedAt: number;
  outcome: ExecutionOutcome;
  evidence: readonly string[];
}

interface Execution {
  startedAt: number;
  endedAt: number | null;
  outcome: ExecutionOutcome | null;
  reported: boolean;
  evidence: string[];
}

export interface ExecutionGate {
  /** A cell's run state as the page shows it now; returns the execution this state ended, if it ended one. */
  cellState(cellId: string, state: GateRunState, now: number): EndedExecution | null;
  /**
   * An error output of the cell: 'held' as evidence of the execution still running, 'judge' now (its execution
   * ended in error a moment ago and has no verdict yet), or 'dropped' (no execution of this page's to attach it to).
   */
  errorOutput(cellId: string, text: string, now: number): 'held' | 'judge' | 'dropped';
  /** One failure per execution, however many outputs show it. */
  reported(cellId: string): void;
  /** When the cell's current (or last) execution started, as this page saw it. */
  startedAt(cellId: string): number | null;
  /** Whether output of this cell now belongs to an execution seen here (markers: any output, running or just ended). */
  isLive(cellId: string, now: number): boolean;
  /**
   * What a crash notice reports as its execution's start: the earliest start of the executions active at any time
   * within CRASH_LOOKBACK_MS, else the time this page began watching. A late notice in a second tab thus carries
   * the start of the execution the crash ended there, not the notice's own time.
   */
  crashStartedAt(now: number): number;
  /** Some execution is seen running now (not only queued). */
  anyRunning(): boolean;
  /** After a restart this page performed: every execution seen so far is over; old outputs are history. */
  reset(now: number): void;
}

/** First in, first out; the front leaves in constant amortised time (no array shifted or copied per item). */
interface Queue<T> {
  push(item: T): void;
  dropFirst(): void;
  size(): number;
  values(): T[];
  clear(): void;
}

function queue<T>(): Queue<T> {
  let items: T[] = [];
  let head = 0;
  return {
    push: (item) => void items.push(item),
    dropFirst() {
      head++;
      // Compacted once half is dead: each item is copied at most once on average.
      if (head * 2 >= items.length) {
        items = items.slice(head);
        head = 0;
      }
    },
    size: () => items.length - head,
    values: () => items.slice(head),
    clear() {
      items = [];
      head = 0;
    },
  };
}

export function createExecutionGate(now: number): ExecutionGate {
  /** Each cell's latest execution seen since the last restart: its next one replaces it. */
  const executions = new Map<string, Execution>();
  /** Cells whose execution is seen running now: `anyRunning` is asked at every run-state change. */
  const running = new Set<string>();
  /**
   * The newest ended executions (RECENT_KEPT) in the order they ended, for a crash notice, which reads those within
   * its window. Ending one touches nothing older: a Run all ends one per cell, each in a small task of its own.
   */
  const ended = queue<Execution>();
  let watchingSince = now;

  const active = (run: Execution | undefined): boolean => run !== undefined && run.endedAt === null;

  const end = (cellId: string, run: Execution, outcome: ExecutionOutcome, at: number): EndedExecution => {
    run.endedAt = at;
    run.outcome = outcome;
    running.delete(cellId);
    if (ended.size() >= RECENT_KEPT) ended.dropFirst();
    ended.push(run);
    const evidence = run.evidence;
    run.evidence = [];
    return { startedAt: run.startedAt, endedAt: at, outcome, evidence };
  };

  const justFailed = (run: Execution, at: number): boolean =>
    run.outcome === 'error' && run.endedAt !== null && at - run.endedAt <= LATE_OUTPUT_MS;

  return {
    cellState(cellId, state, at) {
      const run = executions.get(cellId);
      if (state === 'pending' || state === 'running') {
        if (state === 'running') running.add(cellId);
        // A running state after the queued one is the same execution.
        if (!run || !active(run))
          executions.set(cellId, { startedAt: at, endedAt: null, outcome: null, reported: false, evidence: [] });
        return null;
      }
      if (!run || !active(run)) return null;
      const outcome = state === 'error' ? 'error' : state === 'stale-error' ? 'stale' : 'ok';
      return end(cellId, run, outcome, at);
    },
    errorOutput(cellId, text, at) {
      const run = executions.get(cellId);
      if (!run) return 'dropped';
      if (active(run)) {
        run.evidence = [...run.evidence, text].slice(-EVIDENCE_KEPT);
        return 'held';
      }
      return justFailed(run, at) && !run.reported ? 'judge' : 'dropped';
    },
    reported(cellId) {
      const run = executions.get(cellId);
      if (!run) return;
      run.reported = true;
      run.evidence = [];
    },
    startedAt: (cellId) => executions.get(cellId)?.startedAt ?? null,
    isLive(cellId, at) {
      const run = executions.get(cellId);
      if (!run) return false;
      return run.endedAt === null || at - run.endedAt <= LATE_OUTPUT_MS;
    },
    crashStartedAt(at) {
      let earliest = Number.POSITIVE_INFINITY;
      for (const run of executions.values()) if (active(run)) earliest = Math.min(earliest, run.startedAt);
      for (const r of ended.values())
        if (at - (r.endedAt as number) <= CRASH_LOOKBACK_MS) earliest = Math.min(earliest, r.startedAt);
      return Number.isFinite(earliest) ? earliest : watchingSince;
    },
    anyRunning: () => running.size > 0,
    reset(at) {
      executions.clear();
      running.clear();
      ended.clear();
      watchingSince = at;
    },
  };
}
