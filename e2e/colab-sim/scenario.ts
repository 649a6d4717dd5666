/**
 * The scenario language of the simulated Colab page: what a test writes (`Scenario`), and the resolved form the
 * page script receives (`ResolvedScenario`, embedded as JSON in the notebook page).
 *
 * Everything the REFERENCE (test/fixtures/colab-dom/REFERENCE.md) is unsure about is an option here, with the
 * best-evidenced
 * variant as the default. Section numbers (§) refer to that file.
 */

/** Where an output renders (§4.2): Colab's main-document static renderer, or a cross-origin output frame. */
export type Place = 'main' | 'frame';

/** UI label sets (§1.1 label history). Commands are the same in every set. */
export type LabelSet = 'en-2026' | 'en-legacy' | 'de' | 'ja' | 'es' | 'pt';

/** The page's `<html lang>` with each label set; `?hl=` in a notebook's address picks the set of its language. */
export const LABEL_LANGUAGES: Record<LabelSet, string> = {
  'en-2026': 'en',
  'en-legacy': 'en',
  de: 'de',
  ja: 'ja',
  es: 'es',
  pt: 'pt-BR',
};

/**
 * The restart confirmation dialog implementation (§2 table):
 * - `mwc`: `mwc-dialog[open].yes-no-dialog` + `md-text-button[slot=primaryAction][dialogaction=ok]` (2024-12 → 2026)
 * - `mwc-legacy`: the same host with `mwc-button` buttons (2023-02 → 2024-12)
 * - `md`: Material Web `md-dialog[open]` with a `method="dialog"` form (some newer Colab dialogs)
 * - `paper`: `colab-dialog > paper-dialog.yes-no-dialog[opened]` with `paper-button#ok/#cancel` (≤ 2023-02)
 * - `none`: no confirmation at all (§2: "Treat the dialog as optional")
 */
export type DialogVariant = 'mwc' | 'mwc-legacy' | 'md' | 'paper' | 'none';

/** Colab's crash diagnoses (§5.1): `out_of_memory`, `x_server_error`, anything else. */
export type CrashKind = 'ram' | 'unknown' | 'x-window';

/**
 * Ready-made failures with realistic IPython tracebacks (see texts.ts; formats from
 * test/fixtures/oom-corpus/README.md).
 */
export type FailPreset =
  | 'cuda-oom'
  | 'cuda-oom-legacy'
  | 'tf-oom'
  | 'jax-oom'
  | 'host-ram'
  | 'value-error'
  /** Not a failure: an OOM message printed to stdout by code that catches it; the cell then finishes normally. */
  | 'caught-oom';

/** Dialogs a test can raise with `showDialog` (all but `restart-confirm` must never be accepted by the extension). */
export type DialogKind =
  | 'restart-confirm'
  | 'gpu-unavailable'
  | 'disconnected'
  // The same title as 'disconnected', their own bodies (§12.4): disconnects Colab meant.
  | 'disconnected-disallowed-code'
  | 'disconnected-zero-units'
  | 'usage-limit'
  | 'high-ram'
  | 'not-authored'
  | 'recaptcha'
  // The dialogs of 2025-26 (§11.2), all mwc-dialog:
  | 'pip-restart'
  | 'drive-permission'
  | 'new-runtime-required'
  | 'disallowed-code'
  | 'change-runtime-type'
  | 'cannot-save'
  | 'delete-runtime';

/**
 * Why the runtime is disconnected (`showDisconnect`): an idle time-out (§5.2), Colab's end for disallowed code or
 * zero compute units (§12.4), or the notebook's own `google.colab.runtime.unassign()` (the `unassign` step).
 */
export type DisconnectReason = 'idle' | 'disallowed-code' | 'zero-units' | 'unassigned';

/** `command` attributes of the Runtime menu (§1.1, 2026 order). */
export const RUNTIME_COMMANDS = [
  'runall',
  'runbefore',
  'runfocused',
  'runselected',
  'runafter',
  'interrupt',
  'restart',
  'restart-and-run-all',
  'powerwash-current-vm',
  'change-runtime-type',
  'manage-sessions',
  'open-resource-viewer',
  'view-runtime-logs',
  'deploy-cloud-run',
] as const;
export type RuntimeCommand = (typeof RUNTIME_COMMANDS)[number];

/** `command` attributes of the toolbar "Run all" split button's md-menu (§1.3). */
export type ToolbarCommand = 'restart' | 'restart-and-run-all' | 'runafter' | 'interrupt' | 'clear-outputs';

export interface StreamOutputSpec {
  type: 'stream';
  text: string;
  name?: 'stdout' | 'stderr';
  place?: Place;
}
export interface RichOutputSpec {
  type: 'execute_result' | 'display_data';
  /** text/plain */
  text?: string;
  /** text/html: only rendered in an output frame (the main-document renderer shows `text`). */
  html?: string;
  /**
   * The HTML goes to the end of the output frame's `<body>`, outside `#output-body`, as the notebook's own script can
   * put it there (`display(Javascript(...))`): the notebook's content, never one of Colab's outputs (§11.4).
   */
  appendToBody?: boolean;
  /**
   * `display(Javascript(script))`: the script runs in the output frame as the notebook's own JavaScript (without the
   * cell waiting for it, unlike `evalJs`), and the output shows nothing: no element in `#output-body`, but it takes its
   * number in the output area's count (`output-id-N`). Always in a frame.
   */
  javascript?: string;
  place?: Place;
}
export interface ErrorOutputSpec {
  type: 'error';
  ename: string;
  evalue: string;
  /** IPython traceback (may contain ANSI colour escapes). Default: a one-frame traceback ending in `ename: evalue`. */
  traceback?: string | string[];
  /**
   * The code caught the exception and showed its traceback (IPython's `showtraceback()`): an error output, and the
   * cell goes on running. Only as an output step, not as a `fail`.
   */
  continues?: boolean;
  place?: Place;
}
export type OutputSpec = StreamOutputSpec | RichOutputSpec | ErrorOutputSpec;

export type FailSpec = FailPreset | ErrorOutputSpec;

/** Many lines printed one after the other (a training loop's log). */
export interface StreamSpec {
  lines: number;
  /** Milliseconds between lines (default `timing.stepMs`); with `batch`, between chunks. */
  every?: number;
  /** Line template; `{i}` is the 1-based line number, `{n}` the total. Default `'step {i}/{n}\n'`. */
  text?: string;
  /**
   * Lines per output message (default 1). The kernel batches a fast-printing loop's stdout into few messages, each
   * appended to the page at once; the benchmark streams 100,000 lines as 1,000 chunks of 100.
   */
  batch?: number;
  name?: 'stdout' | 'stderr';
  place?: Place;
}

/** A tqdm progress bar on stderr that rewrites its line with `\r`. */
export interface ProgressSpec {
  total: number;
  every?: number;
  desc?: string;
  place?: Place;
}

export type StepSpec =
  | { output: OutputSpec }
  | { wait: number }
  | { stream: StreamSpec }
  | { progress: ProgressSpec }
  | { fail: FailSpec }
  | { crash: CrashKind }
  | { hang: true }
  /** Waits until the test calls `resume(page)` (a deterministic point in a cell's run). */
  | { pause: true }
  /**
   * `google.colab.output.eval_js(script)`: runs `script` in the cell's output frame (created if the cell has none),
   * as the notebook's own JavaScript, and waits for its value (a promise is awaited), logged as `eval-js`.
   */
  | { evalJs: string }
  /**
   * `google.colab.runtime.unassign()` (§12.4): the cell ends its own runtime; Colab shows "Runtime disconnected" (with
   * the idle time-out's words: what it shows then was never captured), logged as `unassign`.
   */
  | { unassign: true }
  /**
   * `drive.mount()` on a machine not authorised yet (a fresh one after a reconnect): Colab asks "Permit this notebook
   * to access your Google Drive files?" and the cell waits; "No, thanks" fails it. Logged as `drive-mount`.
   */
  | { driveMount: true };

/**
 * What one execution of a cell does. Shorthands run in this order: `steps`, `outputs`, `stream`, `progress`,
 * `durationMs`, then the ending `fail` | `crash` | `hang` (without one the cell succeeds).
 */
export interface RunSpec {
  steps?: StepSpec[];
  outputs?: OutputSpec[];
  stream?: StreamSpec;
  progress?: ProgressSpec;
  /** Extra running time before the cell ends. */
  durationMs?: number;
  /** After the above, the cell waits until the test calls `resume(page)`. */
  pause?: boolean;
  fail?: FailSpec;
  /** The kernel dies while this cell runs (§5.1): no traceback, a sticky toast, an automatic restart. */
  crash?: CrashKind;
  /**
   * The cell restarts its own kernel on purpose after installing packages (`os.kill(os.getpid(), 9)`, §11.1): pip's
   * output, then Colab's "crashed for an unknown reason" toast, and the kernel comes back by itself.
   */
  selfRestart?: boolean;
  /** Runs until interrupted, restarted or crashed. */
  hang?: boolean;
  /** Default place of this run's outputs. */
  place?: Place;
}

/** Outputs saved in the notebook by an earlier session (shown per `Scenario.savedOutputs`). */
export interface SavedSpec {
  count?: number;
  outputs?: OutputSpec[];
  fail?: FailSpec;
  place?: Place;
}

export interface CellSpec {
  /** Cell id (the `cell-<id>` suffix, §4.1). Default: a random 12-character id, fixed for the registration. */
  id?: string;
  type?: 'code' | 'text';
  /** Cell source (code or markdown); it may itself contain OOM strings. */
  source: string;
  /**
   * `'unrendered'`: the cell's editor never renders its lines (Monaco leaves an editor empty until it is drawn, §4.1):
   * its source cannot be read from the page. Default `'rendered'`.
   */
  editor?: 'rendered' | 'unrendered';
  /** Shorthand for `runs.default.outputs`. */
  outputs?: OutputSpec[];
  /**
   * Behaviour per run number: the n-th execution of THIS cell (1-based), counted per `Scenario.runCounting`;
   * `default` covers every other run. Without a match the cell succeeds with `outputs` (or nothing).
   */
  runs?: { [run: number]: RunSpec; default?: RunSpec };
  saved?: SavedSpec;
}

export interface UiOptions {
  /** Default `'en-2026'`; `?hl=<language>` in the address picks that language's set instead (§12.3). */
  labels?: LabelSet;
  /**
   * Show legacy accelerator spans (`<span class="goog-menuitem-accel">Ctrl+F9</span>`) in the Runtime menu. Default:
   * true for 'en-legacy'.
   */
  accels?: boolean;
  /** Default `'mwc'`. */
  dialog?: DialogVariant;
  /**
   * When the restart confirmation appears: default `'when-connected'` (§2: "It may not appear when no kernel is
   * connected").
   */
  confirm?: 'when-connected' | 'always';
  /** Runtime-menu commands left out of the menu. */
  removeItems?: RuntimeCommand[];
  /** Runtime-menu commands rendered with `.goog-menuitem-disabled`. (`restart` is also disabled while disconnected.) */
  disableItems?: RuntimeCommand[];
  /** Render menu items (Runtime menu and toolbar md-menu) without `command` attributes: labels only. */
  noCommandAttributes?: boolean;
  /** Render the 2025+ toolbar "Run all" split button (§1.3). Default: true except for 'en-legacy'. */
  toolbarRunButton?: boolean;
  /** Toolbar md-menu commands left out. */
  toolbarRemoveItems?: ToolbarCommand[];
  /**
   * What activates a toolbar `md-menu-item` (§1.3 is untested): `'inner'` (default, as Material Web: the listener is
   * on the shadow `li#item`, so `host.click()` does nothing; a trusted click or
   * `shadowRoot.querySelector('#item').click()`
   * works) or `'host'` (Colab listens on the host too, so `host.click()` works).
   */
  toolbarMenuItemClick?: 'inner' | 'host';
  /**
   * Class of a main-document error output element (no capture exists, §4.2). Default `'error'` (nbformat output_type).
   */
  errorClass?: string;
  /**
   * Whether outputs carry Colab's number `output-id-N`, one count per output area across the page's renderer and its
   * frames (the 2026-03 capture's only page output is `output-id-3`; the frame samples number 1 to 5). Default true;
   * `false` as a `%%html` sample of the frame shows (a `display_data` without one).
   */
  outputIds?: boolean;
  /**
   * Default places per output kind. Default `{ stream: 'main', error: 'frame', result: 'main' }` (HTML results always
   * go to a frame).
   */
  places?: { stream?: Place; error?: Place; result?: Place };
  /**
   * Execution-count text while pending/running (unverified): `'empty'` (default), `'star'` (`[*]`) or `'keep'` (old
   * count).
   */
  countWhileRunning?: 'empty' | 'star' | 'keep';
  /** Add the pre-2021 cell class `execution-error` after a failure (§4.1). Default false. */
  cellErrorClass?: boolean;
  /**
   * Run all clears the outputs of every queued cell at once (§11.4, 2026), instead of each cell's when it starts
   * (`false`, as before). Default true.
   */
  clearQueuedOutputs?: boolean;
  /**
   * The run button's state markup: `'current'` (default: `div.cell-execution.<stale | error | stale error | pending |
   * running animating>`, §4.1, §11.4) or `'drifted'` (a release that renamed the element and its classes: no state
   * can be read, as when Colab's markup drifts).
   */
  runStateMarkup?: 'current' | 'drifted';
  /** Crash-toast wording (§5.1): `'current'` (default) or `'legacy'` (with "…check out Colab Pro."). */
  crashWording?: 'current' | 'legacy';
  /** Crash-toast action link: `'get-more-ram'` (default for RAM crashes) or `'view-runtime-logs'`. */
  crashAction?: 'get-more-ram' | 'view-runtime-logs';
  /** Which snackbar shows the crash (§5.1). Default `'primary'` (`#message-area`). */
  toastArea?: 'primary' | 'secondary';
  /** After a RAM crash, also offer "Switch to a high-RAM runtime?" (Yes/No). Default false. */
  highRamOffer?: boolean;
  /** Show "Warning: This notebook was not authored by Google" before the first execution in a page. Default false. */
  notAuthoredWarning?: boolean;
  /** Render cells this many ms after the page script starts (Colab renders progressively). Default 0. */
  renderDelayMs?: number;
  /**
   * How long after an interrupted cell's state says error its KeyboardInterrupt error output is shown (an output frame
   * busy, or its message late). Default 0: shown with the state change (a frame still shows it a moment later).
   */
  interruptErrorDelayMs?: number;
  /**
   * How long a dialog keeps `colab-dialog-opening` after it opens (§11.2); a click meanwhile is lost. Default 0 (no
   * class).
   */
  dialogOpeningMs?: number;
  /**
   * The dialog a restart shows where its confirmation would be (look-alike tests: `pip-restart`, whose title and yes
   * button say "Restart session"; `new-runtime-required`…). Default `'restart-confirm'`.
   */
  restartDialog?: DialogKind;
  /**
   * The menubar (§11.3): `'shown'` (default); `'collapsed'` behind the header's caret (ColabFold#542); `'missing'`
   * from the DOM (colabtools#5376). The toolbar stays in every case.
   */
  header?: 'shown' | 'collapsed' | 'missing';
  /**
   * The domain output frames are served under (default `'googleusercontent.com'`, §4.2). Which host pages on Colab's
   * other domains use is not known (§12.1); another domain is not served by the simulator (its frames stay empty).
   */
  frameHost?: string;
  /** The Runtime menu popup has its `#runtime-menu` id (default true); false: only a Closure auto-id. */
  runtimeMenuId?: boolean;
  /** The connect button's id: `'connect'` (default) or `'reconnect'` (§11.5). */
  connectButtonId?: 'connect' | 'reconnect';
  /** Google-style strict CSP (no eval in the main world, §7). Default true. */
  csp?: boolean;
  /** Provide `window.colab.global.notebook` (§7); calls are logged as `api-call`. Default true. */
  mainWorldApi?: boolean;
}

export interface KernelOptions {
  /** Connect automatically at load (default true); otherwise the page starts disconnected ("Connect"). */
  autoConnect?: boolean;
  /** Every connection attempt shows "Cannot connect to GPU backend" (§5.3). Default false. */
  gpuUnavailable?: boolean;
}

/** Delays in ms. Small by default so tests are fast but asynchronous like the real page. */
export interface Timing {
  /** Between visible steps: pending → running, each output, each streamed line. Default 30. */
  stepMs?: number;
  /** Base running time of a cell. Default 60. */
  cellMs?: number;
  /** Connecting a runtime. Default 100. */
  connectMs?: number;
  /** Restarting a session. Default 80. */
  restartMs?: number;
  /** Automatic restart after a crash. Default 150. */
  crashRestartMs?: number;
  /** Dialog open/close animation; a closed dialog leaves the DOM after this. Default 30. */
  dialogMs?: number;
}

export interface Scenario {
  /** Notebook name; the page title is `<title> - Colab`. Default `'Untitled0.ipynb'`. */
  title?: string;
  ui?: UiOptions;
  kernel?: KernelOptions;
  timing?: Timing;
  cells: CellSpec[];
  /**
   * Outputs of an earlier session (`cells[].saved`, or the page's own autosave): `'at-load'` (default) renders them
   * with the page; `'lazy'` leaves the output areas empty until `showLazyOutputs` (Colab virtualises off-screen
   * outputs, §4.1); `'none'` shows none.
   */
  savedOutputs?: 'at-load' | 'lazy' | 'none';
  /** Save outputs and counts like Colab's autosave, so a reload shows the last session's outputs. Default true. */
  autosave?: boolean;
  /**
   * How `runs` keys count: `'notebook'` (default): executions of the cell since this scenario was registered, across
   * reloads in the same browser context; `'page'`: executions since the page loaded.
   */
  runCounting?: 'notebook' | 'page';
  /** Start "Run all" once connected after load. Default false. */
  autoRunAll?: boolean;
  /**
   * Tabs showing this notebook share one runtime, as on Colab: the first tab to load runs it, later ones show its
   * cells, outputs, kernel state and crash toast and hand it their commands (page/mirror.js). Default false (each tab
   * its own kernel).
   */
  sharedKernel?: boolean;
}

// ---------------------------------------------------------------------------------------------------------------
// Resolved form (what the page script receives)

export type ResolvedOutput =
  | { output_type: 'stream'; name: 'stdout' | 'stderr'; text: string; place: Place }
  | {
      output_type: 'execute_result' | 'display_data';
      text: string;
      html?: string;
      appendToBody?: boolean;
      javascript?: string;
      place: Place;
    }
  | {
      output_type: 'error';
      ename: string;
      evalue: string;
      traceback: string[];
      continues?: boolean;
      place: Place;
    };

export type ResolvedStep =
  | { kind: 'output'; output: ResolvedOutput }
  | { kind: 'wait'; ms: number }
  | {
      kind: 'stream';
      name: 'stdout' | 'stderr';
      lines: number;
      every: number;
      text: string;
      batch: number;
      place: Place;
    }
  | { kind: 'progress'; total: number; every: number; desc: string; place: Place }
  | { kind: 'crash'; crash: CrashKind }
  | { kind: 'hang' }
  | { kind: 'pause' }
  | { kind: 'eval-js'; script: string }
  | { kind: 'unassign' }
  | { kind: 'drive-mount'; refused: ResolvedOutput };

export interface ResolvedRun {
  steps: ResolvedStep[];
}

export interface ResolvedCell {
  id: string;
  type: 'code' | 'text';
  source: string;
  editor: 'rendered' | 'unrendered';
  /** Keys are run numbers ('1', '2', …) and 'default'. */
  runs: Record<string, ResolvedRun>;
  saved: { count: number | null; outputs: ResolvedOutput[] } | null;
}

export interface ResolvedScenario {
  /** Unique per `notebook()` call; keys the page's persisted state (autosave, run counters). */
  id: string;
  path: string;
  title: string;
  ui: Required<Omit<UiOptions, 'places'>> & { places: Required<NonNullable<UiOptions['places']>> };
  kernel: Required<KernelOptions>;
  timing: Required<Timing>;
  cells: ResolvedCell[];
  savedOutputs: 'at-load' | 'lazy' | 'none';
  autosave: boolean;
  runCounting: 'notebook' | 'page';
  autoRunAll: boolean;
  sharedKernel: boolean;
  /** The error an interrupted cell shows. */
  interruptError: ResolvedOutput;
}
