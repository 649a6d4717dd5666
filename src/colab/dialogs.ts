/**
 * Colab's dialogs in every form REFERENCE.md §2 and §11.2 list, how to tell them apart, which of them only a person
 * may answer, and the one confirmation this extension gives: the restart confirmation that follows its own action.
 */

import { cut, TEXT_LIMITS } from '../limits';
import { baseLanguage, colabLanguage } from '../site/page-language';
import type { DialogKind } from '../state/dialogs';
import type { RefuseReason } from '../state/failed-step';
import { deepQuery, deepQueryAll, deepText, dispatchMouseSequence, isVisible, squash, waitFor } from './dom';
import { DANGEROUS_LABEL, DIALOG, DIALOG_MARKERS, DIALOG_TEXT } from './selectors';

export type { DialogKind } from '../state/dialogs';

/**
 * The known dialogs other than the restart confirmation, in the order they are tried: by non-text markers (any UI
 * language), else by English text. 'other' = known, refused, with no kind of its own. The pip warning comes before
 * the restart confirmation is tried: its title and button say "Restart session" too (§11.2).
 */
const DIALOG_CHECKS: ReadonlyArray<{
  kind: Exclude<DialogKind, 'restart-confirm' | 'unknown'> | 'other';
  text: RegExp;
  marker?: string;
}> = [
  { kind: 'recaptcha', text: DIALOG_TEXT.recaptcha, marker: DIALOG_MARKERS.recaptcha },
  // Before the others whose words a disconnect's body may use (usage limits, disallowed code): it is told by them.
  { kind: 'disconnected', text: DIALOG_TEXT.disconnected },
  { kind: 'gpu-quota', text: DIALOG_TEXT.gpuQuota },
  { kind: 'usage-limit', text: DIALOG_TEXT.usageLimit },
  { kind: 'pip-restart', text: DIALOG_TEXT.pipRestart },
  { kind: 'drive-permission', text: DIALOG_TEXT.drivePermission },
  { kind: 'new-runtime-required', text: DIALOG_TEXT.newRuntime },
  { kind: 'disallowed-code', text: DIALOG_TEXT.disallowedCode },
  { kind: 'change-runtime-type', text: DIALOG_TEXT.runtimeType, marker: DIALOG_MARKERS.runtimeType },
  { kind: 'cannot-save', text: DIALOG_TEXT.cannotSave },
  { kind: 'delete-runtime', text: DIALOG_TEXT.deleteRuntime },
  { kind: 'not-authored', text: DIALOG_TEXT.notAuthored, marker: DIALOG_MARKERS.notAuthored },
  { kind: 'high-ram-offer', text: DIALOG_TEXT.highRamOffer },
  { kind: 'other', text: DIALOG_TEXT.other, marker: DIALOG_MARKERS.other },
];

const WRAPPERS = 'colab-dialog, colab-recaptcha-dialog';

function isOpenMarked(el: Element): boolean {
  return el.hasAttribute('open') || el.hasAttribute('opened') || el.classList.contains(DIALOG.openClass);
}

/**
 * Open per form: `open` (mwc-dialog, md-dialog), `opened` (paper-dialog), `.mdc-dialog--open` (MDC). The wrappers
 * colab-dialog / colab-recaptcha-dialog are open when a dialog inside them is, or, holding none, when shown.
 */
export function isOpenDialog(el: Element): boolean {
  if (isOpenMarked(el)) return true;
  if (!el.matches(WRAPPERS)) return false;
  const inner = deepQueryAll(el, 'paper-dialog, mwc-dialog, md-dialog, .mdc-dialog');
  return inner.length ? inner.some(isOpenMarked) : isVisible(el);
}

/** The outermost dialog element: mwc-dialog for its shadow `.mdc-dialog`, colab-dialog for its paper-dialog. */
export function dialogHost(el: Element): Element {
  const root = el.getRootNode();
  if (root.nodeType === Node.DOCUMENT_FRAGMENT_NODE && 'host' in root) {
    const host = (root as ShadowRoot).host;
    if (host.matches(DIALOG.hosts)) return dialogHost(host);
  }
  return el.parentElement?.closest(WRAPPERS) ?? el;
}

/** Open dialogs anywhere in the page, shadow roots included, one element per dialog. */
export function openDialogs(doc: Document): Element[] {
  const found = new Set<Element>();
  for (const el of deepQueryAll(doc, DIALOG.hosts)) if (isOpenDialog(el)) found.add(dialogHost(el));
  return [...found];
}

/** Heading attribute, title, body and button labels (mwc-button keeps its label in an attribute). */
export function dialogText(dialog: Element): string {
  const labels = deepQueryAll(dialog, '[label]').map((el) => el.getAttribute('label'));
  return squash([dialog.getAttribute('heading'), deepText(dialog), ...labels].join(' '));
}

/** A button's label as people read it (mwc-button keeps it in an attribute). */
export function buttonLabel(button: Element): string {
  return squash(button.getAttribute('label')) || squash(button.textContent) || deepText(button, 200);
}

export function isDisabled(el: Element): boolean {
  return el.hasAttribute('disabled') || el.hasAttribute('soft-disabled') || el.getAttribute('aria-disabled') === 'true';
}

function classify(dialog: Element, text: string): DialogKind | 'other' {
  const marked = (marker?: string) => !!marker && (dialog.matches(marker) || !!deepQuery(dialog, marker));
  const known = DIALOG_CHECKS.find((check) => marked(check.marker) || check.text.test(text));
  if (known) return known.kind;
  return DIALOG_TEXT.restartConfirm.test(text) ? 'restart-confirm' : 'unknown';
}

/** What an open dialog is (English texts and markers, §2, §5.2, §5.3, §11.2); 'unknown' when it cannot tell. */
export function classifyDialog(dialog: Element): DialogKind {
  const kind = classify(dialog, dialogText(dialog));
  return kind === 'other' ? 'unknown' : kind;
}

export function classifyOpenDialogs(doc: Document): Array<{ kind: DialogKind; dialog: Element; text: string }> {
  return openDialogs(doc).map((dialog) => ({
    kind: classifyDialog(dialog),
    dialog,
    text: cut(dialogText(dialog), TEXT_LIMITS.dialog),
  }));
}

/**
 * The confirming action, chosen by attributes, never by text (§2): mwc `slot=primaryAction`, `dialogaction=ok`,
 * Polymer `#ok` / `dialog-confirm`, md-dialog `value=ok`, MDC `data-mdc-dialog-action`. Failing those, in an
 * md-dialog's `[slot=actions]` / `form[method=dialog]`: the single non-cancel button, else the single submit or
 * filled (emphasised) button. Null when ambiguous.
 */
export function confirmButtonOf(dialog: Element): Element | null {
  const usable = (el: Element) => !el.matches(DIALOG.cancel);
  for (const selector of DIALOG.confirm) {
    const hit = deepQueryAll(dialog, selector).find(usable);
    if (hit) return hit;
  }
  const candidates = deepQueryAll(dialog, DIALOG.actions)
    .flatMap((area) => [...area.querySelectorAll(DIALOG.button)])
    .filter((el, i, all) => usable(el) && all.indexOf(el) === i);
  if (candidates.length === 1) return candidates[0] ?? null;
  for (const selector of ['[type=submit]', DIALOG.filledButton]) {
    const marked = candidates.filter((el) => el.matches(selector));
    if (marked.length === 1) return marked[0] ?? null;
  }
  return null;
}

export interface ConfirmOptions {
  /** How long to wait for a dialog to appear (default 5000 ms). No dialog is a valid outcome. */
  timeoutMs?: number;
  /** Dialogs that were open before our action (from `openDialogs`): never ours. */
  before?: Iterable<Element>;
  /** `Date.now()` at our action (default: the call). */
  since?: number;
  /** Whether Colab's UI is in English (default: its language, `?hl=` or `<html lang>`, is English or unnamed). */
  englishUi?: boolean;
  /** "Right after our action", for dialogs whose text cannot be judged (default 2000 ms). */
  immediateMs?: number;
  /** Stops waiting with 'no-dialog' once this is true: a run that started needs no confirmation. */
  runStarted?: () => boolean;
  /** How long a click waits for the dialog's opening animation, and then for the dialog to close (default 3000 ms). */
  settleMs?: number;
  /** Told of the dialog that opened, before it is judged (a capture for "Copy diagnostics"). */
  met?: (dialog: Element) => void;
}

export type ConfirmOutcome =
  | { outcome: 'confirmed'; dialog: Element; rule: 'english-text' | 'right-after-action'; saw: string }
  | { outcome: 'no-dialog' }
  | { outcome: 'refused'; reason: RefuseReason; kind: DialogKind; saw: string }
  /** Confirmed, but the dialog did not close: the click was lost. Never clicked again. */
  | { outcome: 'stayed-open'; kind: DialogKind; saw: string };

export function isEnglishUi(doc: Document): boolean {
  return baseLanguage(colabLanguage(doc)) === 'en';
}

/** A yes/no dialog (§2): it has a cancelling action beside the confirming one. */
function offersChoice(dialog: Element): boolean {
  return deepQueryAll(dialog, DIALOG.cancel).length > 0;
}

/** Still in its opening animation (§11.2): `colab-dialog-opening` on the dialog or an element of it. */
export function isDialogOpening(dialog: Element): boolean {
  const opening = `.${DIALOG.openingClass}`;
  return dialog.matches(opening) || !!deepQuery(dialog, opening);
}

/**
 * Clicks a button of an open dialog so that the click sticks, and tells whether the dialog closed (§11.2): a click
 * during the opening animation can be lost, so it waits for `colab-dialog-opening` to go (observed, bounded; a
 * hidden tab may never run the animation, and then the click is given anyway), clicks once, and waits for the dialog
 * to close. Never an animation frame or a transition's end: a background tab has neither.
 */
export async function clickDialogButton(dialog: Element, button: Element, settleMs = 3000): Promise<boolean> {
  const doc = dialog.ownerDocument;
  await waitFor(() => !isDialogOpening(dialog), { root: dialog, timeoutMs: settleMs, observeShadowRoots: true });
  dispatchMouseSequence(button, 'click');
  return !!(await waitFor(() => !isOpenDialog(dialog) || !dialog.isConnected, { root: doc, timeoutMs: settleMs }));
}

/**
 * Confirms the restart dialog that our menu action opened, if one opens within the timeout. The rule (the
 * confirmation itself was never captured, §2, §11.2, so it is judged by exclusion plus timing):
 * 1. Only a dialog that was not open before our action (`before`) is considered.
 * 2. A dialog recognisable as anything else is refused: reCAPTCHA, GPU quota, disconnected, usage limits, the pip
 *    warning (titled "Restart session" too), Drive permission, new runtime required, disallowed code, runtime type,
 *    cannot save, delete runtime, "not authored by Google", the high-RAM offer, sessions…, by markers and English text.
 * 3. English UI with readable text: it must read like a restart confirmation ("restart", "local variables will be
 *    lost"); otherwise refused as unrecognised.
 * 4. Non-English UI or unreadable text (its language's words are not known, languages.ts): judged by structure and
 *    by the action the guard started, never by its words. Refused when it names GPU/TPU/RAM/Google/Colab Pro/
 *    reCAPTCHA (untranslated names that only the other dialogs use), when it did not appear within `immediateMs` of
 *    our action (a confirmation is shown at once by the menu action; the others come later or from a server reply),
 *    and when it offers no choice (the confirmation is a yes/no dialog, §2; one-button notices are not).
 * 5. The confirming button is found by attributes, must not be labelled like a cancel, and must be enabled.
 * 6. It is clicked once its opening animation is over, and the dialog must close.
 */
export async function confirmRestartDialog(doc: Document, opts: ConfirmOptions = {}): Promise<ConfirmOutcome> {
  const before = new Set(opts.before ?? []);
  const since = opts.since ?? Date.now();
  const fresh = () => openDialogs(doc).find((d) => !before.has(d)) ?? (opts.runStarted?.() ? 'started' : null);
  const found = await waitFor(fresh, {
    root: doc,
    timeoutMs: opts.timeoutMs ?? 5000,
    observeShadowRoots: !!opts.runStarted,
  });
  if (!found || found === 'started') return { outcome: 'no-dialog' };
  const dialog = found;
  const elapsed = Date.now() - since;
  // Lit renders a new dialog's title into its shadow root a moment after `open` is set.
  await waitFor(() => dialogText(dialog), { root: dialog, timeoutMs: 300, observeShadowRoots: true });
  opts.met?.(dialog);
  const decision = decide(dialog, elapsed, opts.englishUi ?? isEnglishUi(doc), opts.immediateMs ?? 2000);
  if (decision.outcome !== 'confirmed') return decision;
  if (await clickDialogButton(dialog, decision.button, opts.settleMs)) {
    return { outcome: 'confirmed', dialog, rule: decision.rule, saw: decision.saw };
  }
  return { outcome: 'stayed-open', kind: decision.kind, saw: decision.saw };
}

type Decision =
  | Extract<ConfirmOutcome, { outcome: 'refused' }>
  | {
      outcome: 'confirmed';
      button: Element;
      kind: DialogKind;
      rule: 'english-text' | 'right-after-action';
      saw: string;
    };

function decide(dialog: Element, elapsedMs: number, englishUi: boolean, immediateMs: number): Decision {
  const text = dialogText(dialog);
  const found = classify(dialog, text);
  const kind = found === 'other' ? 'unknown' : found;
  const name = `${dialog.localName}${dialog.id ? `#${dialog.id}` : ''}`;
  const saw = `${name} after ${elapsedMs} ms: "${cut(text, TEXT_LIMITS.dialog)}"`;
  const refuse = (reason: RefuseReason): Decision => ({ outcome: 'refused', reason, kind, saw });
  if (found !== 'restart-confirm' && found !== 'unknown') return refuse('other-dialog');
  if (found === 'unknown' && englishUi && text) return refuse('unrecognised-dialog');
  if (found === 'unknown' && DIALOG_TEXT.foreignTokens.test(text)) return refuse('other-dialog');
  if (found === 'unknown' && elapsedMs > immediateMs) return refuse('late-dialog');
  if (found === 'unknown' && !offersChoice(dialog)) return refuse('no-choice');
  const button = confirmButtonOf(dialog);
  if (!button) return refuse('no-confirm-button');
  if (DIALOG_TEXT.cancelLabel.test(buttonLabel(button))) return refuse('confirm-looks-like-cancel');
  if (DANGEROUS_LABEL.test(buttonLabel(button))) return refuse('confirm-looks-dangerous');
  if (isDisabled(button)) return refuse('confirm-disabled');
  const rule = found === 'restart-confirm' ? 'english-text' : 'right-after-action';
  return { outcome: 'confirmed', button, kind, rule, saw };
}

/**
 * Declines Colab's "Switch to a high-RAM runtime?" offer after a RAM crash (§5.1), so that Run all can go on: its "No"
 * keeps the runtime as it is. Only that dialog (English text), only a button both marked and labelled as the cancel.
 * Resolves true once the offer is closed, false when there was none or it stayed open.
 */
export async function declineHighRamOffer(doc: Document, settleMs = 3000): Promise<boolean> {
  const offer = openDialogs(doc).find((d) => classifyDialog(d) === 'high-ram-offer');
  const no =
    offer &&
    deepQueryAll(offer, DIALOG.cancel).find((el) => !isDisabled(el) && DIALOG_TEXT.cancelLabel.test(buttonLabel(el)));
  if (!offer || !no) return false;
  return clickDialogButton(offer, no, settleMs);
}
