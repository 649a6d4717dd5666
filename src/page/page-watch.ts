import {
  cellId,
  type DialogKind,
  isUnderWay,
  type OutputKind,
  observeColabPage,
  outputText,
  type PageObserver,
  type RunState,
} from '../colab';
import type { MarkerMatch, Verdict } from '../detector';
import { createExecutionGate, type EndedExecution } from '../detector/execution-gate';
import type { FrameReport } from '../messaging/protocol';
import type { DisconnectKind } from '../state/disconnect';
import type { FailureSource } from '../state/policy';
import type { DeclineReason, Settings } from '../state/schema';
import { createBlindnessCheck } from './blindness';
import { createDetectorSlot } from './detector-slot';
import { createExecutionEnds } from './execution-end';
import { createExecutionJudge } from './execution-judge';
import { createLaunchCheck } from './launch-check';
import { routeNotices } from './notice-routing';
import { createOutputFacts } from './output-facts';
import { createRunWatch, type RunReports } from './run-watch';
import { createRuntimeEnds } from './runtime-end';

/**
 * Watches the page for what the guard reports: a cell whose execution (seen here) ended in an error output that shows
 * an OOM, or whose launched program's stream output ends with its death of one; Colab's crash toast; a marker line
 * the user's code printed; a dialog; a failure seen but left alone, with the reason; how runs end; whether it can see.
 * It gathers the facts (the observer's, the output frames' reports) into one record per execution
 * (detector/execution-gate.ts), which judges how each ended (execution-judge.ts), once, when it ends
 * (execution-end.ts). Lives while the guard is on for the notebook: `signal` ends it.
 */
export interface WatchReports {
  /** `startedAt`: when the failed execution started, as this page saw it. */
  failure(verdict: Verdict, source: FailureSource, startedAt: number): void;
  /** A failure seen and not acted on, and why (when in doubt, nothing restarts, and the history says why). */
  declined(reason: DeclineReason, verdict: Verdict, startedAt: number): void;
  marker(match: MarkerMatch): void;
  /** The runtime went away (`kind`: why), Colab saying `text`. */
  disconnect(kind: DisconnectKind, text: string): void;
  /** A dialog other than a disconnect notice opened (the session decides which ones need a person). */
  dialog(kind: DialogKind, text: string): void;
  /** Detection may be blind (the runtime busy, no cell seen running), or sees a cell running again. */
  sight(blind: boolean): void;
  /** A run began, and how it ended (run-watch.ts). */
  run: RunReports;
}

export interface PageWatch {
  configure(settings: Settings): void;
  /** After a restart this page performed: outputs on the page now belong to the previous run. */
  forgetExecutions(): void;
  /** The notebook's last restart (by any tab) was claimed at `at`. */
  restartedAt(at: number): void;
  /** An output frame of `cell` reported (receive-frame-reports.ts, validated): an error output, text, its ending. */
  frameReport(cell: Element, frame: Element, report: FrameReport['report']): void;
}

export function createPageWatch(doc: Document, reports: WatchReports, signal: AbortSignal): PageWatch {
  const gate = createExecutionGate(Date.now());
  const facts = createOutputFacts();
  const launch = createLaunchCheck();
  const runs = createRunWatch(reports.run);
  const runtimeEnds = createRuntimeEnds();
  const detector = createDetectorSlot((next) => observer?.setWantAllText(next.hasMarkers), signal);
  const idOf = anonymousIds();

  /** When this page last reported a failure: a restart after it answered it. */
  let reportedAt: number | null = null;
  const failure = (verdict: Verdict, source: FailureSource, startedAt: number) => {
    reportedAt = Date.now();
    reports.failure(verdict, source, startedAt);
  };

  const ends = createExecutionEnds(
    createExecutionJudge({
      gate,
      detector: () => detector.current,
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
    if (!detector.current.hasMarkers || !gate.isLive(id, Date.now())) return;
    const match = detector.current.findMarker(text);
    if (match) reports.marker(match);
  };

  /** An error output of the cell's execution, where and when it showed: judged now if its execution ended. */
  const errorShown = (id: string, shown: ReturnType<typeof facts.pageError>) => {
    if (gate.errorOutput(id, shown.error, Date.now(), shown.marks) === 'late') ends.lateError(id);
  };

  // Reads the page through the observer, assigned once the first look is over: cells found running then are read
  // before it is.
  const blindness = createBlindnessCheck(
    {
      settle: () => observer?.settle(),
      watchKernel: (on) => observer?.watchKernel(on),
      kernelBusy: () => !!observer?.kernelBusy(),
    },
    (blind) => reports.sight(blind),
  );
  /** `at`: when what changed the sight changed (a cell's state read a moment after it changed). */
  const checkSight = (at?: number) => blindness.check(gate.anyRunning(), at);

  const cellState = (cell: Element, rawId: string | null, state: RunState, _previous: RunState, at: number) => {
    const id = idOf(cell, rawId);
    const starts = isUnderWay(state);
    if (starts) {
      ends.forget(id);
      runtimeEnds.started(cell, state === 'running');
    }
    const ended = gate.cellState(id, state, at);
    const startedAt = starts ? gate.startedAt(id) : null;
    if (startedAt !== null && launch.started(cell, startedAt)) observer?.hurry(cell);
    const judging = ended ? executionEnded(id, cell, ended) : false;
    runs.cellState(id, starts, ended && { outcome: ended.outcome, judging });
    checkSight(at);
  };

  const outputAdded = (cell: Element, id: string | null, element: Element, kind: OutputKind) => {
    // Most outputs are neither errors nor read by marker patterns: their text is not taken.
    if (kind !== 'error' && !detector.current.hasMarkers) return;
    const key = idOf(cell, id);
    const text = outputText(element);
    if (kind === 'error') errorShown(key, facts.pageError(cell, element, text));
    markerText(key, text);
  };

  // Assigned once the first look at the page is over: the cells found running then are reported before it returns.
  let observer: PageObserver | undefined;
  observer = observeColabPage(
    doc,
    {
      cellState,
      outputAdded,
      streamText: (cell, id, text) => markerText(idOf(cell, id), text),
      frameAdded(frame) {
        // Made while cells run or wait to (a running cell may still read as queued): most likely one of theirs.
        if (gate.anyUnderWay()) facts.frameMade(frame);
      },
      ...routeNotices(gate, () => detector.current, runtimeEnds, {
        crash: (verdict, startedAt) => failure(verdict, 'crash-toast', startedAt),
        declined: reports.declined,
        disconnect: reports.disconnect,
        dialog: reports.dialog,
      }),
      kernelChanged: blindness.kernelChanged,
    },
    { wantAllText: detector.current.hasMarkers },
  );
  checkSight();
  signal.addEventListener('abort', () => {
    observer?.disconnect();
    blindness.stop();
  });

  return {
    configure: detector.configure,
    forgetExecutions() {
      // What changed before the restart belongs to the executions it ends.
      observer?.settle();
      gate.reset(Date.now());
      ends.forget();
      runs.forget();
      runtimeEnds.forget();
      checkSight();
    },
    restartedAt(at) {
      // Another tab restarting for a failure seen here too: the runs that ended before it ended with that failure. A
      // restart for a crash whose notice this page has not shown yet leaves them: that notice is still about them.
      if (reportedAt !== null && reportedAt <= at) gate.endedBefore(at);
    },
    frameReport(cell, frame, report) {
      const id = idOf(cell);
      if (report.kind === 'stream-tail') {
        if (gate.isLive(id, Date.now())) ends.frameTail(id, report.id, report.text, facts.frameEnd(frame, report));
        return;
      }
      if (report.kind === 'error-output') {
        // Its execution may have ended a moment ago, or end soon: judged the moment it does.
        observer?.hurry(cell);
        errorShown(id, facts.frameError(cell, frame, report));
      }
      markerText(id, report.text);
    },
  };
}

/** Each cell's id, or one made up for a cell without (an older page), kept with the cell. */
function anonymousIds(): (cell: Element, id?: string | null) => string {
  const made = new WeakMap<Element, string>();
  let anonymous = 0;
  return (cell, id = cellId(cell)) => {
    if (id) return id;
    let synthetic = made.get(cell);
    if (!synthetic) {
      synthetic = `anonymous-${++anonymous}`;
      made.set(cell, synthetic);
    }
    return synthetic;
  };
}
