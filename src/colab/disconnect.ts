/**
 * Colab's notices that the runtime is gone (REFERENCE.md §5.1, §5.2, §12.4): why, from their words (the body decides,
 * never the title); whether the notebook ended its runtime itself; and the reconnect a person makes after an idle
 * time-out or an outage: the dialog's Reconnect, or the connect button when no dialog is open.
 */

import type { DisconnectKind } from '../state/disconnect';
import { type Failed, fail } from '../state/failed-step';
import { cellSource, editorText, outputText } from './cells';
import {
  buttonLabel,
  classifyDialog,
  clickDialogButton,
  confirmButtonOf,
  dialogText,
  isDisabled,
  openDialogs,
} from './dialogs';
import { deepQuery, deepQueryAll, dispatchMouseSequence, squash, waitFor } from './dom';
import { connectButtonState, runtimeState } from './kernel-state';
import { CONNECT, DANGEROUS_LABEL, DIALOG, DIALOG_TEXT, DISCONNECT_TEXT, OUTPUT, TOAST, UNASSIGN } from './selectors';
import { toastText } from './toast-watcher';

/** What Colab's words say; 'intended' is the page's own finding (the notebook's code), never Colab's. */
export type NoticeKind = Exclude<DisconnectKind, 'intended'>;

/** Most specific first: the disallowed-code body also names a zero balance and ends like the idle one. */
const NOTICE_CHECKS: ReadonlyArray<readonly [NoticeKind, RegExp]> = [
  ['disallowed-code', DISCONNECT_TEXT.disallowedCode],
  ['zero-units', DISCONNECT_TEXT.zeroUnits],
  ['usage-limit', DISCONNECT_TEXT.usageLimit],
  ['unable-to-connect', DISCONNECT_TEXT.unableToConnect],
  ['idle', DISCONNECT_TEXT.idle],
];

/** Why a disconnect notice (a "Runtime disconnected" dialog's whole text) says the runtime went away. */
export function disconnectKind(text: string): NoticeKind {
  return NOTICE_CHECKS.find(([, words]) => words.test(text))?.[0] ?? 'unknown';
}

/**
 * A toast about the runtime: the outage's "Unable to connect to the runtime." (§5.1 "Other toasts"), or Colab's own
 * reasons should a toast give them (disallowed code, no compute units, §12.4). Crash notices are no disconnects.
 */
export function toastDisconnect(text: string): NoticeKind | null {
  const kind = disconnectKind(text);
  return kind === 'unable-to-connect' || kind === 'disallowed-code' || kind === 'zero-units' ? kind : null;
}

/** What a dialog says, for the person: its title and body, without its buttons' labels. */
export function noticeWords(dialog: Element): string {
  const parts = [dialog.getAttribute('heading') ?? ''];
  const walk = (node: Node) => {
    for (const child of node.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) parts.push(child.textContent ?? '');
      else if (child.nodeType === Node.ELEMENT_NODE && !(child as Element).matches(DIALOG.button)) walk(child);
    }
  };
  walk(dialog);
  return squash(parts.join(' ')) || dialogText(dialog);
}

/** The two a person (and the guard, with its setting on) answers by reconnecting. */
function isAnswerable(kind: NoticeKind): boolean {
  return kind === 'idle' || kind === 'unable-to-connect';
}

/** Whether a cell's source calls `unassign(…)` (§12.4). */
export function callsUnassign(source: string): boolean {
  return UNASSIGN.source.test(source);
}

/**
 * Whether a cell that ran shows that it ends its own runtime: its source calls `unassign(…)`, or its output in the
 * page says it did. Read when a disconnect notice comes; an editor not rendered yet shows no source.
 */
export function endsOwnRuntime(cell: Element): boolean {
  const source = cellSource(cell) ?? editorText(cell);
  return (!!source && callsUnassign(source)) || saysUnassigned(cell);
}

/**
 * Whether a cell's output in the page says the runtime is being unassigned. Its output is this session's: Colab
 * clears a queued cell's outputs (§11.4), so a cell queued and never run shows none.
 */
export function saysUnassigned(cell: Element): boolean {
  const output = cell.querySelector(OUTPUT.staticRenderer);
  return !!output && UNASSIGN.output.test(outputText(output));
}

/** The open disconnect dialogs, each with what its body says. */
function disconnectDialogs(doc: Document): Array<{ dialog: Element; kind: NoticeKind }> {
  return openDialogs(doc)
    .filter((dialog) => classifyDialog(dialog) === 'disconnected')
    .map((dialog) => ({ dialog, kind: disconnectKind(dialogText(dialog)) }));
}

/** The open disconnect dialog a person would answer with Reconnect (an idle time-out or an outage), or null. */
export function findDisconnectDialog(doc: Document): Element | null {
  return disconnectDialogs(doc).find((d) => isAnswerable(d.kind))?.dialog ?? null;
}

/** What a dialog is, in a failed step's words: a disconnect with its body's reason. */
function describeDialog(dialog: Element): string {
  const kind = classifyDialog(dialog);
  return kind === 'disconnected' ? `disconnected (${disconnectKind(dialogText(dialog))})` : kind;
}

/** What was showing before the reconnect: a notice already open then says nothing about the new attempt. */
interface Before {
  dialogs: ReadonlySet<Element>;
  toasts: ReadonlySet<string>;
}

export type ReconnectStart =
  | { ok: true; via: 'dialog' | 'connect-button'; before: Before }
  /** With `not-needed`, the runtime shows connected or connecting again: there is nothing to reconnect. */
  | Failed<'reconnect'>;

/**
 * Starts a reconnect as a person would: Reconnect on the one open disconnect dialog that may be answered (an idle
 * time-out or an outage, §5.2, §12.4), its label checked; with no dialog open, the connect button while it shows
 * the runtime disconnected ("Reconnect", §5.4). Any other dialog open, and every other disconnect, is left alone.
 */
export async function reconnect(doc: Document, settleMs?: number): Promise<ReconnectStart> {
  const dialogs = openDialogs(doc);
  const answerable = findDisconnectDialog(doc);
  const others = dialogs.filter((dialog) => dialog !== answerable);
  if (others.length) return fail('reconnect', 'dialog-open', others.map(describeDialog).join(', '));
  const before = { dialogs: new Set(dialogs), toasts: new Set(openToastTexts(doc)) };
  if (answerable) {
    const button = confirmButtonOf(answerable);
    if (!button || isDisabled(button)) return fail('reconnect', 'no-reconnect-button', dialogText(answerable));
    const label = buttonLabel(button);
    if (!DIALOG_TEXT.reconnectLabel.test(label) || DANGEROUS_LABEL.test(label))
      return fail('reconnect', 'unexpected-label', label);
    if (!(await clickDialogButton(answerable, button, settleMs)))
      return fail('reconnect', 'no-reconnect-button', `the dialog stayed open after "${label}" was clicked`);
    return { ok: true, via: 'dialog', before };
  }
  return clickConnectButton(doc, before);
}

function clickConnectButton(doc: Document, before: Before): ReconnectStart {
  const host = deepQuery(doc, CONNECT.host);
  if (!host) return fail('reconnect', 'no-connect-button', `no ${CONNECT.host}`);
  const state = connectButtonState(host);
  if (state === 'idle' || state === 'busy' || state === 'connecting')
    return fail('reconnect', 'not-needed', `runtime ${state}`);
  const button = (host.shadowRoot ?? host).querySelector(CONNECT.button);
  const label = button ? buttonLabel(button) : '';
  if (state !== 'disconnected' || !button) return fail('reconnect', 'runtime-unreadable', `connect button: "${label}"`);
  if (!CONNECT.disconnectedText.test(label) || DANGEROUS_LABEL.test(label))
    return fail('reconnect', 'unexpected-label', label);
  dispatchMouseSequence(button, 'click');
  return { ok: true, via: 'connect-button', before };
}

/** The texts of the toasts shown now (§5.1). */
function openToastTexts(doc: Document): string[] {
  return deepQueryAll(doc, TOAST.host)
    .filter((host) => host.shadowRoot?.querySelector(TOAST.surface)?.classList.contains(TOAST.openClass))
    .map(toastText);
}

/**
 * Waits for the reconnect's outcome: the runtime connected (idle, or busy), or Colab unable to connect, told by a
 * new "Unable to connect to the runtime" toast or dialog, a new disconnect dialog that may be answered (colabtools
 * #5650 shows "Runtime disconnected" after a failed connect), or the connect button back at "Reconnect" after it
 * showed "Connecting". Any other new dialog stops it. Observed, not polled; bounded by `timeoutMs`.
 */
export async function awaitReconnect(
  doc: Document,
  before: Before,
  timeoutMs = 60_000,
): Promise<{ ok: true } | Failed<'reconnect'>> {
  let tried = false;
  const outcome = () => {
    const state = runtimeState(doc);
    if (state === 'idle' || state === 'busy') return { ok: true as const };
    tried ||= state === 'connecting';
    if (tried && state === 'disconnected')
      return fail('reconnect', 'unable-to-connect', 'the connect button showed "Reconnect" again');
    const toast = openToastTexts(doc).find((text) => toastDisconnect(text) && !before.toasts.has(text));
    if (toast) return fail('reconnect', 'unable-to-connect', toast);
    const dialog = openDialogs(doc).find((d) => !before.dialogs.has(d));
    if (!dialog) return null;
    if (dialog === findDisconnectDialog(doc)) return fail('reconnect', 'unable-to-connect', dialogText(dialog));
    return fail('reconnect', 'dialog-open', `${describeDialog(dialog)}: ${dialogText(dialog)}`);
  };
  const settled = await waitFor(outcome, { root: doc, timeoutMs, observeShadowRoots: true });
  return (
    settled ?? fail('reconnect', 'runtime-not-ready', `runtime ${runtimeState(doc) ?? 'unknown'} after ${timeoutMs} ms`)
  );
}
