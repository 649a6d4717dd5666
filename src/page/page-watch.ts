import { cellId, type DialogKind, isUnderWay, observeColabPage, type PageHandlers, type PageObserver } from '../colab';
import type { FrameReport } from '../messaging/protocol';
import type { DisconnectKind } from '../state/disconnect';
import type { Settings } from '../state/schema';
import { createBlindnessCheck } from './blindness';
import { createDetectorSlot } from './detector-slot';
import { createExecutionWatch, type ExecutionReports } from './execution-watch';
import { routeNotices } from './notice-routing';
import { createRuntimeEnds } from './runtime-end';

/**
 * Watches the page for what the guard reports: a cell whose execution (seen here) ended in an error output that shows
 * an OOM, or whose launched program's stream output ends with its death of one (execution-watch.ts); Colab's crash
 * toast, disconnects and dialogs (notice-routing.ts); a marker line the user's code printed; a failure seen but left
 * alone, with the reason; how runs end; whether it can see (blindness.ts). The page observer's records and the output
 * frames' reports are its facts. Lives while the guard is on for the notebook: `signal` ends it.
 */
export interface WatchReports extends ExecutionReports {
  /** The runtime went away (`kind`: why), Colab saying `text`. */
  disconnect(kind: DisconnectKind, text: string): void;
  /** A dialog other than a disconnect notice opened (the session decides which ones need a person). */
  dialog(kind: DialogKind, text: string): void;
  /** Detection may be blind (the runtime busy, no cell seen running), or sees a cell running again. */
  sight(blind: boolean): void;
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
  // Reads the page through the observer, assigned once the first look is over: cells found running then are read
  // before it is.
  let observer: PageObserver | undefined;
  const detector = createDetectorSlot((next) => observer?.setWantAllText(next.hasMarkers), signal);
  const executions = createExecutionWatch(
    { detector: () => detector.current, reports, hurry: (cell) => observer?.hurry(cell) },
    signal,
  );
  const { gate } = executions;
  const runtimeEnds = createRuntimeEnds();
  const idOf = anonymousIds();

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

  const handlers: PageHandlers = {
    cellState(cell, rawId, state, _previous, at) {
      if (isUnderWay(state)) runtimeEnds.started(cell, state === 'running');
      executions.cellState(cell, idOf(cell, rawId), state, at);
      checkSight(at);
    },
    outputAdded: (cell, id, element, kind) => executions.outputAdded(cell, idOf(cell, id), element, kind),
    streamText: (cell, id, text) => executions.streamText(idOf(cell, id), text),
    frameAdded: executions.frameAdded,
    ...routeNotices(gate, () => detector.current, runtimeEnds, {
      crash: executions.crash,
      declined: reports.declined,
      disconnect: reports.disconnect,
      dialog: reports.dialog,
    }),
    kernelChanged: blindness.kernelChanged,
  };
  observer = observeColabPage(doc, handlers, { wantAllText: detector.current.hasMarkers });
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
      executions.forget();
      runtimeEnds.forget();
      checkSight();
    },
    restartedAt: executions.restartedAt,
    frameReport: (cell, frame, report) => executions.frameReport(cell, idOf(cell), frame, report),
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
