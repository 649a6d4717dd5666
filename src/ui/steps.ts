import type { DialogKind } from '../colab/dialogs';
import { personOnlyDialog } from '../colab/person-only';
import { t } from '../lib/i18n';
import type { RestartAction } from '../state/schema';

/**
 * The one place that turns a failed step (src/colab/actions.ts, restart-runner.ts, detection-check.ts) into words for
 * people: "could not find Runtime → Restart session and run all", never `find-item`. The popup, the in-page notice,
 * the badge's tooltip and the notifications all say it this way; the step id and its machine-readable detail stay in
 * the details line.
 */

type Words = (detail: string, action: RestartAction | undefined) => string;

const STEPS: Record<string, Words> = {
  precheck: precheckWords,
  'runtime-ready': () => t('stepRuntimeReady'),
  'open-menu': (detail) =>
    t(
      detail.startsWith('header-collapsed')
        ? 'stepHeaderCollapsed'
        : detail.startsWith('menubar-missing')
          ? 'stepMenubarMissing'
          : 'stepOpenMenu',
    ),
  'find-item': (detail, action) =>
    detail.startsWith('item-disabled')
      ? t(restarts(action) ? 'stepDisabledRestart' : 'stepDisabledRunAll')
      : t(restarts(action) ? 'stepFindRestart' : 'stepFindRunAll'),
  'close-menu': () => t('stepCloseMenu'),
  confirm: (detail) => t(detail.startsWith('dialog-stayed-open') ? 'stepConfirmLost' : 'stepConfirm'),
  verify: (_, action) => t(restarts(action) ? 'stepVerifyRestart' : 'stepVerifyRunAll'),
  reconnect: (detail) => t(detail.startsWith('unable-to-connect') ? 'stepUnableToConnect' : 'stepReconnect'),
  exception: () => t('stepException'),
  busy: () => t('stepBusy'),
  'find-cells': () => t('stepFindCells'),
  'read-run-states': () => t('stepReadRunStates'),
  'match-output-frames': () => t('stepMatchOutputFrames'),
  // The detail names the host first (colab/detection-check.ts).
  'unknown-frame-host': (detail) => t('stepUnknownFrameHost', detail.split(':')[0] ?? ''),
};

/** Run all after a crash and after a reconnect; a restart otherwise (and when the action is not known). */
function restarts(action: RestartAction | undefined): boolean {
  return action === undefined || action === 'restart-and-run-all';
}

/** A dialog only a person may answer is named ("Colab showed a usage-limit dialog…"); any other stays generic. */
function precheckWords(detail: string): string {
  const kind = /^dialog-open: ([a-z-]+)/.exec(detail)?.[1] as DialogKind | undefined;
  const named = kind ? personOnlyDialog(kind) : null;
  return named ? t('stepPrecheckDialog', t(named)) : t('stepPrecheck');
}

/** The failed step in words, lower-case, to follow "Colab UI problem: " or "Not ready: ". */
export function stepWords(step: string, detail = '', action?: RestartAction): string {
  const words = Object.hasOwn(STEPS, step) ? STEPS[step] : undefined;
  return words ? words(detail, action) : t('stepUnknown');
}

/** The same as a sentence of its own, for a notification or a notice body. */
export function stepSentence(step: string, detail = '', action?: RestartAction): string {
  const words = stepWords(step, detail, action);
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}.`;
}
