import { executionCount } from '../colab';
import { type Detector, endsInInterrupt, type Verdict } from '../detector';
import type { EndFacts, Ending, ExecutionGate } from '../detector/execution-gate';
import { findRecentLine } from '../detector/text';
import { cut, TEXT_LIMITS } from '../limits';
import type { DeclineReason } from '../state/schema';
import type { ExecutionEnd } from './execution-end';
import type { Judged } from './run-watch';

/** What judging an ended execution needs, and whom it tells. */
export interface JudgeParts {
  gate: ExecutionGate;
  detector(): Detector;
  /** Whether the execution launched a program (launch-check.ts). */
  launches(cell: Element, startedAt: number): boolean | null;
  /** The cell's outputs in the page now (output-facts.ts). */
  pageNow(cell: Element): EndFacts['page'];
  failure(verdict: Verdict, startedAt: number): void;
  declined(reason: DeclineReason, verdict: Verdict, startedAt: number): void;
  /** How it was judged, for the run it belongs to (run-watch.ts). */
  judged(id: string, how: Judged): void;
}

/**
 * How an ended execution ended, judged once what may still come has come (or never will); true once decided. One
 * that ended in error, by the record's ending (detector/execution-gate.ts): a failure when it shows one, and every
 * error output that may as well have ended it does too; one of a cell that may have launched a program, by how its
 * stream ends. When in doubt nothing restarts, and the history says why.
 */
export function createExecutionJudge(parts: JudgeParts): (id: string, end: ExecutionEnd) => boolean {
  const { gate, detector, declined, judged } = parts;

  /** The newest of `texts` (oldest first) that shows a failure, if one does: what was seen and left alone. */
  const declineSeen = (reason: DeclineReason, texts: readonly string[], startedAt: number) => {
    for (let i = texts.length - 1; i >= 0; i--) {
      const verdict = detector().classifyError(texts[i] ?? '');
      if (verdict) return declined(reason, verdict, startedAt);
    }
  };

  /**
   * The stream's end, judged for a cell that launched a program: with `error` its ending error output (a `%%bash`
   * cell's CalledProcessError), null when it ended without one. True once it said something.
   */
  const judgeStream = (end: ExecutionEnd, error: string | null): boolean => {
    if (!end.streams || end.tails.includes(null)) return false;
    const launcher = parts.launches(end.cell, end.startedAt);
    if (launcher === false) return false;
    const verdict = detector().classifyShellEnd({ stream: end.tails.filter(Boolean).join('\n'), error });
    if (!verdict) return false;
    if (launcher === null) declined('source-unreadable', verdict, end.startedAt);
    else parts.failure(verdict, end.startedAt);
    return true;
  };

  /** The ending came: a failure, the person's Stop, a stream that shows one, or an error that is no failure. */
  const judgeEnding = (id: string, end: ExecutionEnd, ending: Extract<Ending, { kind: 'ending' }>) => {
    // The person's Stop ends it: nothing is a failure then, whatever came before.
    const stopped = endsInInterrupt(ending.text);
    const verdict = stopped ? null : detector().classifyError(ending.text);
    if (verdict) {
      // An error output that may as well have ended the run shows no failure: which one did is not known.
      const rivalled = ending.rivals.some((text) => endsInInterrupt(text) || !detector().classifyError(text));
      if (rivalled) declined('ending-unclear', verdict, end.startedAt);
      else parts.failure(verdict, end.startedAt);
      judged(id, { kind: rivalled ? 'unknown' : 'failure' });
      return;
    }
    if (!stopped && judgeStream(end, ending.text)) return judged(id, { kind: 'failure' });
    declineSeen('earlier-error', ending.earlier, end.startedAt);
    judged(id, stopped ? { kind: 'interrupt' } : errorEnd(end, ending.text));
  };

  return (id, end) => {
    if (end.outcome === 'ok') {
      if (end.heard) judged(id, { kind: judgeStream(end, null) ? 'failure' : 'ok' });
      return end.heard;
    }
    const ending = gate.ending(id, Date.now(), { heard: end.heard, page: parts.pageNow(end.cell), frames: end.frames });
    if (ending.kind === 'wait') return false;
    gate.judged(id);
    if (ending.kind === 'missing') {
      declineSeen(ending.unclear ? 'ending-unclear' : 'ending-missing', ending.earlier, end.startedAt);
      judged(id, { kind: 'unknown' });
    }
    if (ending.kind === 'ending') judgeEnding(id, end, ending);
    return true;
  };
}

/** An execution stopped by an error that is not out of memory: its cell as the person sees it ("[7]"), its line. */
function errorEnd(end: ExecutionEnd, text: string): Judged {
  // The exception's line of a traceback: its last line that says something.
  const line = findRecentLine(text, (candidate) => candidate.trim() !== '')?.trim() ?? '';
  return { kind: 'error', cell: executionCount(end.cell), line: cut(line, TEXT_LIMITS.line) };
}
