/**
 * The registry of everything this extension knows about Colab's DOM: selectors, `command` values and the English
 * texts it matches, joined with the other languages' texts of languages.ts where Colab was seen using them. When Colab
 * changes, this file (and only rarely the code using it) changes.
 * Each entry names its evidence in test/fixtures/colab-dom/REFERENCE.md (§ section / table row "#n"), the snippet
 * it must match (snippets/…html) and a confidence: High / Med / Low (= inferred, no capture).
 */

import { joinRegex } from '../lib/regex';
import { labelOf, mentionOf, orTranslated } from '../site/languages';

/** Closure menubar and the Runtime menu (§1.1, §1.2). */
export const MENU = {
  /** #2, snippet menubar-and-runtime-menu-2026-03. High. */
  runtimeButton: '#runtime-menu-button',
  /** Fallback when the id changes: a menubar button captioned "Runtime" (#2; §12.3 in es, pt, fr, ja). Med. */
  menuButton: '#top-menubar .goog-menu-button, [role=menubar] [role=button][aria-haspopup]',
  menuButtonCaption: '.goog-menu-button-caption',
  /** The menu bar the Runtime button sits in (#1, same snippet), as a capture shows it. High. */
  menubar: '#top-menubar, [role=menubar]',
  runtimeCaption: /* @__PURE__ */ orTranslated(/^Runtime$/i, /* @__PURE__ */ labelOf('runtimeMenu')),
  /** #3, same snippet (a child of <body>, `display:none` while closed; may be created on first open). High/Med. */
  runtimeMenu: '#runtime-menu',
  /**
   * Any Closure popup menu. Not only the Runtime menu: the connect button's dropdown is one too, holding "Disconnect
   * and delete runtime" (§11.3), so a popup is the Runtime menu only by its id or as the Runtime button's own popup.
   */
  popup: '.goog-menu, [role=menu]',
  /** ARIA links from a menu button to its popup, should a Closure build set them. */
  popupRefs: ['aria-controls', 'aria-owns'],
  /** #4: items; role covers a Closure build without the class. High. */
  item: '.goog-menuitem, [role=menuitem]',
  itemContent: '.goog-menuitem-content',
  /** #4, §1.1: keyboard hints inside the content (File menu in the snippet; older Runtime menus). High. */
  itemAccel: 'goog-menuitem-accel',
  itemDisabled: 'goog-menuitem-disabled',
} as const;

/** `command` attribute values of the Runtime menu and the toolbar md-menu (#5-#9, §1.1, §1.3). High. */
export const COMMAND = {
  restartAndRunAll: 'restart-and-run-all',
  runAll: 'runall',
} as const;

/**
 * Items never to activate, whatever a label regex says (#9, §1.1): they destroy the VM, change the runtime, end
 * sessions or leave the notebook. Matched on `command` and, for renamed/command-less items, on English labels.
 */
export const DANGEROUS_COMMANDS: readonly string[] = [
  'powerwash-current-vm',
  'change-runtime-type',
  'manage-sessions',
  'deploy-cloud-run',
  'disconnect',
  'delete-runtime',
  'factory-reset',
];
export const DANGEROUS_LABEL = /disconnect|delete|factory reset|change runtime|manage sessions|terminate|deploy/i;

/**
 * English label fallbacks, tried only when no item carries the command (#5-#7, §1.1): 2026 "Restart session and
 * run all", pre-2024 "Restart and run all" / "Restart runtime and run all". Matched on the label without accel.
 */
export const LABELS: Record<string, readonly RegExp[]> = {
  // Keys spelled out, checked against COMMAND: computed keys would leave their property reads in every bundle.
  'restart-and-run-all': [/^Restart (session |runtime )?and run all/i],
  runall: [/^Run all(?![\w-])/i],
} satisfies Record<(typeof COMMAND)[keyof typeof COMMAND], readonly RegExp[]>;

/** The same fallbacks in the other languages Colab was seen in (§12.3, languages.ts). */
export const TRANSLATED_LABELS: Record<string, readonly RegExp[]> = {
  'restart-and-run-all': [/* @__PURE__ */ labelOf('restartAndRunAll')],
  runall: [/* @__PURE__ */ labelOf('runAll')],
} satisfies Record<(typeof COMMAND)[keyof typeof COMMAND], readonly RegExp[]>;

/** M3 toolbar split button, the fallback path (#10, §1.3, snippet toolbar-run-all-split-button-2026-03). Med. */
export const TOOLBAR = {
  host: 'colab-notebook-toolbar-run-button',
  runAllButton: '#toolbar-run-button',
  moreActions: '#toolbar-run-button-more-actions',
  menu: 'md-menu',
  item: 'md-menu-item',
  itemLabel: '[slot=headline]',
  /** The native control inside a Material host's shadow root (md-menu-item `li#item`, md-*-button `button#button`). */
  innerControl: '#item, #button, button',
} as const;

/**
 * Dialog hosts, all eras (§2 table, #11): mwc-dialog (2023-02 → now), md-dialog (some newer dialogs), colab-dialog
 * wrapping paper-dialog (≤ 2023-02), bare MDC markup, and the reCAPTCHA dialog (tdulcet). No capture: Med-High.
 * The inner `.mdc-dialog` of an mwc-dialog's shadow root also matches; code maps it back to its host.
 */
export const DIALOG = {
  hosts:
    'mwc-dialog, md-dialog, colab-dialog, paper-dialog, colab-recaptcha-dialog, [role=alertdialog].mdc-dialog, ' +
    '[role=dialog].mdc-dialog',
  /** Open markers per form: `open` (mwc/md), `opened` (paper), `.mdc-dialog--open` (MDC). */
  openClass: 'mdc-dialog--open',
  /** Plain MDC dialogs, which open by a class (`openClass`) rather than an attribute: their class is watched. */
  mdc: '.mdc-dialog',
  /**
   * The confirming action, by attributes only, in priority order (#12, §2): mwc `slot=primaryAction`, `dialogaction`
   * (mwc) / `dialog-action`, Polymer `#ok` / `dialog-confirm`, md-dialog `value`, plain MDC `data-mdc-dialog-action`.
   */
  confirm: [
    '[slot=primaryAction]',
    '[dialogaction=ok]',
    '[dialog-action=ok]',
    '#ok',
    '[dialog-confirm]',
    '[value=ok]',
    '[value=yes]',
    '[value=confirm]',
    '[data-mdc-dialog-action=ok]',
    '[data-mdc-dialog-action=accept]',
    '[data-mdc-dialog-action=yes]',
  ],
  /** Marks a cancelling action: never the confirm button (#12). */
  cancel:
    '[slot=secondaryAction], [dialogaction=cancel], [dialogaction=close], [dialog-action=cancel], [dialog-dismiss], ' +
    '#cancel, [value=cancel], [value=close], [value=no], [data-mdc-dialog-action=cancel], ' +
    '[data-mdc-dialog-action=close]',
  /** md-dialog keeps its buttons in `[slot=actions]`, often with a `form[method=dialog]` (Material Web). Med. */
  actions: '[slot=actions], form[method=dialog]',
  button:
    'md-text-button, md-filled-button, md-outlined-button, md-filled-tonal-button, md-elevated-button, mwc-button, ' +
    'paper-button, button',
  /** The emphasised action of an md-dialog ("Run anyway" is an md-filled-button, §2 table). */
  filledButton: 'md-filled-button',
  /** §11.2 (ColabSDK 2026-06): on an `[open]` dialog during its opening animation; a click then can be lost. */
  openingClass: 'colab-dialog-opening',
} as const;

/**
 * Texts that identify dialogs (English UI only; §2, §5.2, §5.3, §11.2, #20, #21). High for the texts, no capture for
 * the restart confirmation itself: it is expected to be a yes/no dialog mentioning a restart (§2, "Restart session",
 * "… local variables will be lost"). The order of the checks is `DIALOG_CHECKS` in dialogs.ts.
 */
export const DIALOG_TEXT = {
  recaptcha: /recaptcha|not a robot/i,
  gpuQuota: /* @__PURE__ */ joinRegex(
    /cannot connect to (a )?(gpu|tpu)|connect without (gpu|tpu|accelerator)|usage limits in colab/i,
    /|currently connect to a (gpu|tpu)/,
  ),
  /**
   * Every notice that the runtime is gone, whatever the reason (§5.2, §12.4), and the outage's "Unable to connect to
   * the runtime" (§5.1 "Other toasts", §12.4). Which of them, if any, may be answered is DISCONNECT_TEXT's business.
   */
  disconnected: /runtime disconnected|runtime has been disconnected|unable to connect to (the |a )?runtime/i,
  usageLimit: /usage limit|too many sessions|compute units|reached your .*limit/i,
  /**
   * §11.2: the pip warning after installing packages that were already imported. Its title and yes button both say
   * "Restart session", so it is told apart from the restart confirmation by its body, before that one is tried.
   */
  pipRestart: /previously imported|newly installed|restart the runtime in order to use/i,
  /** §11.2: "Permit this notebook to access your Google Drive files?" ("Connect to Google Drive" / "No, thanks"). */
  drivePermission: /access your google drive|connect to google drive|permit this notebook/i,
  /** §11.2: "New runtime required"; its "Assign new runtime" gives the VM away. */
  newRuntime: /new runtime required|assign new runtime/i,
  /** §11.2: titled only "Warning", with "Cancel execution" / "Continue anyway"; the body speaks of disallowed code. */
  disallowedCode: /disallowed|prohibited|cancel execution|continue anyway/i,
  /** §11.2, §1.1: "Changing runtime attributes may terminate your current session…" (Save); ja (§12.3). */
  runtimeType: /* @__PURE__ */ orTranslated(
    /change runtime type|changing runtime attributes|runtime attributes/i,
    /* @__PURE__ */ mentionOf('changeRuntimeType'),
  ),
  /** §11.2: "Cannot save changes". */
  cannotSave: /cannot save changes|can't save changes|unable to save/i,
  /** §11.2, §1.1: the confirmation of "Disconnect and delete runtime" (formerly "Factory reset runtime"). */
  deleteRuntime: /disconnect and delete|delete (the )?runtime|factory reset/i,
  /** §2: "Warning: This notebook was not authored by Google" ("Run anyway"; ru, §12.3). */
  notAuthored: /* @__PURE__ */ orTranslated(
    /not authored by google|run anyway/i,
    /* @__PURE__ */ mentionOf('runAnyway'),
  ),
  /** §5.1, §11.1: "Switch to a high-RAM runtime?" (Yes/No), opened from the crash toast's "Get more RAM". */
  highRamOffer: /switch to a high-ram runtime|use a high-ram runtime/i,
  /** Other known non-restart dialogs (§2 "Other dialogs", §5.3): refused without a kind of their own. */
  other: /still there\?|active sessions|manage sessions|failed to assign a backend|unable to connect/i,
  restartConfirm: /\brestart|local variables will be lost|runtime state/i,
  /** The attribute-chosen confirm is really a cancel when its label says so (defence in depth; ru, §12.3). */
  cancelLabel: /* @__PURE__ */ orTranslated(/^(cancel|close|no|dismiss)$/i, /* @__PURE__ */ labelOf('cancel')),
  /**
   * Names that stay untranslated in every UI language and never occur in a restart confirmation: GPU/TPU (quota),
   * RAM (high-RAM offer), Google (not authored by Google, Drive permission), Colab Pro (usage limits), reCAPTCHA.
   * Used to refuse dialogs whose text cannot be read as English.
   */
  foreignTokens: /\b(GPU|TPU|RAM|Google|Colab Pro|reCAPTCHA)\b/,
  /**
   * The disconnect dialog's primary button (§5.2, English like its title), or an outage dialog's "Retry" (no capture).
   * Never "Disconnect", "Connect without GPU".
   */
  reconnectLabel: /^(re-?connect|retry|try again)\b/i,
} as const;

/**
 * Why Colab says the runtime went away (§5.2, §12.4; English only). The body decides, never the title, which is
 * "Runtime disconnected" for all of them. Checked most specific first (disconnect.ts): the disallowed-code body also
 * names a compute-unit balance of 0 and ends like the idle one ("To connect to a new runtime, click the connect
 * button below"; TheLastBen/fast-stable-diffusion#2622, facefusion/facefusion-colab#13).
 */
export const DISCONNECT_TEXT = {
  /** "…due to executing code that is disallowed in our free of charge tier. … file an appeal." High. */
  disallowedCode: /disallowed|free of charge tier|file an appeal|prohibited/i,
  /** "You currently have zero compute units available." (colabtools#5290), "Your compute unit balance is 0". High. */
  zeroUnits: /zero compute units|compute unit balance is 0\b|(out of|no) compute units/i,
  /** Usage limits and session limits (§5.3, §11.2 wording family; no capture of such a disconnect). Med. */
  usageLimit: /usage limits?\b|too many (active )?sessions|reached (your|its|the) [\w -]{0,40}\blimits?\b/i,
  /** The outage (colabtools#5650): as a toast (§5.1) or a dialog. High. */
  unableToConnect: /unable to connect to (the |a )?runtime/i,
  /**
   * The one Colab meant as a time-out: "Your runtime has been disconnected due to inactivity or reaching its maximum
   * duration." and the Pro variant "The runtime disconnected due to inactivity. As a Colab Pro subscriber…" (§5.2,
   * colabtools#2038, #2613). High.
   */
  idle: /\binactivity\b|maximum (duration|runtime)/i,
} as const;

/**
 * A notebook ending its own runtime (§12.4, colabtools `google/colab/runtime.py`): `google.colab.runtime.unassign()`,
 * usually as `from google.colab import runtime; runtime.unassign()`. In a cell's source, any call named `unassign`
 * (an `import … unassign` leaves it bare); in its output, the call or words saying the runtime is being unassigned.
 * A wrong match leaves a disconnect to the person, never restarts anything. High (the API), Low (output wording).
 */
export const UNASSIGN = {
  source: /\bunassign\s*\(/,
  output: /\bruntime\.unassign\b|\bunassign(ing|ed)?\s+(the\s+|this\s+)?runtime\b/i,
} as const;

/** Non-text markers of known non-restart dialogs (§2 table classes and ids, tdulcet, §11.2), any UI language. Med. */
export const DIALOG_MARKERS = {
  /** tdulcet's host element, plus the standard reCAPTCHA widget (class `g-recaptcha`, its iframe). */
  recaptcha: 'colab-recaptcha-dialog, .g-recaptcha, iframe[src*="recaptcha"]',
  runtimeType: '.change-runtime-type',
  notAuthored: '#external-notebook-authored-dialog',
  other: '#sessions-dialog, .dismiss-runtime-warning',
} as const;

/** Cells (§4.1, #13, #14; snippets code-cell-with-static-output-2026-03, code-cell-static-output-2025). */
export const CELL = {
  /** #13: `div.cell.code.notebook-cell[id="cell-<id>"]`. High. */
  cell: '.cell[id^="cell-"], .notebook-cell[id^="cell-"]',
  idPrefix: 'cell-',
  /**
   * §4.1, #13: the notebook's cells are the children of this list (snippet code-cell-with-static-output-2026-03).
   * High. Only the first look at a page relies on it, and looks at the whole page without it.
   */
  list: '.notebook-cell-list',
  /** #14: the run button; its shadow root holds `div.cell-execution.<states>`. High (structure). */
  runButton: 'colab-run-button',
  execution: '.cell-execution',
  executionCount: '.execution-count',
  /**
   * #13/§4.1: the source lines of the cell's Monaco editor (`div.editor.lazy-editor … div.view-line`, spaces as
   * U+00A0), in both captures (snippets code-cell-with-static-output-2026-03, code-cell-static-output-2025). High
   * (structure); Monaco may leave lines out of an editor not rendered yet. Two single-class selectors, looked up one
   * inside the other: a descendant selector costs a test of every element of the cell.
   */
  editor: '.editor',
  sourceLine: '.view-line',
  /** #14 state classes (2024-08 →): Med. `stale` = idle, `animating` accompanies `running`. */
  runningClasses: ['running', 'animating'],
  pendingClasses: ['pending'],
  errorClasses: ['error'],
  /** §11.4 (2026-07): `stale` marks the state of an execution from an earlier kernel session (`stale error`: old). */
  staleClasses: ['stale'],
  /** #13 cell classes (gs_framework ~2020-21, tiling userscript): `running`, `pending`, `execution-error`. Med. */
  cellRunning: 'running',
  cellPending: 'pending',
  cellError: 'execution-error',
  /** #14, until 2024-08 (tdulcet): `colab-run-button.title` text. Med. */
  titleRunning: /\bexecuting\b|\binterrupt/i,
  titlePending: /\bqueued\b/i,
} as const;

/**
 * The output entries the output-frame script needs (§4.2, #16; snippets code-cell-*, outputframe-body-samples), the
 * page reads them too. An object of their own: object properties are not tree-shaken, and the frame script is small
 * (the bench's size target). OUTPUT holds them as well.
 */
export const OUTPUT_CORE = {
  /**
   * #16: the frame document's output list. High. The notebook's own HTML may hold another element with this id (a
   * copy of Colab's markup inside a `display_data`): Colab's is the document's first.
   */
  frameBody: 'output-body',
  /**
   * One output element: nbformat output_type classes (`stream`, `execute_result`, `display_data`, `error`),
   * Jupyter classic (`output_error`, `output_stream`, `output_stdout`, `output_stderr`), claude-colab `output-error`,
   * and the `output-id-N` class of both renderers. The outermost match is the output.
   */
  element:
    '.stream, .execute_result, .display_data, .error, .output-error, .output_error, .output_stream, .output_stdout, ' +
    '.output_stderr, [class*="output-id-"]',
  /**
   * An error output's own class (§4.2, §11.4). Only an output's own class counts, never an element inside an output:
   * a `display_data` can hold any markup, a copy of Colab's error output included.
   */
  errorClasses: ['error', 'output-error', 'output_error'],
  /** stderr is a stream too: warnings and progress bars go there, not only errors (§4.2). */
  streamClasses: ['stream', 'output_stream', 'output_stdout', 'output_stderr'],
} as const;

/**
 * Outputs (§4.2, #15, #16; snippets code-cell-*, outputframe-body-samples): the page's own entries and OUTPUT_CORE.
 * A pure-marked Object.assign, not a spread: a bundle that never reads OUTPUT (the frame script) keeps no trace of it.
 */
export const OUTPUT = /* @__PURE__ */ Object.assign(
  {
    /** #15: plain-text outputs rendered in the main document (light DOM). High. */
    staticRenderer: 'colab-static-output-renderer',
    /** #16: cross-origin output frames in the cell's output area (≤2023 every output). High. */
    frame: '.output-iframe-sizer iframe, .output iframe',
    /** #15, #16: what holds both the static renderer and the output frames of a cell's output area. High. */
    area: '.output-iframe-sizer, .output',
  } as const,
  OUTPUT_CORE,
);

/** Toasts (§5.1, #17, #18; snippet snackbar-message-area-idle-2026-03). Med-High. */
export const TOAST = {
  host: 'colab-snackbar',
  /** The MDC surface in the shadow root gains this class while shown (VideoLab, 2026-07). */
  surface: '.mdc-snackbar',
  openClass: 'mdc-snackbar--open',
  /** MDC adds this while a snackbar (re)opens; on a toast already open it means a new message. */
  openingClass: 'mdc-snackbar--opening',
  /** Unverified where the label lives (§5.1): the `labeltext` attribute, an MDC label, or slotted light DOM. */
  labelAttr: 'labeltext',
  label: '.mdc-snackbar__label',
  /** Light-DOM parts that are not message text (the close icon's ligature "close"). */
  notText: '[slot=dismiss], md-icon',
} as const;

/**
 * Connect button (#19, §5.4, §11.5; snippet connect-button-connected-2026-03). High (structure), Med (states).
 * `#connect-icon`'s ligature tells the state in any UI language: `done` = connected and idle, `more_horiz` = busy or
 * connecting. The button's own light-DOM text is empty while connected and names the state otherwise (English:
 * "Connect", "Reconnect", "Connecting", "Allocating"). `#connect` may be `#reconnect` (§11.5).
 */
export const CONNECT = {
  host: 'colab-connect-button',
  icon: '#connect-icon',
  button: '#connect, #reconnect',
  /** "Additional connection options": opens a second Closure menu (§11.3). */
  dropdown: '#connect-dropdown',
  idleIcon: /\bdone\b/,
  busyIcon: /\bmore_horiz\b/,
  connectingText: /connecting|allocating|initializing|reconnecting/i,
  /** "Connect", "Reconnect"; ru "Подключиться повторно" (§12.3). */
  disconnectedText: /* @__PURE__ */ orTranslated(/^(re)?connect\b/i, /* @__PURE__ */ labelOf('reconnect')),
} as const;
