import { outputFramesOf, streamOutputsIn, streamTail } from '../colab';
import { type EndedExecution, type FrameEnd, LATE_OUTPUT_MS } from '../detector/execution-gate';
import { childLifetime } from './lifetime';
import { askStreamTail } from './receive-frame-reports';

/**
 * What is read when an execution seen here ends, once, and only for the executions that need it: one that ended in
 * error (its ending error output may still come from an output frame), or one of a cell that may have launched a
 * program (how its stream ends). The main document's stream tail is read at once; each output frame of the
 * cell is asked for how its outputs end (receive-frame-reports.ts), and its answer comes after every error output
 * it held: the end of its stream, and its outputs' order (their count, numbers, and when the last one arrived).
 * `decide` is called with what is known so far: at the end, at each answer, at each late error output, and a last
 * time when the late-output window closes. Nothing happens per streamed chunk, and what never arrives costs nothing
 * after the window.
 */
export interface ExecutionEnd {
  readonly cell: Element;
  readonly startedAt: number;
  readonly outcome: 'ok' | 'error';
  /** Whether its stream output is read: the main document's, then each asked frame's in page order (null till then). */
  readonly streams: boolean;
  readonly tails: ReadonlyArray<string | null>;
  /** How many frames were asked, and how the outputs of those that answered end. */
  readonly asked: number;
  readonly frames: readonly FrameEnd[];
  /** Every frame asked has answered, or the window closed (nothing more will count). */
  readonly heard: boolean;
}

export interface ExecutionEnds {
  ended(key: string, cell: Element, ended: EndedExecution & { outcome: 'ok' | 'error' }, streams: boolean): void;
  /** An error output of the ended execution arrived late. */
  lateError(key: string): void;
  /** An output frame of the cell answered request `id`: the end of its stream, and how its outputs end. */
  frameTail(key: string, id: number, text: string, frame: FrameEnd): void;
  /** The cell's last execution is not to be read here any more (it runs again); no key: every cell. */
  forget(key?: string): void;
}

interface Check extends ExecutionEnd {
  tails: Array<string | null>;
  asked: number;
  frames: FrameEnd[];
  heard: boolean;
  /** Request id → its answer's index in `tails`. */
  requests: Map<number, number>;
  /** Ends the requests' wait for frames to load, and the window's timer. */
  stop: AbortController;
}

/** `decide` returns true once it has decided: the check is over. */
export function createExecutionEnds(
  decide: (key: string, end: ExecutionEnd) => boolean,
  signal: AbortSignal,
): ExecutionEnds {
  const checks = new Map<string, Check>();
  let lastRequest = 0;

  /** At every cell's start (forget): one lookup when nothing waits, as for almost every cell. */
  const drop = (key: string) => {
    const check = checks.get(key);
    if (!check) return;
    check.stop.abort();
    checks.delete(key);
  };

  const settle = (key: string, check: Check) => {
    if (checks.get(key) === check && decide(key, check)) drop(key);
  };

  return {
    ended(key, cell, { startedAt, endedAt, outcome }, streams) {
      drop(key);
      const tails: Array<string | null> = streams ? [streamTail(streamOutputsIn(cell))] : [];
      const stop = childLifetime(signal);
      const check: Check = {
        cell,
        startedAt,
        outcome,
        streams,
        tails,
        asked: 0,
        frames: [],
        heard: false,
        requests: new Map(),
        stop,
      };
      for (const frame of outputFramesOf(cell)) {
        const id = ++lastRequest;
        if (!askStreamTail(frame, id, stop.signal)) continue;
        check.requests.set(id, tails.length);
        if (streams) tails.push(null);
        check.asked++;
      }
      check.heard = check.asked === 0;
      checks.set(key, check);
      settle(key, check);
      if (!checks.has(key)) return;
      // The last word, once the window has closed: what has not come by then will not count.
      const timer = setTimeout(
        () => {
          check.heard = true;
          settle(key, check);
          drop(key);
        },
        endedAt + LATE_OUTPUT_MS + 1 - Date.now(),
      );
      stop.signal.addEventListener('abort', () => clearTimeout(timer));
    },
    lateError(key) {
      const check = checks.get(key);
      if (check) settle(key, check);
    },
    frameTail(key, id, text, frame) {
      const check = checks.get(key);
      const index = check?.requests.get(id);
      if (!check || index === undefined) return;
      check.requests.delete(id);
      if (check.streams) check.tails[index] = text;
      check.frames.push(frame);
      check.heard = check.frames.length === check.asked;
      settle(key, check);
    },
    forget(key) {
      if (key !== undefined) drop(key);
      else for (const k of [...checks.keys()]) drop(k);
    },
  };
}
