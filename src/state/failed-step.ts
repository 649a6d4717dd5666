import { cut, TEXT_LIMITS } from '../limits';
import type { DialogKind } from './dialogs';

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

/** Why the restart confirmation was not clicked (colab/dialogs.ts `confirmRestartDialog`). */
export type RefuseReason =
  | 'other-dialog'
  | 'unrecognised-dialog'
  | 'late-dialog'
  | 'no-choice'
  | 'no-confirm-button'
  | 'confirm-disabled'
  | 'confirm-looks-like-cancel'
  | 'confirm-looks-dangerous';

/**
 * Each step's reasons: the one word its message depends on (ui/steps.ts chooses the words by it, and the compiler
 * holds both the steps that fail and those words to these). For `precheck` the kind of dialog open; for
 * `unknown-frame-host` the hosts, which the words name. The toolbar path's failures are `open-menu` and `find-item`
 * ones too (its menu would not open, its item is missing).
 */
export interface StepReasons {
  precheck: DialogKind;
  'runtime-ready': 'connect-button-missing' | 'runtime-not-ready';
  'open-menu':
    | 'menubar-missing'
    | 'header-collapsed'
    | 'menu-did-not-open'
    | 'toolbar-missing'
    | 'toolbar-menu-did-not-open';
  'find-item': 'item-missing' | 'item-disabled' | 'item-dangerous';
  'close-menu': 'menu-stayed-open';
  confirm: RefuseReason | 'dialog-stayed-open';
  verify: 'no-run-started';
  reconnect:
    | 'not-needed'
    | 'dialog-open'
    | 'no-reconnect-button'
    | 'unexpected-label'
    | 'no-connect-button'
    | 'runtime-unreadable'
    | 'unable-to-connect'
    | 'runtime-not-ready';
  exception: 'threw';
  busy: 'busy';
  'find-cells': 'no-cells';
  'read-run-states': 'no-run-states';
  'match-output-frames': 'frames-outside-cells';
  'unknown-frame-host': string;
  unknown: '';
}
export type StepReason<S extends UiStep> = StepReasons[S];

/** A step that failed as the guard makes it: the step, one of its reasons, and what it saw. */
export type StepFailure<S extends UiStep = UiStep> = { [K in S]: { step: K; reason: StepReason<K>; saw: string } }[S];

/**
 * A failed step as it is carried and stored: which one, its machine-readable reason, and what it saw, for the
 * curious and for bug reports. Made by src/colab/ and the page as a `StepFailure`, carried to the worker, stored,
 * and put in words by ui/steps.ts. A stored reason may be one an earlier version wrote: it reads as the step's usual
 * words.
 */
export interface FailedStep {
  step: UiStep;
  reason: string;
  saw: string;
}

/** The one shape of a failed operation, in src/colab/, the page and the check: the step that failed. */
export interface Failed<S extends UiStep = UiStep> {
  ok: false;
  failed: StepFailure<S>;
}

/** A failed step, what it saw cut to what a record keeps. */
export function fail<S extends UiStep>(step: S, reason: StepReason<S>, saw: string): Failed<S> {
  return { ok: false, failed: { step, reason, saw: cut(saw, TEXT_LIMITS.detail) } as StepFailure<S> };
}

/** The same failed step, having seen more (the toolbar fallback's failure too, the dialog it met). */
export function seeing<S extends UiStep>({ failed }: Failed<S>, saw: string): Failed<S> {
  return { ok: false, failed: { ...failed, saw: cut(saw, TEXT_LIMITS.detail) } };
}

/** A failed step within what a record keeps: where one is sent, and where the worker stores one. */
export function clipFailed({ step, reason, saw }: FailedStep): FailedStep {
  return { step, reason: cut(reason, TEXT_LIMITS.uiStep), saw: cut(saw, TEXT_LIMITS.detail) };
}

/** A failure report that named no step (a page running an older script). */
export const UNKNOWN_STEP: FailedStep = { step: 'unknown', reason: '', saw: '' };

/** A failed step as its details line reads: the reason, then what the step saw. */
export function failedStepText({ step, reason, saw }: FailedStep): string {
  const what = step === 'precheck' ? `dialog-open: ${reason}` : reason;
  return saw ? `${what}; saw: ${saw}` : what;
}
