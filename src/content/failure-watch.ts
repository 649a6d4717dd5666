import {
  callsUnassign,
  cellId,
  cellSource,
  type DialogKind,
  dialogText,
  disconnectKind,
  editorText,
  isUnderWay,
  type NoticeKind,
  noticeWords,
  type OutputKind,
  observeColabPage,
  outputText,
  type PageObserver,
  type RunState,
  toastDisconnect,
} from '../colab';
import {
  createDetector,
  DEFAULT_CATEGORIES,
  type Detector,
  loadDetector,
  type MarkerMatch,
  mayRunProcesses,
  SHELL_SOURCE_HINT,
  type Verdict,
} from '../detector';
import { createExecutionGate, type EndedExecution } from '../detector/execution-gate';
import { BLIND_AFTER_MS, cut, KERNEL_WATCH_AFTER_MS, TEXT_LIMITS } from '../limits';
import type { DisconnectKind } from '../state/disconnect';
import type { Settings } from '../state/schema';
import { createRuntimeEnds } from './runtime-end';
import { createShellEnds } from './shell-end';

/**
 * Turns what the page shows into reports: a cell whose execution (seen here) ended in an error its outputs show to be
 * an OOM, or whose stream output ends with a shell-launched process dying of one; Colab's crash toast; a marker line
 * the user's code printed; a dialog. Reads what the observer hands it, and a cell's stream tail once when it stops.
 * Lives while the guard is on for the notebook: `signal` ends it.
 */
export interface WatchReports {
  /** `startedAt`: when the failed execution started, as this page saw it. */
  failure(verdict: Verdict, source: 'error-output' | 'crash-toast', startedAt: number): void;
  marker(match: MarkerMatch): void;
  /** The runtime went away (`kind`: why), Colab saying `text`. */
  disconnect(kind: DisconnectKind, text: string): void;
  /** A dialog other than a disconnect notice opened (the session decides which ones need a person). */
  dialog(kind: DialogKind, text: string): void;
  /** Detection may be blind (the runtime busy, no cell seen running), or sees a cell running again. */
  sight(blind: boolean): void;
}

export interface FailureWatch {
  configure(settings: Settings): void;
  /** After a restart this page performed: outputs on the page now belong to the previous run. */
  forgetExecutions(): void;
  /** An output frame of `cell` showed an error output. */
  frameError(cell: Element, text: string): void;
  /** Text an output frame of `cell` showed (sent only when the user has marker patterns): matched here. */
  frameText(cell: Element, text: string): void;
  /** An output frame of `cell` answered the request `id` for the end of its stream outputs (shell-end.ts). */
  frameStreamTail(cell: Element, id: number, text: string): void;
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

  const fail = (id: string, verdict: Verdict, startedAt: number) => {
    gate.reported(id);
    shellEnds.forget(id);
    reports.failure(verdict, 'error-output', startedAt);
  };

  /** The first of `texts` (newest first) that is a failure ends the execution's judging; true if one was. */
  const judge = (id: string, texts: readonly string[]): boolean => {
    for (const text of [...texts].reverse()) {
      const verdict = detector.classifyError(text);
      if (!verdict) continue;
      fail(id, verdict, gate.startedAt(id) ?? Date.now());
      return true;
    }
    return false;
  };

  const runtimeEnds = createRuntimeEnds();
  const runtimeGone = (kind: NoticeKind, text: string) => {
    const why = runtimeEnds.notice(kind);
    if (why) reports.disconnect(why, cut(text, TEXT_LIMITS.dialog));
  };

  const shellEnds = createShellEnds((id, end, startedAt) => {
    const verdict = detector.classifyShellEnd(end);
    if (verdict) fail(id, verdict, startedAt);
  }, signal);

  /**
   * The start of each cell's execution whose source showed no sign of a command when it started: the source it runs,
   * read where a Run all queues every cell in one task (one read after another costs less than each at its cell's
   * end, in a task of its own). A source with a sign, or none readable yet, is read again at the end.
   */
  const plainSince = new WeakMap<Element, number>();
  const executionStarted = (id: string, cell: Element) => {
    const startedAt = gate.startedAt(id);
    if (startedAt === null || plainSince.get(cell) === startedAt) return;
    const source = editorText(cell);
    const said = editorSays(cell, source);
    if (said === 'plain') plainSince.set(cell, startedAt);
    // A command: its end is judged by how its stream ends (a process dying of OOM), the moment it comes. No lines yet
    // (an editor not rendered): its source is read at its end.
    else if (said === 'command') observer?.hurry(cell);
    // A cell that ends its own runtime is seen running, however short its run: the disconnect that follows is its.
    if (source && callsUnassign(source)) observer?.hurry(cell);
  };

  /**
   * The one place an execution seen in this page ends, with the state it ended in: a fresh error is judged by the
   * error outputs it showed; without a verdict from them, by how its stream output ends (a shell-launched process).
   */
  const executionEnded = (id: string, cell: Element, ended: EndedExecution) => {
    if (ended.outcome === 'stale') return;
    if (ended.outcome === 'error' && judge(id, ended.evidence)) return;
    // A Python cell that caught an OOM and printed it last ends as a dying script does: only a cell that can start a
    // process (or whose source cannot be read) is read as one.
    if (plainSince.get(cell) === ended.startedAt || !cellMayRunProcesses(cell)) return;
    // Ended in error with no error output yet (undefined): it may come late from a frame; the stream waits for it.
    shellEnds.ended(id, cell, ended.startedAt, ended.outcome === 'ok' ? null : ended.evidence.at(-1));
  };

  /**
   * Whether the editor's text shows a mark of a command, or none (null: no lines to read). Most cells show none:
   * their lines are not read one by one.
   */
  const editorSays = (cell: Element, flat = editorText(cell)): 'plain' | 'command' | null => {
    if (!flat) return null;
    return SHELL_SOURCE_HINT.test(flat) ? 'command' : 'plain';
  };
  const cellMayRunProcesses = (cell: Element) => editorSays(cell) !== 'plain' && mayRunProcesses(cellSource(cell));

  const errorText = (id: string, text: string) => {
    if (gate.errorOutput(id, text, Date.now()) !== 'judge') return;
    if (!judge(id, [text])) shellEnds.lateError(id, text);
  };

  const markerText = (id: string, text: string) => {
    if (!detector.hasMarkers || !gate.isLive(id, Date.now())) return;
    const match = detector.findMarker(text);
    if (match) reports.marker(match);
  };

  // Blind: busy with no cell seen running for BLIND_AFTER_MS. Seeing: a cell running, said once per watch (the record
  // may say blind from another tab or an earlier page) and after each blind spell. Between two cells of a Run all no
  // cell runs for a moment, and the connect button changes at every cell: it is watched only once a stretch with no
  // cell running has lasted KERNEL_WATCH_AFTER_MS (one timer, set again when it fires), and read when the stretch has
  // lasted BLIND_AFTER_MS.
  let blind = false;
  let seen = false;
  /** Since when no cell is seen running (while not blind); null while one is. */
  let unseenSince: number | null = null;
  /** While the connect button is watched: when it last changed (its changes before the watch: the stretch's start). */
  let kernelChangedAt: number | null = null;
  let blindTimer: ReturnType<typeof setTimeout> | undefined;
  const stopLooking = () => {
    unseenSince = null;
    if (kernelChangedAt === null) return;
    kernelChangedAt = null;
    observer?.watchKernel(false);
    // Its timer counts from this stretch: the next stretch sets its own.
    clearTimeout(blindTimer);
    blindTimer = undefined;
  };
  const lookForBlind = () => {
    // Cells' changes that wait to be read (the next cell's start) are read first: a stretch is judged on what the page
    // shows now, however late the change that began it was read. (This timer stays set meanwhile: none is added.)
    if (unseenSince !== null) observer?.settle();
    blindTimer = undefined;
    if (unseenSince === null) return;
    const now = Date.now();
    if (kernelChangedAt === null) {
      // The timer may have been set for an earlier stretch: this one is watched once it has lasted long enough.
      const watchAt = unseenSince + KERNEL_WATCH_AFTER_MS;
      if (now < watchAt) {
        blindTimer = setTimeout(lookForBlind, watchAt - now);
        return;
      }
      kernelChangedAt = unseenSince;
      observer?.watchKernel(true);
      blindTimer = setTimeout(lookForBlind, unseenSince + BLIND_AFTER_MS - now);
      return;
    }
    if (!observer?.kernelBusy()) {
      stopLooking();
      return;
    }
    // Busy now, and surely since its last change only: the spell is counted from the later of the two.
    const left = Math.max(unseenSince, kernelChangedAt) + BLIND_AFTER_MS - now;
    if (left > 0) {
      blindTimer = setTimeout(lookForBlind, left);
      return;
    }
    blind = true;
    stopLooking();
    reports.sight(true);
  };
  /** `at`: when what changed the sight changed (a cell's state read a moment after it changed). */
  const checkSight = (at = Date.now()) => {
    const running = gate.anyRunning();
    if (running && (blind || !seen)) {
      blind = false;
      seen = true;
      reports.sight(false);
    }
    if (running || blind) {
      stopLooking();
      return;
    }
    unseenSince ??= at;
    blindTimer ??= setTimeout(lookForBlind, unseenSince + KERNEL_WATCH_AFTER_MS - Date.now());
  };

  const cellState = (cell: Element, rawId: string | null, state: RunState, _previous: RunState, at: number) => {
    const id = idOf(cell, rawId);
    const starts = isUnderWay(state);
    if (starts) shellEnds.forget(id);
    if (starts) runtimeEnds.started(cell, state === 'running');
    const ended = gate.cellState(id, state, at);
    if (starts) executionStarted(id, cell);
    if (ended) executionEnded(id, cell, ended);
    checkSight(at);
  };

  const outputAdded = (cell: Element, id: string | null, element: Element, kind: OutputKind) => {
    // Most outputs are neither errors nor read by marker patterns: their text is not taken.
    if (kind !== 'error' && !detector.hasMarkers) return;
    const key = idOf(cell, id);
    const text = outputText(element);
    if (kind === 'error') errorText(key, text);
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
      toast(text) {
        const gone = toastDisconnect(text);
        if (gone) return runtimeGone(gone, text);
        const verdict = detector.classifyNotice(text);
        if (verdict) reports.failure(verdict, 'crash-toast', gate.crashStartedAt(Date.now()));
      },
      dialogOpened(kind, dialog) {
        if (kind === 'disconnected') runtimeGone(disconnectKind(dialogText(dialog)), noticeWords(dialog));
        else reports.dialog(kind, cut(noticeWords(dialog), TEXT_LIMITS.dialog));
      },
      kernelChanged() {
        if (kernelChangedAt !== null) kernelChangedAt = Date.now();
      },
    },
    { wantAllText: detector.hasMarkers },
  );
  checkSight();
  signal.addEventListener('abort', () => {
    observer?.disconnect();
    clearTimeout(blindTimer);
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
      shellEnds.forget();
      runtimeEnds.forget();
      checkSight();
    },
    frameError(cell, text) {
      // Its execution may have ended a moment ago, or end soon: judged the moment it does.
      observer?.hurry(cell);
      errorText(idOf(cell), text);
    },
    frameText: (cell, text) => markerText(idOf(cell), text),
    frameStreamTail(cell, id, text) {
      const key = idOf(cell);
      if (gate.isLive(key, Date.now())) shellEnds.frameTail(key, id, text);
    },
  };
}
