import { outputFramesOf, streamOutputsIn, streamTail } from '../colab';
import type { ShellEnd } from '../detector';
import { LATE_OUTPUT_MS } from '../detector/execution-gate';
import { askStreamTail } from './frame-reports';
import { childLifetime } from './lifetime';

/**
 * Issue 20: a process started from a shell cell (`!python train.py`, `!accelerate launch`, `%%bash`) prints its OOM
 * traceback as stream output, and the cell ends without an error or with only a CalledProcessError. So when an
 * execution seen here ends and its error outputs gave no verdict, the end of the cell's stream output is read once:
 * the main document's at once, each output frame's by asking the frame (REFERENCE §4.2 and §11.4 disagree on where
 * streams render). It is judged once every frame asked has answered and, for an execution that ended in error, its
 * error output has arrived (it may come late from a frame). Whatever never comes leaves it unjudged: nothing happens.
 */
export interface ShellEnds {
  /**
   * An execution of `cell` ended with no verdict from its error outputs. `error`: its newest error output; null when
   * it ended without an error; undefined when it ended in error and no error output has arrived yet.
   */
  ended(key: string, cell: Element, startedAt: number, error: string | null | undefined): void;
  /** The error output of an execution that ended in error arrived late, and was no failure by itself. */
  lateError(key: string, text: string): void;
  /** An output frame of the cell answered request `id` with the end of its stream outputs. */
  frameTail(key: string, id: number, text: string): void;
  /** The cell's last execution is not to be judged here any more (it runs again, or was judged); no key: every cell. */
  forget(key?: string): void;
}

interface Check {
  startedAt: number;
  /** When it was made (the execution's end): after LATE_OUTPUT_MS nothing can settle it any more. */
  madeAt: number;
  error: string | null | undefined;
  /** The main document's stream tail, then each asked frame's answer in page order (null until it answers). */
  tails: Array<string | null>;
  /** Request id → its answer's index in `tails`. */
  asked: Map<number, number>;
  /** Ends the requests' wait for frames to load. */
  stop: AbortController;
}

export function createShellEnds(
  judge: (key: string, end: ShellEnd, startedAt: number) => void,
  signal: AbortSignal,
): ShellEnds {
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
    if (check.error === undefined || check.tails.includes(null)) return;
    drop(key);
    // In page order: the frames follow the static renderer in the output area (§4.2), as what they show follows.
    judge(key, { stream: check.tails.filter(Boolean).join('\n'), error: check.error }, check.startedAt);
  };

  /**
   * Checks still waiting when their execution's late outputs are no longer taken (a frame that never answered) are
   * let go, oldest first (a Map keeps the order they were made in): what never arrives costs nothing afterwards.
   */
  const dropExpired = (now: number) => {
    for (const [key, check] of checks) {
      if (now - check.madeAt <= LATE_OUTPUT_MS) return;
      drop(key);
    }
  };

  return {
    ended(key, cell, startedAt, error) {
      drop(key);
      const madeAt = Date.now();
      dropExpired(madeAt);
      const tails = [streamTail(streamOutputsIn(cell))];
      const check: Check = { startedAt, madeAt, error, tails, asked: new Map(), stop: childLifetime(signal) };
      for (const frame of outputFramesOf(cell)) {
        const id = ++lastRequest;
        if (!askStreamTail(frame, id, check.stop.signal)) continue;
        check.asked.set(id, check.tails.length);
        check.tails.push(null);
      }
      checks.set(key, check);
      settle(key, check);
    },
    lateError(key, text) {
      const check = checks.get(key);
      if (!check || check.error !== undefined) return;
      check.error = text;
      settle(key, check);
    },
    frameTail(key, id, text) {
      const check = checks.get(key);
      const index = check?.asked.get(id);
      if (!check || index === undefined) return;
      check.asked.delete(id);
      check.tails[index] = text;
      settle(key, check);
    },
    forget(key) {
      if (key !== undefined) drop(key);
      else for (const k of [...checks.keys()]) drop(k);
    },
  };
}
