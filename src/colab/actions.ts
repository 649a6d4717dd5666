/**
 * The operations a person would do after an OOM failure, through Colab's own UI (REFERENCE.md §1, §2, §8, §11):
 * Runtime → "Restart session and run all" → confirm → verify, with the toolbar split button as the fallback (and the
 * only path while Colab's header is collapsed or missing). Never retried blindly: every failure reports which step
 * failed and what it saw, and leaves no menu open.
 */

import { type Failed, fail, seeing } from '../state/failed-step';
import type { PageCapture } from '../state/page-capture';
import { captureDialog, captureRuntimeMenu } from './capture';
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
import { checkToolbarCommand, chooseToolbarCommand, clickToolbarRunAll, hasToolbarMenu } from './toolbar-menu';
import { type RunSnapshot, runStartCheck, takeRunSnapshot, verifyRunStarted, waitForReadyRuntime } from './verify';

export interface ActionOptions {
  /** Wait for a menu to open (default 3000 ms). */
  menuTimeoutMs?: number;
  /** Wait for the confirmation dialog (default 5000 ms; none is fine). */
  dialogTimeoutMs?: number;
  /** Wait for a dialog's opening animation, then for it to close after the click (default 3000 ms each). */
  dialogSettleMs?: number;
  /**
   * Wait for evidence that the run started (default 60000 ms after a restart, which takes the kernel seconds to tens
   * of seconds before the cells queue; 15000 ms after Run all on a ready kernel).
   */
  verifyTimeoutMs?: number;
  /** Wait for the runtime to be connected and idle before Run all (default 60000 ms, §11.5). */
  readyTimeoutMs?: number;
  /** Takes a capture of each menu and dialog the action meets (capture.ts), for "Copy diagnostics". */
  capture?: (capture: PageCapture) => void;
}

export type ActionStep = 'precheck' | 'runtime-ready' | 'open-menu' | 'find-item' | 'confirm' | 'verify';

export type ActionFailure = Failed<ActionStep>;

export type ActionResult =
  | {
      ok: true;
      path: 'menu' | 'toolbar';
      via: 'command' | 'label';
      dialog: 'confirmed' | 'no-dialog' | 'none';
      evidence: string;
    }
  | ActionFailure;

/** The command was chosen (and activated); what the later steps need to know. */
interface Chosen {
  ok: true;
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
  { ok: true; via: 'command' | 'label'; label: string } | Failed<'open-menu' | 'find-item'>
>;

const RESTART_VERIFY_MS = 60_000;
const RUN_ALL_VERIFY_MS = 15_000;

function isEnglishLabel(command: string, label: string): boolean {
  return (LABELS[command] ?? []).some((re) => re.test(label));
}

/** A dialog already open would swallow our clicks or be mistaken for ours: report it, act on nothing. */
function precheck(doc: Document, opts: ActionOptions): ActionFailure | null {
  const open = classifyOpenDialogs(doc)[0];
  if (!open) return null;
  opts.capture?.(captureDialog(open.dialog, 'blocked'));
  return fail('precheck', open.kind, open.text);
}

/** What the action is, as a capture says it: a restart, or a Run all. */
const occasionOf = (command: string) => (command === COMMAND.runAll ? 'run-all' : 'restart');

async function chooseViaMenu(doc: Document, command: string, opts: ActionOptions): Promise<Chosen | ActionFailure> {
  const opened = await openRuntimeMenu(doc, { timeoutMs: opts.menuTimeoutMs });
  if (!opened.ok) return opened;
  opts.capture?.(captureRuntimeMenu(opened.button, opened.menu, occasionOf(command)));
  const found = findMenuItem(opened.menu, command);
  if (!found.ok) {
    if (opened.openedByUs) await closeMenu(doc, opened.menu);
    return found;
  }
  const before = openDialogs(doc);
  const since = Date.now();
  activateMenuItem(found.item);
  const menu = opened.openedByUs ? opened.menu : null;
  const englishUi = isEnglishLabel(command, found.label);
  return { ok: true, path: 'menu', via: found.via, englishUi, before, since, menu };
}

/** Menu path first; the fallback only when the menu path failed before anything was activated. */
async function choose(
  doc: Document,
  command: string,
  opts: ActionOptions,
  fallback: Fallback,
): Promise<Chosen | ActionFailure> {
  const viaMenu = await chooseViaMenu(doc, command, opts);
  if (viaMenu.ok) return viaMenu;
  const before = openDialogs(doc);
  const since = Date.now();
  const viaToolbar = await fallback();
  if (!viaToolbar.ok) {
    const { reason, saw } = viaToolbar.failed;
    return seeing(viaMenu, `${viaMenu.failed.saw}; toolbar fallback: ${reason}; toolbar: ${saw}`);
  }
  const englishUi = isEnglishLabel(command, viaToolbar.label);
  return { ok: true, path: 'toolbar', via: viaToolbar.via, englishUi, before, since, menu: null };
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
  timeoutMs: number,
): Promise<ActionResult> {
  const verified = await verifyRunStarted(doc, { since: snapshot, timeoutMs });
  if (!verified.ok) return seeing(verified, `(dialog: ${dialog})${note}; ${verified.failed.saw}`);
  return { ok: true, path: chosen.path, via: chosen.via, dialog, evidence: verified.evidence };
}

/**
 * Runtime → "Restart session and run all" → confirm → verify (§1.2 steps 1-4, §8). Verified only by cells that went
 * pending or running (or were numbered anew): the connect button turning busy is the restart alone (§11.5).
 */
export async function restartAndRunAll(doc: Document, opts: ActionOptions = {}): Promise<ActionResult> {
  const blocked = precheck(doc, opts);
  if (blocked) return blocked;
  const snapshot = takeRunSnapshot(doc);
  const command = COMMAND.restartAndRunAll;
  const chosen = await choose(doc, command, opts, () =>
    chooseToolbarCommand(doc, command, { timeoutMs: opts.menuTimeoutMs }),
  );
  if (!chosen.ok) return chosen;
  const started = runStartCheck(doc, snapshot);
  const confirm = await confirmRestartDialog(doc, {
    timeoutMs: opts.dialogTimeoutMs,
    settleMs: opts.dialogSettleMs,
    before: chosen.before,
    since: chosen.since,
    englishUi: chosen.englishUi,
    runStarted: () => started() !== null,
    met: (dialog) => opts.capture?.(captureDialog(dialog, 'restart')),
  });
  const note = await tidyMenu(doc, chosen);
  if (confirm.outcome === 'refused') return fail('confirm', confirm.reason, `${confirm.kind}${note}; ${confirm.saw}`);
  if (confirm.outcome === 'stayed-open') {
    const lost = `${confirm.kind} (the click was lost; not clicked again)${note}`;
    return fail('confirm', 'dialog-stayed-open', `${lost}; ${confirm.saw}`);
  }
  return verify(doc, chosen, snapshot, confirm.outcome, note, opts.verifyTimeoutMs ?? RESTART_VERIFY_MS);
}

/**
 * Runtime → "Run all", for Colab's own RAM crash ("Your session crashed after using all available RAM", §5.1).
 * There the kernel process was killed and Colab starts a fresh one by itself, so "Restart session and run all"
 * would only restart that fresh kernel again behind a confirmation; Run all re-runs the notebook on it with no
 * dialog. (A Python-level OOM leaves the old kernel alive with its memory held: that case uses restartAndRunAll.)
 * A Run all sent while Colab still brings the kernel back is ignored (§11.5), so it waits, bounded, for the connect
 * button to show the runtime connected and idle, and then requires cells to go pending or running.
 * Fallback: the toolbar's "Run all" button (same command, §1.3), never a restart. No dialog is confirmed here; the
 * high-RAM offer that may follow the crash is declined ("No": the runtime stays as it is).
 */
export async function runAll(doc: Document, opts: ActionOptions = {}): Promise<ActionResult> {
  await declineHighRamOffer(doc, opts.dialogSettleMs);
  const blocked = precheck(doc, opts);
  if (blocked) return blocked;
  const ready = await waitForReadyRuntime(doc, { timeoutMs: opts.readyTimeoutMs });
  if (!ready.ok) return ready;
  // A dialog may have opened while the kernel came back (new runtime required, usage limits).
  const blockedNow = precheck(doc, opts);
  if (blockedNow) return blockedNow;
  const snapshot = takeRunSnapshot(doc);
  const chosen = await choose(doc, COMMAND.runAll, opts, async () =>
    clickToolbarRunAll(doc)
      ? { ok: true, via: 'command', label: 'Run all' }
      : fail('open-menu', 'toolbar-missing', 'no toolbar Run all button'),
  );
  if (!chosen.ok) return chosen;
  const note = await tidyMenu(doc, chosen);
  return verify(doc, chosen, snapshot, 'none', note, opts.verifyTimeoutMs ?? RUN_ALL_VERIFY_MS);
}

export type CheckUiResult =
  | {
      ok: true;
      path: 'menu' | 'toolbar';
      via: 'command' | 'label';
      label: string;
      disabled: boolean;
      toolbar: boolean;
      detail: string;
    }
  | (Failed<'open-menu' | 'find-item' | 'close-menu'> & { toolbar: boolean });

/**
 * The "Check Colab UI" dry run: opens the Runtime menu, finds the restart item (by command or label, noting
 * whether Colab disables it, as it does while no runtime is connected), and closes the menu without choosing it.
 * With Colab's header collapsed or missing, the same on the toolbar split button's menu, the path a restart takes then.
 */
export async function checkUi(doc: Document, opts: ActionOptions = {}): Promise<CheckUiResult> {
  const toolbar = hasToolbarMenu(doc);
  const opened = await openRuntimeMenu(doc, { timeoutMs: opts.menuTimeoutMs });
  if (!opened.ok) {
    const { reason } = opened.failed;
    if ((reason === 'menubar-missing' || reason === 'header-collapsed') && toolbar) {
      return checkToolbar(doc, reason, opts);
    }
    return { ...opened, toolbar };
  }
  opts.capture?.(captureRuntimeMenu(opened.button, opened.menu, 'check'));
  const found = locateMenuItem(opened.menu, COMMAND.restartAndRunAll);
  const items = describeItems(opened.menu);
  const closed = opened.openedByUs ? await closeMenu(doc, opened.menu) : true;
  if (!found)
    return { ok: false, failed: { step: 'find-item', reason: 'item-missing', saw: `items: ${items}` }, toolbar };
  if (!closed) {
    const saw = `"${found.label}" found by ${found.via}`;
    return { ok: false, failed: { step: 'close-menu', reason: 'menu-stayed-open', saw }, toolbar };
  }
  return {
    ok: true,
    path: 'menu',
    via: found.via,
    label: found.label,
    disabled: found.disabled,
    toolbar,
    detail:
      `"${found.label}" found by ${found.via}${disabledNote(found.disabled)}; ` +
      `toolbar fallback ${toolbar ? 'present' : 'absent'}`,
  };
}

function disabledNote(disabled: boolean): string {
  return disabled ? ' (disabled now: Colab disables it while no runtime is connected)' : '';
}

async function checkToolbar(
  doc: Document,
  menuProblem: 'menubar-missing' | 'header-collapsed',
  opts: ActionOptions,
): Promise<CheckUiResult> {
  const found = await checkToolbarCommand(doc, COMMAND.restartAndRunAll, { timeoutMs: opts.menuTimeoutMs });
  if (!found.ok) {
    const saw = `toolbar fallback: ${found.failed.reason}; toolbar: ${found.failed.saw}`;
    return { ok: false, failed: { step: 'open-menu', reason: menuProblem, saw }, toolbar: true };
  }
  return {
    ok: true,
    path: 'toolbar',
    via: found.via,
    label: found.label,
    disabled: found.disabled,
    toolbar: true,
    detail: `${menuProblem}: "${found.label}" found by ${found.via} in the toolbar menu${disabledNote(found.disabled)}`,
  };
}
