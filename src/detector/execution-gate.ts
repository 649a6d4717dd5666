/**
 * When to act, and on what: one record per execution this page saw (a cell's id and the start of its run), holding
 * its error outputs, where and when each showed, and the page's marks taken meanwhile; the record alone judges how
 * the execution ended. A failure counts only for an execution this page saw queued or running since its last restart,
 * that then ended in a fresh error. `stale` (REFERENCE §11.4) marks a state from an earlier kernel session: a saved
 * error, a cell scrolled into view with its old outputs, a cell killed by a restart; it is never fresh. The cell's
 * state is the trigger, and the error output that ended the execution is the evidence: its last output, by the order
 * the evidence gives across the page and its output frames (output-order.ts), which may arrive late from a frame. An
 * error output the run went on after (a caught OOM shown with IPython's `showtraceback()`, then other output in the
 * same place or elsewhere) is never the ending, and neither is one shown long before the execution ended. Where
 * whether the run went on cannot be told, nothing is the ending. An execution that ends any other way has no ending
 * error output: an error-looking output of a cell that goes on is not a failure.
 */

import { cameAfter, type Numbered, numbersOrder, PAGE, type Shown } from './output-order';

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
/** The page's marks kept per execution: the newest (each 256 characters at most). */
const MARKS_KEPT = 16;
/** Ended executions remembered for crash notices, at most. */
const RECENT_KEPT = 500;
/** What an execution holds before its first error output and once judged: one array for all (a Run all makes 1,000). */
const NONE: readonly never[] = Object.freeze([]);

/** A cell's run state as the page reads it; 'stale-error' is an error from an earlier kernel session. */
export type GateRunState = 'idle' | 'pending' | 'running' | 'error' | 'stale-error';

export type ExecutionOutcome = 'ok' | 'error' | 'stale';

/** An execution seen in this page that just ended. */
export interface EndedExecution {
  startedAt: number;
  endedAt: number;
  outcome: ExecutionOutcome;
}

/** An error output of an execution: where and when it showed (output-order.ts), its text as the detector reads it. */
export interface ErrorShown extends Shown {
  text: string;
}

/**
 * The end of what the page's renderer showed of a cell's outputs at a moment (`at`): compared with its end now, it
 * tells whether the page printed anything since.
 */
export interface PageMark {
  at: number;
  mark: string;
}

/** How many outputs a place shows, and the numbers (`output-id-N`, null for one without) of its newest, in order. */
export interface OutputList {
  count: number;
  ids: ReadonlyArray<number | null>;
}

/** What an output frame of the cell answered when asked how its outputs end. */
export interface FrameEnd extends OutputList {
  place: number;
  /** Its last output is an error output. */
  error: boolean;
  /** When its last output arrived (output-order.ts's bounds). */
  from: number;
  to: number;
}

/** What is known of an ended execution's outputs besides its error outputs, when it is judged. */
export interface EndFacts {
  /** Everything that may still show a later output of it (its output frames) has said all it holds. */
  heard: boolean;
  /** The page renderer's outputs now, and the end of what they show (PageMark's). */
  page: OutputList & { mark: string };
  /** The answers of its output frames so far. */
  frames: readonly FrameEnd[];
}

/**
 * What ended an execution that ended in error, as far as is known at a moment:
 * - `ending`: its ending error output (`text`); `rivals`, error outputs that may as well have ended it (shown near
 *   the end: a script in the output can add outputs after the real one); `earlier`, every other error output it
 *   showed, oldest first;
 * - `wait`: the ending has not arrived (yet): an output followed the newest error output, or whether one did is not
 *   known, or what may still show a later one has not said all it holds; the late-output window is still open;
 * - `missing`: the window closed without it (`earlier`: the error outputs it did show; `unclear`: whether an output
 *   followed the newest one could not be told, where otherwise one did);
 * - `none`: nothing to judge (no such execution, not ended in error, or already judged).
 */
export type Ending =
  | { kind: 'ending'; text: string; rivals: readonly string[]; earlier: readonly string[] }
  | { kind: 'wait' }
  | { kind: 'missing'; earlier: readonly string[]; unclear: boolean }
  | { kind: 'none' };

interface Execution {
  startedAt: number;
  endedAt: number | null;
  outcome: ExecutionOutcome | null;
  /** Judged: nothing more is taken for it. */
  judged: boolean;
  /** Its error outputs, in the order they were reported (the newest ERRORS_KEPT). */
  errors: readonly ErrorShown[];
  /** The page's marks taken while it ran, by time (the newest MARKS_KEPT). */
  marks: readonly PageMark[];
}

export interface ExecutionGate {
  /** A cell's run state as the page shows it now; returns the execution this state ended, if it ended one. */
  cellState(cellId: string, state: GateRunState, now: number): EndedExecution | null;
  /**
   * An error output of the cell, with the page's marks taken when it came (and, for a frame's, when the frame was
   * made): 'held' for the execution still running, 'late' for one that ended in error a moment ago and is not judged
   * yet (it may be its ending), or 'dropped' (no execution of this page's to attach it to).
   */
  errorOutput(cellId: string, error: ErrorShown, now: number, marks: readonly PageMark[]): 'held' | 'late' | 'dropped';
  /** What ended the cell's last execution, if it ended in error, judged on its record and `facts`. */
  ending(cellId: string, now: number, facts: EndFacts): Ending;
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
    if (outcome !== 'error') forgetOutputs(run);
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
          executions.set(cellId, {
            startedAt: at,
            endedAt: null,
            outcome: null,
            judged: false,
            errors: NONE,
            marks: NONE,
          });
        return null;
      }
      if (!run || !active(run)) return null;
      const outcome = state === 'error' ? 'error' : state === 'stale-error' ? 'stale' : 'ok';
      return end(cellId, run, outcome, at);
    },
    errorOutput(cellId, error, at, marks) {
      const run = executions.get(cellId);
      const held = active(run);
      if (!run || (!held && !awaited(run, at))) return 'dropped';
      run.errors = [...run.errors, error].slice(-ERRORS_KEPT);
      run.marks = [...run.marks, ...marks].sort((a, b) => a.at - b.at).slice(-MARKS_KEPT);
      return held ? 'held' : 'late';
    },
    ending(cellId, at, facts) {
      const run = executions.get(cellId);
      if (run?.outcome !== 'error' || run.judged) return { kind: 'none' };
      const judged = judge(run, facts, at);
      if (judged.kind === 'ending' && facts.heard) return judged;
      if (awaited(run, at)) return { kind: 'wait' };
      return judged;
    },
    judged(cellId) {
      const run = executions.get(cellId);
      if (!run) return;
      run.judged = true;
      forgetOutputs(run);
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

function forgetOutputs(run: Execution): void {
  run.errors = NONE;
  run.marks = NONE;
}

/**
 * The ending of an execution that ended in error, on what is known now (the window and `heard` aside): its newest
 * error output, by the order the evidence gives (output-order.ts), unless an output of the run came after it, or
 * whether one did cannot be told, or it showed long before the end (the run went on however quietly).
 */
function judge(run: Execution, facts: EndFacts, at: number): Ending {
  const lasts = lastOutputs(run, facts, at);
  const numbered = numbersOrder([...run.errors, ...numbersOf(facts)]);
  const errors = ordered(run.errors, numbered);
  const newest = errors.at(-1);
  if (!newest) return { kind: 'missing', earlier: [], unclear: false };
  const texts = errors.map((e) => e.text);
  const after = lasts.map((last) => cameAfter(last, newest, numbered));
  const quiet = (run.endedAt as number) - newest.to > LATE_OUTPUT_MS;
  if (quiet || after.includes(true)) return { kind: 'missing', earlier: texts, unclear: false };
  if (after.includes(null)) return { kind: 'missing', earlier: texts, unclear: true };
  // Error outputs shown near the end may as well have ended it: whatever came between them may be a script's doing.
  const rivals = errors.filter((e) => e !== newest && (run.endedAt as number) - e.to <= LATE_OUTPUT_MS);
  return { kind: 'ending', text: newest.text, rivals: rivals.map((e) => e.text), earlier: texts.slice(0, -1) };
}

/**
 * The last output of each place as known now: the page's (its time told by the marks: after the newest one that
 * differs from the page now, and not after the oldest one since that does not), and each answering frame's.
 */
function lastOutputs(run: Execution, { page, frames }: EndFacts, at: number): Shown[] {
  const lasts: Shown[] = frames.flatMap(({ place, count, ids, from, to }) =>
    count ? [{ place, index: count - 1, id: ids.at(-1) ?? null, from, to }] : [],
  );
  if (!page.count) return lasts;
  let from = 0;
  let to = at;
  for (let i = run.marks.length - 1; i >= 0; i--) {
    const mark = run.marks[i] as PageMark;
    // Changed after that moment: half a millisecond stands for "after", on a clock counting whole ones.
    if (mark.mark !== page.mark) {
      from = mark.at + 0.5;
      break;
    }
    to = mark.at;
  }
  return [...lasts, { place: PAGE, index: page.count - 1, id: page.ids.at(-1) ?? null, from, to }];
}

/** Every output's number at its position, from the page's and the frames' lists. */
function numbersOf({ page, frames }: EndFacts): Numbered[] {
  return [{ place: PAGE, ...page }, ...frames].flatMap(({ place, count, ids }) =>
    ids.map((id, k) => ({ place, index: count - ids.length + k, id })),
  );
}

/** `errors` (as reported) in the order the evidence gives; those it cannot order keep the order they came in. */
function ordered(errors: readonly ErrorShown[], numbered: boolean): ErrorShown[] {
  const sorted: ErrorShown[] = [];
  for (const error of errors) {
    let i = sorted.length;
    while (i > 0 && cameAfter(sorted[i - 1] as ErrorShown, error, numbered) === true) i--;
    sorted.splice(i, 0, error);
  }
  return sorted;
}
