/**
 * The steps of the guard's UI operations and checks that can fail (colab/actions.ts, colab/detection-check.ts, the
 * restart runner, "Check Colab UI"); `unknown` for a report that named none.
 */
export const UI_STEPS = [
  'precheck',
  'runtime-ready',
  'open-menu',
  'find-item',
  'close-menu',
  'confirm',
  'verify',
  'reconnect',
  'exception',
  'busy',
  'find-cells',
  'read-run-states',
  'match-output-frames',
  'unknown-frame-host',
  'unknown',
] as const;
export type UiStep = (typeof UI_STEPS)[number];

/**
 * A step that failed: which one, its machine-readable reason (the one word the step's words depend on: for `precheck`
 * the kind of dialog open, for `unknown-frame-host` the host), and what it saw, for the curious and for bug reports.
 * Made by src/colab/ and the page, carried to the worker, stored, and put in words by ui/steps.ts.
 */
export interface FailedStep {
  step: UiStep;
  reason: string;
  saw: string;
}

/** A failure report that named no step (a page running an older script). */
export const UNKNOWN_STEP: FailedStep = { step: 'unknown', reason: '', saw: '' };

/** A failed step as its details line reads: the reason, then what the step saw. */
export function failedStepText({ step, reason, saw }: FailedStep): string {
  const what = step === 'precheck' ? `dialog-open: ${reason}` : reason;
  return saw ? `${what}; saw: ${saw}` : what;
}
