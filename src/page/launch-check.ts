import { callsUnassign, cellSource, editorText } from '../colab';
import { LAUNCH_HINT, launchesProgram } from '../detector';

/**
 * Whether a cell's execution may have launched a program (detector/launchers.ts): then how its stream ends is judged,
 * a program dying of OOM showing only there. The source is read where a Run all queues every cell, in one task (one
 * read after another costs less than each at its cell's end, in a task of its own): a source with no sign of a launch
 * is not read again; one with a sign, or none readable yet, is read again at the end.
 */
export interface LaunchCheck {
  /**
   * The cell's execution that started at `startedAt` was seen queued or running: whether to read its changes at once
   * (it may launch a program, judged the moment it ends; or it ends its own runtime, and its running must be seen).
   */
  started(cell: Element, startedAt: number): boolean;
  /** Whether that execution launched a program (null: its code cannot be read). */
  launches(cell: Element, startedAt: number): boolean | null;
}

export function createLaunchCheck(): LaunchCheck {
  /** The start of each cell's execution whose source showed no sign of a launch when it started. */
  const plainSince = new WeakMap<Element, number>();
  return {
    started(cell, startedAt) {
      if (plainSince.get(cell) === startedAt) return false;
      // All the editor's text in one read: most cells show no sign, and their lines are not read one by one. No lines
      // yet (an editor not drawn): read at its end.
      const source = editorText(cell);
      if (!source) return false;
      const command = LAUNCH_HINT.test(source);
      if (!command) plainSince.set(cell, startedAt);
      // A cell that ends its own runtime is seen running, however short its run: the disconnect that follows is its.
      return command || callsUnassign(source);
    },
    launches(cell, startedAt) {
      if (plainSince.get(cell) === startedAt) return false;
      const source = cellSource(cell);
      return source === null ? null : launchesProgram(source);
    },
  };
}
