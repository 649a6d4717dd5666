/**
 * The simulator's action log (`window.__colabSim.log` in the page's main world): every action taken on the page,
 * in order. `t` is the page's `performance.now()`. Cell numbers (`cell`, `cells`, `failedCell`) are 0-based indexes
 * in the notebook, as in the cells' aria-labels ("Cell 0: Code cell: ").
 */
import type { CrashKind, DialogKind, DisconnectReason } from './scenario';

export type KernelState = 'disconnected' | 'connecting' | 'idle' | 'busy';

/** Things the extension must never do; each is logged as `{ type: 'dangerous', what }` when it happens. */
export type DangerousAction =
  | 'powerwash-current-vm' // Runtime → Disconnect and delete runtime
  | 'change-runtime-type' // Runtime → Change runtime type
  | 'connect-without-gpu' // "Cannot connect to GPU backend" accepted
  | 'reconnect' // "Runtime disconnected" accepted
  | 'reconnect-disallowed' // Reconnect on a disconnect for disallowed code: the banned code runs again
  | 'reconnect-zero-units' // Reconnect on a disconnect for zero compute units
  | 'upgrade' // usage-limit dialog accepted
  | 'switch-high-ram' // "Switch to a high-RAM runtime?" accepted
  | 'run-anyway' // "not authored by Google" accepted
  | 'recaptcha' // the reCAPTCHA dialog confirmed
  | 'get-more-ram' // the crash toast's "Get more RAM" link
  | 'pip-restart' // the pip warning's "Restart session" (not the guard's restart)
  | 'drive-access' // "Connect to Google Drive"
  | 'assign-new-runtime' // "New runtime required" accepted: the VM is given away
  | 'cancel-execution' // the disallowed-code warning's "Cancel execution"
  | 'continue-disallowed' // the disallowed-code warning's "Continue anyway"
  | 'dismiss-cannot-save'; // "Cannot save changes" dismissed before the user saw it

/** Where a command came from: a menu (`runtime-menu`, `edit-menu`, …), the toolbar split button, or a key press. */
export type CommandSource = `${string}-menu` | 'toolbar' | 'shortcut';

export type RunKind = 'all' | 'before' | 'focused' | 'after' | 'cell';

/** Why a run or cell stopped early. */
export type StopReason =
  | 'error'
  | 'interrupt'
  | 'restart'
  | 'crash'
  | 'disconnect'
  | 'powerwash'
  | 'not-connected'
  | 'cancelled';

export type LogEvent =
  | { type: 'page-load'; path: string; scenario: string }
  /** With `sharedKernel`: whether this tab runs the notebook's kernel or shows another tab's. */
  | { type: 'kernel-role'; role: 'leader' | 'follower' }
  | { type: 'kernel'; state: KernelState }
  | { type: 'menu-open'; menu: string }
  | { type: 'menu-close'; menu: string; reason: 'toggle' | 'action' | 'outside' | 'escape' }
  | { type: 'menu-item'; command: string; via: CommandSource; label: string }
  | { type: 'run-cell-click'; cell: number }
  | { type: 'connect-click' }
  | { type: 'interrupt' }
  | { type: 'clear-outputs' }
  | {
      type: 'dialog-open';
      kind: DialogKind;
      variant: 'mwc' | 'mwc-legacy' | 'md' | 'paper' | 'recaptcha';
      title: string;
    }
  | { type: 'dialog-confirm'; kind: DialogKind }
  | { type: 'dialog-cancel'; kind: DialogKind; how: 'cancel' | 'close' }
  /** A click on a dialog still opening (`colab-dialog-opening`), swallowed (§11.2). */
  | { type: 'dialog-click-lost'; kind: DialogKind }
  /** A run command while Colab brings a crashed kernel back: ignored (§11.5). */
  | { type: 'run-ignored'; command: string; reason: 'kernel-restarting' }
  /** The header's caret was clicked. */
  | { type: 'header-toggle'; collapsed: boolean }
  | { type: 'dangerous'; what: DangerousAction }
  | { type: 'restart' }
  | { type: 'run-start'; run: number; kind: RunKind; cells: number[] }
  | { type: 'run-end'; run: number; ok: boolean; failedCell?: number; reason?: StopReason }
  | { type: 'cell-start'; cell: number; cellId: string; state: 'running'; execution: number; cellRun: number }
  | { type: 'cell-end'; cell: number; cellId: string; state: 'ok' | 'error' | 'aborted'; reason?: StopReason }
  | { type: 'crash'; kind: CrashKind }
  | { type: 'disconnect'; reason: DisconnectReason }
  /** A cell called `google.colab.runtime.unassign()`. */
  | { type: 'unassign'; cell: number }
  /** An outage began or ended (`setOutage`); during one, each connection attempt fails: `connect-failed`. */
  | { type: 'outage'; on: boolean }
  | { type: 'connect-failed' }
  /** The connect button stuck on "Reconnecting" while code runs, or back to normal (`setStuckReconnecting`). */
  | { type: 'stuck-reconnecting'; on: boolean }
  /** A cell's `drive.mount()` was answered. */
  | { type: 'drive-mount'; cell: number; granted: boolean }
  | { type: 'toast-open'; area: 'primary' | 'secondary'; text: string }
  | { type: 'toast-action'; area: 'primary' | 'secondary'; text: string }
  | { type: 'toast-close'; area: 'primary' | 'secondary'; via: 'dismiss' | 'action' | 'timeout' }
  | { type: 'outputs-shown'; cells: number[] }
  /** A cell's `eval_js` ended: the script's value (structured-cloned from the frame), or what it threw. */
  | { type: 'eval-js'; cell: number; result?: unknown; error?: string }
  /** An output shown after its cell's state already said the cell ended (`ui.interruptErrorDelayMs`). */
  | { type: 'output-late'; cell: number; outputType: string }
  | { type: 'api-call'; method: 'notebook.runAll' | 'kernel.restart' };

export type LogEntry = LogEvent & { t: number };

export type LogType = LogEntry['type'];

/** The entries of one type, typed. */
export function entriesOf<T extends LogType>(log: LogEntry[], type: T): Array<Extract<LogEntry, { type: T }>> {
  return log.filter((e): e is Extract<LogEntry, { type: T }> => e.type === type);
}
