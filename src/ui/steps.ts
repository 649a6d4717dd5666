import { t } from '../lib/i18n';
import type { FailedStep, UiStep } from '../state/failed-step';
import type { RestartAction } from '../state/schema';
import { personOnlyDialog } from './dialog-words';

/**
 * The one place that turns a failed step (src/colab/actions.ts, restart-runner.ts, detection-check.ts) into words for
 * people: "could not find Runtime → Restart session and run all", never `find-item`. The popup, the in-page notice,
 * the badge's tooltip and the notifications all say it this way; the step id and its machine-readable reason go only
 * into Copy diagnostics.
 */

type Words = (reason: string, action: RestartAction | undefined) => string;

const STEPS: Record<UiStep, Words> = {
  precheck: precheckWords,
  'runtime-ready': () => t('stepRuntimeReady'),
  'open-menu': (reason) =>
    t(
      reason === 'header-collapsed'
        ? 'stepHeaderCollapsed'
        : reason === 'menubar-missing'
          ? 'stepMenubarMissing'
          : 'stepOpenMenu',
    ),
  'find-item': (reason, action) =>
    reason === 'item-disabled'
      ? t(restarts(action) ? 'stepDisabledRestart' : 'stepDisabledRunAll')
      : t(restarts(action) ? 'stepFindRestart' : 'stepFindRunAll'),
  'close-menu': () => t('stepCloseMenu'),
  confirm: (reason) => t(reason === 'dialog-stayed-open' ? 'stepConfirmLost' : 'stepConfirm'),
  verify: (_, action) => t(restarts(action) ? 'stepVerifyRestart' : 'stepVerifyRunAll'),
  reconnect: (reason) => t(reason === 'unable-to-connect' ? 'stepUnableToConnect' : 'stepReconnect'),
  exception: () => t('stepException'),
  busy: () => t('stepBusy'),
  'find-cells': () => t('stepFindCells'),
  'read-run-states': () => t('stepReadRunStates'),
  'match-output-frames': () => t('stepMatchOutputFrames'),
  // The reason is the host.
  'unknown-frame-host': (host) => t('stepUnknownFrameHost', host),
  unknown: () => t('stepUnknown'),
};

/** Run all after a crash and after a reconnect; a restart otherwise (and when the action is not known). */
function restarts(action: RestartAction | undefined): boolean {
  return action === undefined || action === 'restart-and-run-all';
}

/** A dialog only a person may answer is named ("Colab showed a usage-limit dialog…"); any other stays generic. */
function precheckWords(kind: string): string {
  const named = personOnlyDialog(kind);
  return named ? t('stepPrecheckDialog', t(named)) : t('stepPrecheck');
}

/** The failed step in words, lower-case, to follow "Colab UI problem: " or "Not ready: ". */
export function stepWords(failed: FailedStep, action?: RestartAction): string {
  const words = Object.hasOwn(STEPS, failed.step) ? STEPS[failed.step] : STEPS.unknown;
  return words(failed.reason, action);
}

/**
 * What a failed step saw, when it is Colab's own words (the text of the dialog open when the restart was due), quoted
 * for the curious; undefined for what the other steps saw (Colab's item ids, selectors): that is for Copy diagnostics.
 */
export function colabSaid(failed: FailedStep): string | undefined {
  return failed.step === 'precheck' && failed.saw ? t('noticeColabSaid', failed.saw) : undefined;
}

/** The same as a sentence of its own, for a notification or a notice body. */
export function stepSentence(failed: FailedStep, action?: RestartAction): string {
  const words = stepWords(failed, action);
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}.`;
}
