/**
 * When to act, and on what. A failure counts only for an execution this page saw queued or running since
 * its last restart, that then ended in a fresh error. `stale` (REFERENCE §11.4) marks a state from an earlier kernel
 * session: a saved error, a cell scrolled into view with its old outputs, a cell killed by a restart; it is never
 * fresh. The cell's state is the trigger, and the error output that ended the execution is the evidence: the last
 * one in output order, which may arrive late from an output frame. An earlier error output (a caught OOM shown with
 * IPython's `showtraceback()`, after which the run went on) is never the ending, and neither is one shown long before
 * the execution ended. An execution that ends any other way has no ending error output: an error-looking output of a
 * cell that goes on is not a failure.
 */

/**
 * How long after an execution ended in error its ending error output may still arrive (an output frame loading), and
 * how long before its end it may have arrived: the kernel sends the error that ends an execution just before it
 * reports the end.
 */
export const LATE_OUTPUT_MS = 10_000;
/**
 * How far back a crash notice looks for the executions it ended. Every tab on the notebook shows the crash, a
 * background one possibly late, by when the next run may already have started there.
 */
export const CRASH_LOOKBACK_MS = 5 * 60_000;
/** Error outputs kept per execution: the newest (each already cut to what the detector reads). */
const ERRORS_KEPT = 8;
/** Ended executions remembered for crash notices, at most. */
const RECENT_KEPT = 500;

/** A cell's run state as the page reads it; 'stale-error' is an error from an earlier kernel session. */
export type GateRunState = 'idle' | 'pending' | 'running' | 'error' | 'stale-error';

export type ExecutionOutcome = 'ok' | 'error' | 'stale';

/** An execution seen in this page that just ended. */
export interface EndedExecution {
  startedAt: number;
  endedAt: number;
  outcome: ExecutionOutcome;
}

/**
 * What ended an execution that ended in error, as far as is known at a moment:
 * - `ending`: its ending error output (`text`), and the error outputs shown before it (`earlier`, oldest first);
 * - `wait`: the ending has not arrived (yet): the newest error output is not it, or what may still show a later one
 *   has not said all it holds; the late-output window is still open;
 * - `missing`: the window closed without it (`earlier`: the error outputs it did show);
 * - `none`: nothing to judge (no such execution, not ended in error, or already judged).
 */
export type Ending =
  | { kind: 'ending'; text: string; earlier: readonly string[] }
  | { kind: 'wait' }
  | { kind: 'missing'; earlier: readonly string[] }
  | { kind: 'none' };

interface ErrorShown {
  text: string;
  /** When it arrived in this page. */
  at: number;
  /** Other output of the execution followed it: the run went on after it. */
  wentOn: boolean;
}

interface Execution {
  startedAt: number;
  endedAt: number | null;
  outcome: ExecutionOutcome | null;
  /** Judged: nothing more is taken for it. */
  judged: boolean;
  errors: ErrorShown[];
}

export interface ExecutionGate {
  /** A cell's run state as the page shows it now; returns the execution this state ended, if it ended one. */
  cellState(cellId: string, state: GateRunState, now: number): EndedExecution | null;
  /**
   * An error output of the cell: 'held' for the execution still running, 'late' for one that ended in error a moment
   * ago and is not judged yet (it may be its ending), or 'dropped' (no execution of this page's to attach it to).
   */
  errorOutput(cellId: string, text: string, now: number): 'held' | 'late' | 'dropped';
  /** Other output followed the cell's newest error output: its run went on after it, so it ended nothing. */
  wentOn(cellId: string): void;
  /**
   * What ended the cell's last execution, if it ended in error. `heard`: everything that may still show a later error
   * output of it (its output frames) has said all it holds.
   */
  ending(cellId: string, now: number, heard: boolean): Ending;
  /** One verdict per execution, however many outputs show it: nothing more is taken for it. */
  judged(cellId: string): void;
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
  /** Some execution was seen queued or running since the page began watching or last restarted. */
  sawExecution(): boolean;
  /** Some execution is seen running now (not only queued). */
  anyRunning(): boolean;
  /**
   * Some execution is seen queued or running now. (A cell's start to run may still wait to be read: a queued one
   * may already run.)
   */
  anyUnderWay(): boolean;
  /** After a restart this page performed: every execution seen so far is over; old outputs are history. */
  reset(now: number): void;
  /**
   * A restart at `at` (another tab's) answered a failure this page reported: what had ended before it ended with that
   * failure, so a later crash notice does not look back at it.
   */
  endedBefore(at: number): void;
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
  /** Cells whose execution is under way (queued or running): a Run all's whole queue. */
  const underWay = new Set<string>();
  /**
   * The newest ended executions (RECENT_KEPT) in the order they ended, for a crash notice, which reads those within
   * its window. Ending one touches nothing older: a Run all ends one per cell, each in a small task of its own.
   */
  const ended = queue<Execution>();
  let watchingSince = now;
  /** Executions that ended before this are not a crash notice's (endedBefore). */
  let crashFloor = Number.NEGATIVE_INFINITY;

  const active = (run: Execution | undefined): boolean => run !== undefined && run.endedAt === null;

  const end = (cellId: string, run: Execution, outcome: ExecutionOutcome, at: number): EndedExecution => {
    run.endedAt = at;
    run.outcome = outcome;
    running.delete(cellId);
    underWay.delete(cellId);
    if (ended.size() >= RECENT_KEPT) ended.dropFirst();
    ended.push(run);
    // Only an end in error has an ending error output: the others' error outputs ended nothing.
    if (outcome !== 'error') run.errors = [];
    return { startedAt: run.startedAt, endedAt: at, outcome };
  };

  /** Ended in error, not judged, and its late outputs still taken at `at`. */
  const awaited = (run: Execution, at: number): boolean =>
    run.outcome === 'error' && !run.judged && at - (run.endedAt as number) <= LATE_OUTPUT_MS;

  return {
    cellState(cellId, state, at) {
      const run = executions.get(cellId);
      if (state === 'pending' || state === 'running') {
        if (state === 'running') running.add(cellId);
        underWay.add(cellId);
        // A running state after the queued one is the same execution.
        if (!run || !active(run))
          executions.set(cellId, { startedAt: at, endedAt: null, outcome: null, judged: false, errors: [] });
        return null;
      }
      if (!run || !active(run)) return null;
      const outcome = state === 'error' ? 'error' : state === 'stale-error' ? 'stale' : 'ok';
      return end(cellId, run, outcome, at);
    },
    errorOutput(cellId, text, at) {
      const run = executions.get(cellId);
      const held = active(run);
      if (!run || (!held && !awaited(run, at))) return 'dropped';
      run.errors = [...run.errors, { text, at, wentOn: false }].slice(-ERRORS_KEPT);
      return held ? 'held' : 'late';
    },
    wentOn(cellId) {
      const newest = executions.get(cellId)?.errors.at(-1);
      if (newest) newest.wentOn = true;
    },
    ending(cellId, at, heard) {
      const run = executions.get(cellId);
      if (run?.outcome !== 'error' || run.judged) return { kind: 'none' };
      const texts = run.errors.map((e) => e.text);
      const newest = run.errors.at(-1);
      // Shown long before the end, the run went on after it, however quietly.
      const ends = !!newest && !newest.wentOn && (run.endedAt as number) - newest.at <= LATE_OUTPUT_MS;
      if (ends && heard) return { kind: 'ending', text: newest.text, earlier: texts.slice(0, -1) };
      if (awaited(run, at)) return { kind: 'wait' };
      return ends
        ? { kind: 'ending', text: newest.text, earlier: texts.slice(0, -1) }
        : { kind: 'missing', earlier: texts };
    },
    judged(cellId) {
      const run = executions.get(cellId);
      if (!run) return;
      run.judged = true;
      run.errors = [];
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
      for (const r of ended.values()) {
        const endedAt = r.endedAt as number;
        if (at - endedAt <= CRASH_LOOKBACK_MS && endedAt >= crashFloor) earliest = Math.min(earliest, r.startedAt);
      }
      return Number.isFinite(earliest) ? earliest : watchingSince;
    },
    sawExecution: () => executions.size > 0,
    anyRunning: () => running.size > 0,
    anyUnderWay: () => underWay.size > 0,
    reset(at) {
      executions.clear();
      running.clear();
      underWay.clear();
      ended.clear();
      watchingSince = at;
    },
    endedBefore(at) {
      crashFloor = Math.max(crashFloor, at);
    },
  };
}
