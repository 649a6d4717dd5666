import {
  cellId,
  cellRunState,
  findCells,
  observeColabPage,
  outputText,
  type PageObserver,
  type PersonOnlyWords,
  personOnlyDialog,
  type RunState,
} from '../colab';
import {
  createDetector,
  DEFAULT_CATEGORIES,
  type Detector,
  loadDetector,
  type MarkerMatch,
  type Verdict,
} from '../detector';
import { createExecutionGate, LATE_OUTPUT_MS } from '../detector/execution-gate';
import { cut, TEXT_LIMITS } from '../limits';
import type { Settings } from '../state/schema';

/**
 * Turns what the page shows into reports: an OOM error output that ended a cell's execution here, Colab's crash toast,
 * a marker line the user's code printed, the "Runtime disconnected" dialog. Reads only what the observer hands it.
 */
export interface WatchReports {
  failure(verdict: Verdict, source: 'error-output' | 'crash-toast'): void;
  marker(match: MarkerMatch): void;
  disconnect(line: string): void;
  /** A dialog only a person may answer opened (reCAPTCHA, usage limit, Drive permission…; colab/dialogs.ts). */
  needsPerson(words: PersonOnlyWords): void;
}

export interface FailureWatch {
  configure(settings: Settings): void;
  /** Observe while the guard is on for this notebook; nothing at all while it is off. */
  setActive(active: boolean): void;
  /** After a restart: outputs on the page now belong to the previous run. */
  forgetExecutions(): void;
  /** An output frame of `cell` showed an error output / any output text (sent only for marker patterns). */
  frameError(cell: Element, text: string): void;
  frameText(cell: Element, text: string): void;
}

export function createFailureWatch(doc: Document, reports: WatchReports): FailureWatch {
  const gate = createExecutionGate();
  const syntheticIds = new WeakMap<Element, string>();
  /** Error text seen before its cell was seen running (a cell that failed within one frame): checked on its 'error'. */
  const early = new Map<string, { text: string; at: number }>();
  let detector: Detector = createDetector({ categories: DEFAULT_CATEGORIES, failurePatterns: [], markerPatterns: [] });
  let anonymous = 0;
  let configured = 0;
  let observer: PageObserver | null = null;

  const idOf = (cell: Element, id: string | null = cellId(cell)): string => {
    if (id) return id;
    let synthetic = syntheticIds.get(cell);
    if (!synthetic) {
      synthetic = `anonymous-${++anonymous}`;
      syntheticIds.set(cell, synthetic);
    }
    return synthetic;
  };

  const errorText = (id: string, text: string) => {
    const now = Date.now();
    if (!gate.accepts(id, now)) {
      if (!gate.isLive(id, now)) early.set(id, { text, at: now });
      return;
    }
    const verdict = detector.classifyError(text);
    if (!verdict) return;
    gate.reported(id);
    reports.failure(verdict, 'error-output');
  };

  const markerText = (id: string, text: string) => {
    if (!detector.hasMarkers || !gate.isLive(id, Date.now())) return;
    const match = detector.findMarker(text);
    if (match) reports.marker(match);
  };

  const cellState = (cell: Element, rawId: string | null, state: RunState, previous: RunState) => {
    const id = idOf(cell, rawId);
    const now = Date.now();
    // Ran and failed between two looks: the failure still ended an execution seen here.
    if (state === 'error' && previous !== 'running') gate.cellState(id, 'running', now);
    gate.cellState(id, state, now);
    const seen = early.get(id);
    early.delete(id);
    if (state === 'error' && seen && now - seen.at <= LATE_OUTPUT_MS) errorText(id, seen.text);
  };

  const start = () => {
    const now = Date.now();
    // Cells already running when the guard starts (a reload mid-run) are executions of this page's lifetime too.
    for (const cell of findCells(doc)) if (cellRunState(cell) === 'running') gate.cellState(idOf(cell), 'running', now);
    observer = observeColabPage(
      doc,
      {
        cellState,
        outputAdded(cell, id, element, kind) {
          const key = idOf(cell, id);
          const text = outputText(element);
          if (kind === 'error') errorText(key, text);
          markerText(key, text);
        },
        streamText: (cell, id, text) => markerText(idOf(cell, id), text),
        toast(text) {
          const verdict = detector.classifyNotice(text);
          if (verdict) reports.failure(verdict, 'crash-toast');
        },
        dialogOpened(kind, dialog) {
          const words = personOnlyDialog(kind);
          if (kind === 'disconnected') reports.disconnect(cut((dialog.textContent ?? '').trim(), TEXT_LIMITS.dialog));
          else if (words) reports.needsPerson(words);
        },
      },
      { wantStreamText: detector.hasMarkers },
    );
  };

  return {
    configure(settings) {
      const config = {
        categories: settings.categories,
        failurePatterns: settings.failurePatterns,
        markerPatterns: settings.markerPatterns,
      };
      const mine = ++configured;
      const use = (next: Detector) => {
        // Loads can end out of order (only the first with patterns waits for the engine): the newest settings win.
        if (mine !== configured) return;
        detector = next;
        observer?.setWantStreamText(detector.hasMarkers);
      };
      // The engine's chunk fails to load only when the extension was reloaded: built-in rules still apply.
      loadDetector(config).then(use, () => use(createDetector(config)));
    },
    setActive(active) {
      if (active && !observer) start();
      if (!active && observer) {
        observer.disconnect();
        observer = null;
        gate.reset();
        early.clear();
      }
    },
    forgetExecutions() {
      gate.reset();
      early.clear();
    },
    frameError: (cell, text) => errorText(idOf(cell), text),
    frameText: (cell, text) => markerText(idOf(cell), text),
  };
}
