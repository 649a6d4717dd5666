/**
 * Colab's dialogs in every form REFERENCE.md §2 lists, how to tell them apart, and the one confirmation this
 * extension gives: the restart confirmation that follows its own menu action.
 */

import { cut, TEXT_LIMITS } from '../limits';
import { deepQuery, deepQueryAll, deepText, dispatchMouseSequence, isVisible, squash, waitFor } from './dom';
import { type Fail, fail } from './result';
import { DANGEROUS_LABEL, DIALOG, DIALOG_MARKERS, DIALOG_TEXT } from './selectors';

export type DialogKind = 'restart-confirm' | 'disconnected' | 'gpu-quota' | 'recaptcha' | 'usage-limit' | 'unknown';

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

function buttonLabel(button: Element): string {
  return squash(button.getAttribute('label')) || squash(button.textContent) || deepText(button, 200);
}

function isDisabled(el: Element): boolean {
  return el.hasAttribute('disabled') || el.hasAttribute('soft-disabled') || el.getAttribute('aria-disabled') === 'true';
}

/** Known dialogs that are not the restart confirmation, by markers any UI language keeps, or English text. */
function isKnownOther(dialog: Element, text: string): boolean {
  return (
    dialog.matches(DIALOG_MARKERS.other) || !!deepQuery(dialog, DIALOG_MARKERS.other) || DIALOG_TEXT.other.test(text)
  );
}

function classify(dialog: Element, text: string): DialogKind | 'other' {
  const recaptcha = DIALOG_MARKERS.recaptcha;
  if (dialog.matches(recaptcha) || deepQuery(dialog, recaptcha) || DIALOG_TEXT.recaptcha.test(text)) return 'recaptcha';
  if (DIALOG_TEXT.gpuQuota.test(text)) return 'gpu-quota';
  if (DIALOG_TEXT.disconnected.test(text)) return 'disconnected';
  if (DIALOG_TEXT.usageLimit.test(text)) return 'usage-limit';
  if (isKnownOther(dialog, text)) return 'other';
  return DIALOG_TEXT.restartConfirm.test(text) ? 'restart-confirm' : 'unknown';
}

/** What an open dialog is (English texts and markers, §2, §5.2, §5.3); 'unknown' when it cannot tell. */
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
  /** Whether Colab's UI is in English (default: `<html lang>` absent or en*). */
  englishUi?: boolean;
  /** "Right after our action", for dialogs whose text cannot be judged (default 2000 ms). */
  immediateMs?: number;
  /** Stops waiting with 'no-dialog' once this is true: a run that started needs no confirmation. */
  runStarted?: () => boolean;
}

export type RefuseReason =
  | 'other-dialog'
  | 'unrecognised-dialog'
  | 'late-dialog'
  | 'no-confirm-button'
  | 'confirm-disabled'
  | 'confirm-looks-like-cancel'
  | 'confirm-looks-dangerous';

export type ConfirmOutcome =
  | { outcome: 'confirmed'; dialog: Element; rule: 'english-text' | 'right-after-action'; saw: string }
  | { outcome: 'no-dialog' }
  | { outcome: 'refused'; reason: RefuseReason; kind: DialogKind; saw: string };

export function isEnglishUi(doc: Document): boolean {
  const lang = doc.documentElement.lang;
  return !lang || /^en\b/i.test(lang);
}

/**
 * Confirms the restart dialog that our menu action opened, if one opens within the timeout. The rule (the
 * confirmation itself was never captured, §2, so it is judged by exclusion plus timing):
 * 1. Only a dialog that was not open before our action (`before`) is considered.
 * 2. A dialog recognisable as anything else is refused: reCAPTCHA, GPU quota, disconnected, usage limits, and the
 *    known others (delete runtime, change runtime type, "not authored by Google", pip restart warning, sessions…),
 *    by markers and English text.
 * 3. English UI with readable text: it must read like a restart confirmation ("restart", "local variables will be
 *    lost"); otherwise refused as unrecognised.
 * 4. Non-English UI or unreadable text: refused when it names GPU/TPU/RAM/Google/Colab Pro/reCAPTCHA (untranslated
 *    names that only the other dialogs use); otherwise accepted only when it appeared within `immediateMs` of our
 *    action (a confirmation is shown at once by the menu action; the others come later or from a server reply).
 * 5. The confirming button is found by attributes, must not be labelled like a cancel, and must be enabled.
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
  return decide(dialog, elapsed, opts.englishUi ?? isEnglishUi(doc), opts.immediateMs ?? 2000);
}

function decide(dialog: Element, elapsedMs: number, englishUi: boolean, immediateMs: number): ConfirmOutcome {
  const text = dialogText(dialog);
  const kind = classify(dialog, text);
  const name = `${dialog.localName}${dialog.id ? `#${dialog.id}` : ''}`;
  const saw = `${name} after ${elapsedMs} ms: "${cut(text, TEXT_LIMITS.dialog)}"`;
  const refuse = (reason: RefuseReason): ConfirmOutcome => ({
    outcome: 'refused',
    reason,
    kind: kind === 'other' ? 'unknown' : kind,
    saw,
  });
  if (kind !== 'restart-confirm' && kind !== 'unknown') return refuse('other-dialog');
  if (kind === 'unknown' && englishUi && text) return refuse('unrecognised-dialog');
  if (kind === 'unknown' && DIALOG_TEXT.foreignTokens.test(text)) return refuse('other-dialog');
  if (kind === 'unknown' && elapsedMs > immediateMs) return refuse('late-dialog');
  const button = confirmButtonOf(dialog);
  if (!button) return refuse('no-confirm-button');
  if (DIALOG_TEXT.cancelLabel.test(buttonLabel(button))) return refuse('confirm-looks-like-cancel');
  if (DANGEROUS_LABEL.test(buttonLabel(button))) return refuse('confirm-looks-dangerous');
  if (isDisabled(button)) return refuse('confirm-disabled');
  dispatchMouseSequence(button, 'click');
  return {
    outcome: 'confirmed',
    dialog,
    rule: kind === 'restart-confirm' ? 'english-text' : 'right-after-action',
    saw,
  };
}

/**
 * Declines Colab's "Switch to a high-RAM runtime?" offer after a RAM crash (§5.1), so that Run all can go on: its "No"
 * keeps the runtime as it is. Only that dialog (English text), only a button both marked and labelled as the cancel.
 * Resolves true once the offer is closed, false when there was none or it stayed open.
 */
export async function declineHighRamOffer(doc: Document, timeoutMs = 3000): Promise<boolean> {
  const offer = openDialogs(doc).find((d) => DIALOG_TEXT.highRamOffer.test(dialogText(d)));
  const no =
    offer &&
    deepQueryAll(offer, DIALOG.cancel).find((el) => !isDisabled(el) && DIALOG_TEXT.cancelLabel.test(buttonLabel(el)));
  if (!offer || !no) return false;
  dispatchMouseSequence(no, 'click');
  return !!(await waitFor(() => !isOpenDialog(offer), { root: doc, timeoutMs }));
}

/** The open "Runtime disconnected" dialog (§5.2), or null. */
export function findDisconnectDialog(doc: Document): Element | null {
  return openDialogs(doc).find((d) => classifyDialog(d) === 'disconnected') ?? null;
}

/** Clicks "Reconnect" (the primary action) only on the Runtime-disconnected dialog (§5.2). */
export function reconnect(
  doc: Document,
): { ok: true } | Fail<'no-disconnect-dialog' | 'no-reconnect-button' | 'unexpected-label'> {
  const dialog = findDisconnectDialog(doc);
  if (!dialog)
    return fail(
      'no-disconnect-dialog',
      classifyOpenDialogs(doc)
        .map((d) => d.kind)
        .join(', '),
    );
  const button = confirmButtonOf(dialog);
  if (!button || isDisabled(button)) return fail('no-reconnect-button', dialogText(dialog));
  const label = buttonLabel(button);
  if (!DIALOG_TEXT.reconnectLabel.test(label) || DANGEROUS_LABEL.test(label)) return fail('unexpected-label', label);
  dispatchMouseSequence(button, 'click');
  return { ok: true };
}
