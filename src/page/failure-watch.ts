import {
  callsUnassign,
  cellId,
  cellSource,
  type DialogKind,
  dialogText,
  disconnectKind,
  editorText,
  executionCount,
  hasLaterOutput,
  isUnderWay,
  mainOutputTail,
  type NoticeKind,
  noticeWords,
  type OutputKind,
  observeColabPage,
  outputAreaOf,
  outputText,
  type PageObserver,
  type RunState,
  toastDisconnect,
} from '../colab';
import {
  createDetector,
  DEFAULT_CATEGORIES,
  type Detector,
  endsInInterrupt,
  LAUNCH_HINT,
  launchesProgram,
  loadDetector,
  type MarkerMatch,
  type Verdict,
} from '../detector';
import { createExecutionGate, type EndedExecution, LATE_OUTPUT_MS } from '../detector/execution-gate';
import { findRecentLine } from '../detector/text';
import { cut, TEXT_LIMITS } from '../limits';
import type { DisconnectKind } from '../state/disconnect';
import type { FailureSource } from '../state/policy';
import type { DeclineReason, Settings } from '../state/schema';
import { createBlindnessCheck } from './blindness';
import { createExecutionEnds, type ExecutionEnd } from './execution-end';
import { createRunWatch, type Judged, type RunReports } from './run-watch';
import { createRuntimeEnds } from './runtime-end';

/**
 * Turns what the page shows into reports: a cell whose execution (seen here) ended in an error output that shows an
 * OOM, or whose launched program's stream output ends with its death of one; Colab's crash toast; a marker line the
 * user's code printed; a dialog; and a failure seen but left alone, with the reason. Reads what the observer hands
 * it, and when an execution ends, once, what tells how it ended (execution-end.ts).
 * Lives while the guard is on for the notebook: `signal` ends it.
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

export interface FailureWatch {
  configure(settings: Settings): void;
  /** After a restart this page performed: outputs on the page now belong to the previous run. */
  forgetExecutions(): void;
  /** The notebook's last restart (by any tab) was claimed at `at`. */
  restartedAt(at: number): void;
  /** An output frame of `cell` showed an error output; `first`: no output came before it in that frame. */
  frameError(cell: Element, text: string, frame: Element, first: boolean): void;
  /** Text an output frame of `cell` showed (sent only when the user has marker patterns): matched here. */
  frameText(cell: Element, text: string): void;
  /**
   * An output frame of `cell` answered the request `id` for how its outputs end (execution-end.ts): the end of its
   * stream outputs, and whether its last output is an error output.
   */
  frameStreamTail(cell: Element, id: number, text: string, error: boolean): void;
}

export function createFailureWatch(doc: Document, reports: WatchReports, signal: AbortSignal): FailureWatch {
  const gate = createExecutionGate(Date.now());
  const syntheticIds = new WeakMap<Element, string>();
  let detector: Detector = createDetector({ categories: DEFAULT_CATEGORIES, failurePatterns: [], markerPatterns: [] });
  let configured = 0;
  let anonymous = 0;

  const idOf = (cell: Element, id: string | null = cellId(cell)): string => {
    if (id) return id;
    let synthetic = syntheticIds.get(cell);
    if (!synthetic) {
      synthetic = `anonymous-${++anonymous}`;
      syntheticIds.set(cell, synthetic);
    }
    return synthetic;
  };

  /** Where and when each cell's newest error output came, while its execution may still be judged. */
  const newestErrors = new Map<string, NewestError>();
  /**
   * Each output frame made while a cell ran: when, and its output area's page outputs then (mainOutputTail). An error
   * output that is a new frame's first was sent to it when it was made: a frame loading shows it late, after what the
   * page printed since, which came after it.
   */
  const frameMarks = new WeakMap<Element, FrameMark>();

  const runs = createRunWatch(reports.run);

  /** When this page last reported a failure: a restart after it answered it. */
  let reportedAt: number | null = null;
  const failure = (verdict: Verdict, source: FailureSource, startedAt: number) => {
    reportedAt = Date.now();
    reports.failure(verdict, source, startedAt);
  };

  const fail = (id: string, verdict: Verdict, startedAt: number) => {
    ends.forget(id);
    failure(verdict, 'error-output', startedAt);
  };

  /** The newest of `texts` (oldest first) that shows a failure, if one does: what was seen and left alone. */
  const declineSeen = (reason: DeclineReason, texts: readonly string[], startedAt: number) => {
    for (let i = texts.length - 1; i >= 0; i--) {
      const verdict = detector.classifyError(texts[i] ?? '');
      if (verdict) return reports.declined(reason, verdict, startedAt);
    }
  };

  const runtimeEnds = createRuntimeEnds();
  const runtimeGone = (kind: NoticeKind, text: string) => {
    const why = runtimeEnds.notice(kind);
    if (why) reports.disconnect(why, cut(text, TEXT_LIMITS.dialog));
  };

  /**
   * Whether the cell's newest error output was followed by other output of its execution: a later output beside it in
   * the page; an answer from every output frame asked after it came, none ending in an error output; or anything new
   * in the page's outputs since.
   */
  const wentOn = (id: string, end: ExecutionEnd): boolean => {
    const newest = newestErrors.get(id);
    if (!newest) return false;
    if (newest.element ? hasLaterOutput(newest.element) : framesWentOn(end, newest.at)) return true;
    return mainOutputTail(end.cell) !== newest.mark;
  };

  /**
   * The stream's end, judged for a cell that launched a program: with `error` its ending error output (a `%%bash`
   * cell's CalledProcessError), null when it ended without one. True once it said something.
   */
  const judgeStream = (id: string, end: ExecutionEnd, error: string | null): boolean => {
    if (!end.streams || end.tails.includes(null)) return false;
    const launcher = launches(end.cell, end.startedAt);
    if (launcher === false) return false;
    const verdict = detector.classifyShellEnd({ stream: end.tails.filter(Boolean).join('\n'), error });
    if (!verdict) return false;
    if (launcher === null) reports.declined('source-unreadable', verdict, end.startedAt);
    else fail(id, verdict, end.startedAt);
    return true;
  };

  /** How an ended execution ended, judged once what may still come has come (or never will). */
  const decide = (id: string, end: ExecutionEnd): boolean => {
    if (end.outcome === 'ok') {
      if (end.heard) runs.judged(id, { kind: judgeStream(id, end, null) ? 'failure' : 'ok' });
      return end.heard;
    }
    if (wentOn(id, end)) gate.wentOn(id);
    const ending = gate.ending(id, Date.now(), end.heard);
    if (ending.kind === 'wait') return false;
    gate.judged(id);
    newestErrors.delete(id);
    if (ending.kind === 'missing') {
      declineSeen('ending-missing', ending.earlier, end.startedAt);
      runs.judged(id, { kind: 'unknown' });
    }
    if (ending.kind !== 'ending') return true;
    // The person's Stop ends it: nothing is a failure then, whatever came before.
    const stopped = endsInInterrupt(ending.text);
    const verdict = stopped ? null : detector.classifyError(ending.text);
    if (verdict) fail(id, verdict, end.startedAt);
    const judged = !verdict && !stopped && judgeStream(id, end, ending.text);
    if (!verdict && !judged) declineSeen('earlier-error', ending.earlier, end.startedAt);
    runs.judged(
      id,
      verdict || judged ? { kind: 'failure' } : stopped ? { kind: 'interrupt' } : errorEnd(end, ending.text),
    );
    return true;
  };

  const ends = createExecutionEnds(decide, signal);

  /**
   * The start of each cell's execution whose source showed no sign of a launch when it started: the source it runs,
   * read where a Run all queues every cell in one task (one read after another costs less than each at its cell's
   * end, in a task of its own). A source with a sign, or none readable yet, is read again at the end.
   */
  const plainSince = new WeakMap<Element, number>();
  const executionStarted = (id: string, cell: Element) => {
    newestErrors.delete(id);
    const startedAt = gate.startedAt(id);
    if (startedAt === null || plainSince.get(cell) === startedAt) return;
    const source = editorText(cell);
    const said = editorSays(cell, source);
    if (said === 'plain') plainSince.set(cell, startedAt);
    // A possible launch: its end is judged by how its stream ends (a program dying of OOM), the moment it comes. No
    // lines yet (an editor not rendered): its source is read at its end.
    else if (said === 'command') observer?.hurry(cell);
    // A cell that ends its own runtime is seen running, however short its run: the disconnect that follows is its.
    if (source && callsUnassign(source)) observer?.hurry(cell);
  };

  /**
   * The one place an execution seen in this page ends, with the state it ended in. One that ended in error is judged
   * by the error output that ended it; one of a cell that may have launched a program, by how its stream ends.
   */
  const executionEnded = (id: string, cell: Element, ended: EndedExecution): boolean => {
    const { outcome } = ended;
    if (outcome === 'stale') return false;
    const streams = launches(cell, ended.startedAt) !== false;
    if (outcome === 'error' || streams) ends.ended(id, cell, { ...ended, outcome }, streams);
    return outcome === 'error' || streams;
  };

  /**
   * Whether the editor's text shows a mark of a launch, or none (null: no lines to read). Most cells show none:
   * their lines are not read one by one.
   */
  const editorSays = (cell: Element, flat = editorText(cell)): 'plain' | 'command' | null => {
    if (!flat) return null;
    return LAUNCH_HINT.test(flat) ? 'command' : 'plain';
  };
  /** Whether the cell's execution that started at `startedAt` launched a program (null: its code cannot be read). */
  const launches = (cell: Element, startedAt: number): boolean | null => {
    if (plainSince.get(cell) === startedAt) return false;
    const source = cellSource(cell);
    return source === null ? null : launchesProgram(source);
  };

  /** `element`: the error output in the page; `made`: the frame's mark, when it is the first output of a new frame. */
  const errorText = (id: string, text: string, cell: Element, element: Element | null, made?: FrameMark) => {
    const now = Date.now();
    const taken = gate.errorOutput(id, text, now);
    if (taken === 'dropped') return;
    const mark = made && now - made.at <= LATE_OUTPUT_MS ? made.mark : mainOutputTail(cell);
    newestErrors.set(id, { element, at: now, mark });
    if (taken === 'late') ends.lateError(id);
  };

  const markerText = (id: string, text: string) => {
    if (!detector.hasMarkers || !gate.isLive(id, Date.now())) return;
    const match = detector.findMarker(text);
    if (match) reports.marker(match);
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
    if (starts) ends.forget(id);
    if (starts) runtimeEnds.started(cell, state === 'running');
    const ended = gate.cellState(id, state, at);
    if (starts) executionStarted(id, cell);
    const judging = ended ? executionEnded(id, cell, ended) : false;
    runs.cellState(id, starts, ended && { outcome: ended.outcome, judging });
    checkSight(at);
  };

  const outputAdded = (cell: Element, id: string | null, element: Element, kind: OutputKind) => {
    // Most outputs are neither errors nor read by marker patterns: their text is not taken.
    if (kind !== 'error' && !detector.hasMarkers) return;
    const key = idOf(cell, id);
    const text = outputText(element);
    if (kind === 'error') errorText(key, text, cell, element);
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
        // Made while cells run or wait to (a running cell may still read as queued): most likely one of theirs. A
        // frame of another cell is never asked for its mark.
        const area = gate.anyUnderWay() && outputAreaOf(frame);
        if (area) frameMarks.set(frame, { at: Date.now(), mark: mainOutputTail(area) });
      },
      toast(text) {
        const gone = toastDisconnect(text);
        if (gone) return runtimeGone(gone, text);
        const verdict = detector.classifyNotice(text);
        if (!verdict) return;
        // A notebook opened after the crash, a tab restored in the morning: the crash ended no run of this page's.
        if (gate.sawExecution()) failure(verdict, 'crash-toast', gate.crashStartedAt(Date.now()));
        else reports.declined('crash-without-run', verdict, Date.now());
      },
      dialogOpened(kind, dialog) {
        if (kind === 'disconnected') runtimeGone(disconnectKind(dialogText(dialog)), noticeWords(dialog));
        else reports.dialog(kind, cut(noticeWords(dialog), TEXT_LIMITS.dialog));
      },
      kernelChanged: blindness.kernelChanged,
    },
    { wantAllText: detector.hasMarkers },
  );
  checkSight();
  signal.addEventListener('abort', () => {
    observer?.disconnect();
    blindness.stop();
  });

  return {
    configure(settings) {
      if (signal.aborted) return;
      const config = {
        categories: settings.categories,
        failurePatterns: settings.failurePatterns,
        markerPatterns: settings.markerPatterns,
      };
      const mine = ++configured;
      const use = (next: Detector) => {
        // Loads can end out of order (only the first with patterns waits for the engine): the newest settings win.
        if (mine !== configured || signal.aborted) return;
        detector = next;
        observer?.setWantAllText(detector.hasMarkers);
      };
      // The engine's chunk fails to load only when the extension was reloaded: built-in rules still apply.
      loadDetector(config).then(use, () => use(createDetector(config)));
    },
    forgetExecutions() {
      // What changed before the restart belongs to the executions it ends.
      observer?.settle();
      gate.reset(Date.now());
      ends.forget();
      runs.forget();
      runtimeEnds.forget();
      newestErrors.clear();
      checkSight();
    },
    restartedAt(at) {
      // Another tab restarting for a failure seen here too: the runs that ended before it ended with that failure. A
      // restart for a crash whose notice this page has not shown yet leaves them: that notice is still about them.
      if (reportedAt !== null && reportedAt <= at) gate.endedBefore(at);
    },
    frameError(cell, text, frame, first) {
      // Its execution may have ended a moment ago, or end soon: judged the moment it does.
      observer?.hurry(cell);
      errorText(idOf(cell), text, cell, null, first ? frameMarks.get(frame) : undefined);
    },
    frameText: (cell, text) => markerText(idOf(cell), text),
    frameStreamTail(cell, id, text, error) {
      const key = idOf(cell);
      if (gate.isLive(key, Date.now())) ends.frameTail(key, id, text, error);
    },
  };
}

type FrameMark = { at: number; mark: string };

/** An execution stopped by an error that is not out of memory: its cell as the person sees it ("[7]"), its line. */
function errorEnd(end: ExecutionEnd, text: string): Judged {
  // The exception's line of a traceback: its last line that says something.
  const line = findRecentLine(text, (candidate) => candidate.trim() !== '')?.trim() ?? '';
  return { kind: 'error', cell: executionCount(end.cell), line: cut(line, TEXT_LIMITS.line) };
}

/** A cell's newest error output: its element in the page (null: from an output frame), when it came, the mark. */
interface NewestError {
  element: Element | null;
  at: number;
  /** The end of the cell's main-document outputs when it came (mainOutputTail). */
  mark: string;
}

/** Every frame asked answered after `since`, and none ends in an error output: something followed the error there. */
function framesWentOn(end: ExecutionEnd, since: number): boolean {
  const after = end.answers.filter((answer) => answer.at >= since);
  return end.asked > 0 && after.length === end.asked && after.every((answer) => !answer.error);
}
