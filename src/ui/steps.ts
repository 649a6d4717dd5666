import { type MessageKey, t } from '../lib/i18n';
import type { FailedStep, StepReason, UiStep } from '../state/failed-step';
import type { RestartAction } from '../state/schema';
import { personOnlyDialog } from './dialog-words';

/**
 * The one place that turns a failed step (src/colab/actions.ts, restart-runner.ts, detection-check.ts) into words for
 * people: "could not find Runtime → Restart session and run all", never `find-item`. The popup, the in-page notice,
 * the badge's tooltip and the notifications all say it this way; the step id and its machine-readable reason go only
 * into Copy diagnostics.
 */

type Words = (reason: string, action: RestartAction | undefined) => string;

/**
 * A step's words: `usual`, and `except` for the reasons with words of their own, which the compiler holds to the
 * step's reasons (state/failed-step.ts `StepReasons`). A reason this version does not know (stored by an earlier one)
 * reads as `usual`.
 */
interface StepWords<S extends UiStep> {
  usual: Words;
  except?: { readonly [R in StepReason<S>]?: Words };
}

const said =
  (key: MessageKey): Words =>
  () =>
    t(key);

/** Run all after a crash and after a reconnect; a restart otherwise (and when the action is not known). */
const restartOrRunAll =
  (restart: MessageKey, runAll: MessageKey): Words =>
  (_, action) =>
    t(action === undefined || action === 'restart-and-run-all' ? restart : runAll);

const STEPS: { [S in UiStep]: StepWords<S> } = {
  precheck: { usual: precheckWords },
  'runtime-ready': { usual: said('stepRuntimeReady') },
  'open-menu': {
    usual: said('stepOpenMenu'),
    except: { 'header-collapsed': said('stepHeaderCollapsed'), 'menubar-missing': said('stepMenubarMissing') },
  },
  'find-item': {
    usual: restartOrRunAll('stepFindRestart', 'stepFindRunAll'),
    except: { 'item-disabled': restartOrRunAll('stepDisabledRestart', 'stepDisabledRunAll') },
  },
  'close-menu': { usual: said('stepCloseMenu') },
  confirm: { usual: said('stepConfirm'), except: { 'dialog-stayed-open': said('stepConfirmLost') } },
  verify: { usual: restartOrRunAll('stepVerifyRestart', 'stepVerifyRunAll') },
  reconnect: { usual: said('stepReconnect'), except: { 'unable-to-connect': said('stepUnableToConnect') } },
  exception: { usual: said('stepException') },
  busy: { usual: said('stepBusy') },
  'find-cells': { usual: said('stepFindCells') },
  'read-run-states': { usual: said('stepReadRunStates') },
  'match-output-frames': { usual: said('stepMatchOutputFrames') },
  // The reason is the host.
  'unknown-frame-host': { usual: (host) => t('stepUnknownFrameHost', host) },
  unknown: { usual: said('stepUnknown') },
};

/** A dialog only a person may answer is named ("Colab showed a usage-limit dialog…"); any other stays generic. */
function precheckWords(kind: string): string {
  const named = personOnlyDialog(kind);
  return named ? t('stepPrecheckDialog', t(named)) : t('stepPrecheck');
}

/** The words of a failed step as stored: its own step's (an unknown step reads as `unknown`), by its reason. */
function wordsOf({ step, reason }: FailedStep): Words {
  const words: { usual: Words; except?: Readonly<Partial<Record<string, Words>>> } = Object.hasOwn(STEPS, step)
    ? STEPS[step]
    : STEPS.unknown;
  return (words.except && Object.hasOwn(words.except, reason) ? words.except[reason] : undefined) ?? words.usual;
}

/** The failed step in words, lower-case, to follow "Colab UI problem: " or "Not ready: ". */
export function stepWords(failed: FailedStep, action?: RestartAction): string {
  return wordsOf(failed)(failed.reason, action);
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
