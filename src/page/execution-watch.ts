import { isUnderWay, type OutputKind, outputText, type RunState } from '../colab';
import type { Detector, MarkerMatch, Verdict } from '../detector';
import { createExecutionGate, type EndedExecution, type ExecutionGate } from '../detector/execution-gate';
import type { FrameReport } from '../messaging/protocol';
import type { FailureSource } from '../state/policy';
import type { DeclineReason } from '../state/schema';
import { createExecutionEnds } from './execution-end';
import { createExecutionJudge } from './execution-judge';
import { createLaunchCheck } from './launch-check';
import { createOutputFacts } from './output-facts';
import { createRunWatch, type RunReports } from './run-watch';

/** What the executions the page sees tell. */
export interface ExecutionReports {
  /** `startedAt`: when the failed execution started, as this page saw it. */
  failure(verdict: Verdict, source: FailureSource, startedAt: number): void;
  /** A failure seen and not acted on, and why (when in doubt, nothing restarts, and the history says why). */
  declined(reason: DeclineReason, verdict: Verdict, startedAt: number): void;
  marker(match: MarkerMatch): void;
  /** A run began, and how it ended (run-watch.ts). */
  run: RunReports;
}

/** What the execution watch reads with, and whom it tells. */
export interface ExecutionWatchParts {
  detector(): Detector;
  reports: ExecutionReports;
  /** Reads the cell's changes at once from now on (the page observer's `hurry`). */
  hurry(cell: Element): void;
}

/**
 * The executions the page sees, each with its record (detector/execution-gate.ts): fed the cells' run states, their
 * error outputs in the page and the output frames' reports, with where and when each showed (output-facts.ts); judged
 * once each ends (execution-end.ts, execution-judge.ts). Markers are matched in the text of a live execution.
 */
export interface ExecutionWatch {
  readonly gate: ExecutionGate;
  cellState(cell: Element, id: string, state: RunState, at: number): void;
  outputAdded(cell: Element, id: string, element: Element, kind: OutputKind): void;
  streamText(id: string, text: string): void;
  frameAdded(frame: Element): void;
  frameReport(cell: Element, id: string, frame: Element, report: FrameReport['report']): void;
  /** Colab's crash notice, as a failure of the executions it may have ended (started at `startedAt`). */
  crash(verdict: Verdict, startedAt: number): void;
  /** After a restart this page performed: every execution seen so far is over. */
  forget(): void;
  /** The notebook's last restart (by any tab) was claimed at `at`. */
  restartedAt(at: number): void;
}

export function createExecutionWatch({ detector, reports, hurry }: ExecutionWatchParts, signal: AbortSignal) {
  const gate = createExecutionGate(Date.now());
  const facts = createOutputFacts();
  const launch = createLaunchCheck();
  const runs = createRunWatch(reports.run);

  /** When this page last reported a failure: a restart after it answered it. */
  let reportedAt: number | null = null;
  const failure = (verdict: Verdict, source: FailureSource, startedAt: number) => {
    reportedAt = Date.now();
    reports.failure(verdict, source, startedAt);
  };

  const ends = createExecutionEnds(
    createExecutionJudge({
      gate,
      detector,
      launches: launch.launches,
      pageNow: facts.pageNow,
      failure: (verdict, startedAt) => failure(verdict, 'error-output', startedAt),
      declined: reports.declined,
      judged: runs.judged,
    }),
    signal,
  );

  /**
   * The one place an execution seen in this page ends, with the state it ended in. One that ended in error is judged
   * by the error output that ended it; one of a cell that may have launched a program, by how its stream ends.
   */
  const executionEnded = (id: string, cell: Element, ended: EndedExecution): boolean => {
    const { outcome } = ended;
    if (outcome === 'stale') return false;
    const streams = launch.launches(cell, ended.startedAt) !== false;
    if (outcome === 'error' || streams) ends.ended(id, cell, { ...ended, outcome }, streams);
    return outcome === 'error' || streams;
  };

  const markerText = (id: string, text: string) => {
    if (!detector().hasMarkers || !gate.isLive(id, Date.now())) return;
    const match = detector().findMarker(text);
    if (match) reports.marker(match);
  };

  /** An error output of the cell's execution, where and when it showed: judged now if its execution ended. */
  const errorShown = (id: string, { error, marks }: ReturnType<typeof facts.pageError>) => {
    if (gate.errorOutput(id, error, Date.now(), marks) === 'late') ends.lateError(id);
  };

  return {
    gate,
    cellState(cell, id, state, at) {
      const starts = isUnderWay(state);
      if (starts) ends.forget(id);
      const ended = gate.cellState(id, state, at);
      const startedAt = starts ? gate.startedAt(id) : null;
      if (startedAt !== null && launch.started(cell, startedAt)) hurry(cell);
      const judging = ended ? executionEnded(id, cell, ended) : false;
      runs.cellState(id, starts, ended && { outcome: ended.outcome, judging });
    },
    outputAdded(cell, id, element, kind) {
      // Most outputs are neither errors nor read by marker patterns: their text is not taken.
      if (kind !== 'error' && !detector().hasMarkers) return;
      const text = outputText(element);
      if (kind === 'error') errorShown(id, facts.pageError(cell, element, text));
      markerText(id, text);
    },
    streamText: markerText,
    frameAdded(frame) {
      // Made while cells run or wait to (a running cell may still read as queued): most likely one of theirs.
      if (gate.anyUnderWay()) facts.frameMade(frame);
    },
    frameReport(cell, id, frame, report) {
      if (report.kind === 'stream-tail') {
        if (gate.isLive(id, Date.now())) ends.frameTail(id, report.id, report.text, facts.frameEnd(frame, report));
        return;
      }
      if (report.kind === 'error-output') {
        // Its execution may have ended a moment ago, or end soon: judged the moment it does.
        hurry(cell);
        errorShown(id, facts.frameError(cell, frame, report));
      }
      markerText(id, report.text);
    },
    crash: (verdict, startedAt) => failure(verdict, 'crash-toast', startedAt),
    forget() {
      gate.reset(Date.now());
      ends.forget();
      runs.forget();
    },
    restartedAt(at) {
      // Another tab restarting for a failure seen here too: the runs that ended before it ended with that failure. A
      // restart for a crash whose notice this page has not shown yet leaves them: that notice is still about them.
      if (reportedAt !== null && reportedAt <= at) gate.endedBefore(at);
    },
  } satisfies ExecutionWatch as ExecutionWatch;
}
