/**
 * The operations a person would do after an OOM failure, through Colab's own UI (REFERENCE.md §1, §2, §8):
 * Runtime → "Restart session and run all" → confirm → verify, with the toolbar split button as the fallback.
 * Never retried blindly: every failure reports which step failed and what it saw, and leaves no menu open.
 */

import { classifyOpenDialogs, confirmRestartDialog, declineHighRamOffer, openDialogs } from './dialogs';
import { isVisible } from './dom';
import {
  activateMenuItem,
  closeMenu,
  describeItems,
  findMenuItem,
  locateMenuItem,
  openRuntimeMenu,
} from './runtime-menu';
import { COMMAND, LABELS } from './selectors';
import { chooseToolbarCommand, clickToolbarRunAll, hasToolbarMenu } from './toolbar-menu';
import { type RunSnapshot, runEvidence, takeRunSnapshot, verifyRunStarted } from './verify';

export interface ActionOptions {
  /** Wait for a menu to open (default 3000 ms). */
  menuTimeoutMs?: number;
  /** Wait for the confirmation dialog (default 5000 ms; none is fine). */
  dialogTimeoutMs?: number;
  /** Wait for evidence that the run started (default 15000 ms). */
  verifyTimeoutMs?: number;
  /** Try the toolbar split button when the Runtime menu path fails before acting (default true). */
  toolbarFallback?: boolean;
}

export type ActionStep = 'precheck' | 'open-menu' | 'find-item' | 'confirm' | 'verify';

export type ActionFailure = { ok: false; step: ActionStep; detail: string; saw: string };

export type ActionResult =
  | {
      ok: true;
      path: 'menu' | 'toolbar';
      via: 'command' | 'label';
      dialog: 'confirmed' | 'no-dialog' | 'none';
      evidence: string;
    }
  | ActionFailure;

/** The command was chosen; what the later steps need to know. */
interface Chosen {
  path: 'menu' | 'toolbar';
  via: 'command' | 'label';
  englishUi: boolean;
  /** Dialogs open before the action, and when it happened: a later dialog is ours (§2). */
  before: Element[];
  since: number;
  /** The Runtime menu we opened: it should have closed on activation. */
  menu: Element | null;
}

type Fallback = () => Promise<
  { ok: true; via: 'command' | 'label'; label: string } | { ok: false; reason: string; saw: string }
>;

const failure = (step: ActionStep, detail: string, saw = ''): ActionFailure => ({ ok: false, step, detail, saw });

function isEnglishLabel(command: string, label: string): boolean {
  return (LABELS[command] ?? []).some((re) => re.test(label));
}

/** A dialog already open would swallow our clicks or be mistaken for ours: report it, act on nothing. */
function precheck(doc: Document): ActionFailure | null {
  const open = classifyOpenDialogs(doc)[0];
  return open ? failure('precheck', `dialog-open: ${open.kind}`, open.text) : null;
}

async function chooseViaMenu(doc: Document, command: string, opts: ActionOptions): Promise<Chosen | ActionFailure> {
  const opened = await openRuntimeMenu(doc, { timeoutMs: opts.menuTimeoutMs });
  if (!opened.ok) return failure('open-menu', opened.reason, opened.saw);
  const found = findMenuItem(opened.menu, command);
  if (!found.ok) {
    if (opened.openedByUs) await closeMenu(doc, opened.menu);
    return failure('find-item', found.reason, found.saw);
  }
  const before = openDialogs(doc);
  const since = Date.now();
  activateMenuItem(found.item);
  const menu = opened.openedByUs ? opened.menu : null;
  return { path: 'menu', via: found.via, englishUi: isEnglishLabel(command, found.label), before, since, menu };
}

/** Menu path first; the fallback only when the menu path failed before anything was activated. */
async function choose(
  doc: Document,
  command: string,
  opts: ActionOptions,
  fallback: Fallback,
): Promise<Chosen | ActionFailure> {
  const viaMenu = await chooseViaMenu(doc, command, opts);
  if (!('ok' in viaMenu) || opts.toolbarFallback === false) return viaMenu;
  const before = openDialogs(doc);
  const since = Date.now();
  const viaToolbar = await fallback();
  if (viaToolbar.ok) {
    return {
      path: 'toolbar',
      via: viaToolbar.via,
      englishUi: isEnglishLabel(command, viaToolbar.label),
      before,
      since,
      menu: null,
    };
  }
  return failure(
    viaMenu.step,
    `${viaMenu.detail}; toolbar fallback: ${viaToolbar.reason}`,
    `${viaMenu.saw}; toolbar: ${viaToolbar.saw}`,
  );
}

/** A Closure menu hides itself when an item acts; one still shown means the activation did not take. */
async function tidyMenu(doc: Document, chosen: Chosen): Promise<string> {
  if (!chosen.menu || !isVisible(chosen.menu)) return '';
  const closed = await closeMenu(doc, chosen.menu);
  return closed
    ? ' (the menu stayed open after activation; closed it)'
    : ' (the menu stayed open and could not be closed)';
}

async function verify(
  doc: Document,
  chosen: Chosen,
  snapshot: RunSnapshot,
  dialog: 'confirmed' | 'no-dialog' | 'none',
  note: string,
  opts: ActionOptions,
): Promise<ActionResult> {
  const verified = await verifyRunStarted(doc, { since: snapshot, timeoutMs: opts.verifyTimeoutMs });
  if (!verified.ok) return failure('verify', `${verified.reason} (dialog: ${dialog})${note}`, verified.saw);
  return { ok: true, path: chosen.path, via: chosen.via, dialog, evidence: verified.evidence };
}

/** Runtime → "Restart session and run all" → confirm → verify (§1.2 steps 1-4, §8). */
export async function restartAndRunAll(doc: Document, opts: ActionOptions = {}): Promise<ActionResult> {
  const blocked = precheck(doc);
  if (blocked) return blocked;
  const snapshot = takeRunSnapshot(doc);
  const command = COMMAND.restartAndRunAll;
  const chosen = await choose(doc, command, opts, () =>
    chooseToolbarCommand(doc, command, { timeoutMs: opts.menuTimeoutMs }),
  );
  if ('ok' in chosen) return chosen;
  const confirm = await confirmRestartDialog(doc, {
    timeoutMs: opts.dialogTimeoutMs,
    before: chosen.before,
    since: chosen.since,
    englishUi: chosen.englishUi,
    runStarted: () => runEvidence(doc, snapshot) !== null,
  });
  const note = await tidyMenu(doc, chosen);
  if (confirm.outcome === 'refused')
    return failure('confirm', `${confirm.reason}: ${confirm.kind}${note}`, confirm.saw);
  return verify(doc, chosen, snapshot, confirm.outcome, note, opts);
}

/**
 * Runtime → "Run all", for Colab's own RAM crash ("Your session crashed after using all available RAM", §5.1).
 * There the kernel process was killed and Colab has already started a fresh one, so "Restart session and run all"
 * would only restart that fresh kernel again behind a confirmation; Run all re-runs the notebook on it with no
 * dialog. (A Python-level OOM leaves the old kernel alive with its memory held: that case uses restartAndRunAll.)
 * Fallback: the toolbar's "Run all" button (same command, §1.3), never a restart. No dialog is confirmed here; the
 * high-RAM offer that may follow the crash is declined ("No": the runtime stays as it is).
 */
export async function runAll(doc: Document, opts: ActionOptions = {}): Promise<ActionResult> {
  await declineHighRamOffer(doc);
  const blocked = precheck(doc);
  if (blocked) return blocked;
  const snapshot = takeRunSnapshot(doc);
  const chosen = await choose(doc, COMMAND.runAll, opts, async () =>
    clickToolbarRunAll(doc)
      ? { ok: true, via: 'command', label: 'Run all' }
      : { ok: false, reason: 'toolbar-missing', saw: '' },
  );
  if ('ok' in chosen) return chosen;
  const note = await tidyMenu(doc, chosen);
  return verify(doc, chosen, snapshot, 'none', note, opts);
}

export type CheckUiResult =
  | { ready: true; via: 'command' | 'label'; label: string; disabled: boolean; toolbar: boolean; detail: string }
  | { ready: false; step: 'open-menu' | 'find-item' | 'close-menu'; detail: string; saw: string; toolbar: boolean };

/**
 * The "Check Colab UI" dry run: opens the Runtime menu, finds the restart item (by command or label, noting
 * whether Colab disables it, as it does while no runtime is connected), and closes the menu without choosing it.
 */
export async function checkUi(doc: Document, opts: ActionOptions = {}): Promise<CheckUiResult> {
  const toolbar = hasToolbarMenu(doc);
  const opened = await openRuntimeMenu(doc, { timeoutMs: opts.menuTimeoutMs });
  if (!opened.ok) return { ready: false, step: 'open-menu', detail: opened.reason, saw: opened.saw, toolbar };
  const found = locateMenuItem(opened.menu, COMMAND.restartAndRunAll);
  const items = describeItems(opened.menu);
  const closed = opened.openedByUs ? await closeMenu(doc, opened.menu) : true;
  if (!found) return { ready: false, step: 'find-item', detail: 'item-missing', saw: `items: ${items}`, toolbar };
  if (!closed)
    return {
      ready: false,
      step: 'close-menu',
      detail: 'menu-stayed-open',
      saw: `"${found.label}" found by ${found.via}`,
      toolbar,
    };
  const state = found.disabled ? ' (disabled now: Colab disables it while no runtime is connected)' : '';
  return {
    ready: true,
    via: found.via,
    label: found.label,
    disabled: found.disabled,
    toolbar,
    detail: `"${found.label}" found by ${found.via}${state}; toolbar fallback ${toolbar ? 'present' : 'absent'}`,
  };
}
