/**
 * Why the guard left alone a failure it saw (an `ignored` entry's reason): the English phrase each reason had when
 * version 4 wrote it into the history, kept so that state/history-sentences.ts reads such an entry back as its reason.
 * The pages say the reason in their own language (ui/history-text.ts).
 */
export const DECLINED = {
  /** An error output the run went on after (a caught OOM shown with `showtraceback()`), or not what ended it. */
  'earlier-error': 'an earlier error output, not the one that ended the run',
  /** The execution ended in error, and its ending error output never arrived. */
  'ending-missing': 'the error output that ended the run never arrived',
  /**
   * The execution ended in error, and which output ended it cannot be told: outputs whose order is not known, or
   * error outputs right after one another that disagree (a script in an output can add one after the real one).
   */
  'ending-unclear': 'which output ended the run could not be told',
  /** A program's death at the end of a cell's stream, in a cell whose code could never be read. */
  'source-unreadable': "the cell's code could not be read, to tell whether it launched a program",
  /** Colab's crash notice, with no execution seen queued or running in the page since its last restart. */
  'crash-without-run': 'no run seen in this page since the last restart',
} as const;
export type DeclineReason = keyof typeof DECLINED;
export const DECLINE_REASONS = Object.keys(DECLINED) as DeclineReason[];
