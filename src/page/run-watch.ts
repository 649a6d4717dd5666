/**
 * How a run ends, told once. A run is a stretch in which cells are queued or running in this page, with two or more
 * cells under way at some moment (Run all, Run cell and below, the run a restart starts): one cell run by hand is
 * work at the keyboard, not a run left to the guard. It ends when no cell is under way any more: finished when the
 * last execution ended well; stopped when it ended in an error that is not out of memory (Colab stops every queued
 * cell then), or by the person's Stop. An execution that ended in error is told once the failure watch has judged
 * it: an out-of-memory failure is the guard's own business (its restart or give-up says so), not a stop.
 */

export type RunEnd =
  | { kind: 'finished' }
  | { kind: 'stopped'; cell: number | null; line: string }
  | { kind: 'interrupted' };

export interface RunReports {
  started(): void;
  ended(end: RunEnd): void;
  /** Cells began to be under way in this page (`true`), or none is any more: what keeps a guard armed. */
  busy(underWay: boolean): void;
}

/**
 * How the failure watch judged an ended execution: as it should be (`ok`), a failure the guard acts on or noted
 * (`failure`), the person's Stop, an error that is not out of memory (`cell`: its execution count, `line`: the
 * exception's last line), or an error whose ending never came (`unknown`).
 */
export type Judged =
  | { kind: 'ok' | 'failure' | 'interrupt' | 'unknown' }
  | { kind: 'error'; cell: number | null; line: string };

export interface RunWatch {
  /**
   * A cell's state changed: `underWay` (queued or running) or not; `ended`: how the execution it ended ended, as
   * far as the state says, and whether the failure watch still judges it (`judging`).
   */
  cellState(id: string, underWay: boolean, ended: { outcome: 'ok' | 'error' | 'stale'; judging: boolean } | null): void;
  judged(id: string, how: Judged): void;
  /** A restart this page performed: what was under way belongs to the run it ended. */
  forget(): void;
}

export function createRunWatch(reports: RunReports): RunWatch {
  const underWay = new Set<string>();
  /** The cells seen under way in the current run, while it is not yet one (fewer than two). */
  let cells: Set<string> | null = null;
  let announced = false;
  let last: { id: string; outcome: 'ok' | 'error' | 'stale'; judging: boolean } | null = null;
  /** The execution whose judgement tells how the last run ended. */
  let awaiting: string | null = null;
  const judgements = new Map<string, Judged>();

  const tell = (how: Judged) => {
    if (how.kind === 'ok') reports.ended({ kind: 'finished' });
    else if (how.kind === 'interrupt') reports.ended({ kind: 'interrupted' });
    else if (how.kind === 'error') reports.ended({ kind: 'stopped', cell: how.cell, line: how.line });
    else if (how.kind === 'unknown') reports.ended({ kind: 'stopped', cell: null, line: '' });
  };

  const close = () => {
    const wasRun = announced;
    cells = null;
    announced = false;
    if (!wasRun || !last || last.outcome === 'stale') return;
    if (!last.judging) {
      if (last.outcome === 'ok') tell({ kind: 'ok' });
      return;
    }
    const judged = judgements.get(last.id);
    if (judged) tell(judged);
    else awaiting = last.id;
  };

  return {
    cellState(id, isUnderWay, ended) {
      if (ended) last = { id, ...ended };
      if (!isUnderWay) {
        if (underWay.delete(id) && underWay.size === 0) {
          reports.busy(false);
          close();
        }
        return;
      }
      if (underWay.size === 0) reports.busy(true);
      judgements.delete(id);
      if (awaiting === id) awaiting = null;
      underWay.add(id);
      cells ??= new Set();
      if (announced) return;
      cells.add(id);
      if (cells.size < 2) return;
      announced = true;
      awaiting = null;
      reports.started();
    },
    judged(id, how) {
      if (awaiting === id) {
        awaiting = null;
        tell(how);
        return;
      }
      judgements.set(id, how);
    },
    forget() {
      if (underWay.size > 0) reports.busy(false);
      underWay.clear();
      judgements.clear();
      cells = null;
      announced = false;
      last = null;
      awaiting = null;
    },
  };
}
