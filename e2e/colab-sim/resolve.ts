/**
 * Turns a test's `Scenario` into the `ResolvedScenario` the page script runs: defaults filled in, presets expanded
 * into concrete outputs, every output given a concrete place, every run flattened into steps.
 */
import { randomBytes } from 'node:crypto';
import type {
  CellSpec,
  ErrorOutputSpec,
  FailSpec,
  OutputSpec,
  Place,
  ResolvedCell,
  ResolvedOutput,
  ResolvedRun,
  ResolvedScenario,
  ResolvedStep,
  RunSpec,
  SavedSpec,
  Scenario,
  StepSpec,
} from './scenario';
import { caughtOomOutputs, defaultTraceback, failureOutput, keyboardInterrupt } from './texts';

type Places = ResolvedScenario['ui']['places'];
type Timing = ResolvedScenario['timing'];

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';

/** A random id in the style of Colab's cell ids (`T2BNeFUZ1OGZ`, §4.1). */
export function randomId(length = 12): string {
  return [...randomBytes(length)].map((b) => ID_ALPHABET[b % 62]).join('');
}

export function resolveScenario(path: string, scenario: Scenario): ResolvedScenario {
  const labels = scenario.ui?.labels ?? 'en-2026';
  const ui: ResolvedScenario['ui'] = {
    labels,
    accels: labels === 'en-legacy',
    dialog: 'mwc',
    confirm: 'when-connected',
    removeItems: [],
    disableItems: [],
    noCommandAttributes: false,
    toolbarRunButton: labels !== 'en-legacy',
    toolbarRemoveItems: [],
    toolbarMenuItemClick: 'inner',
    errorClass: 'error',
    outputIds: true,
    countWhileRunning: 'empty',
    cellErrorClass: false,
    clearQueuedOutputs: true,
    runStateMarkup: 'current',
    crashWording: 'current',
    crashAction: 'get-more-ram',
    toastArea: 'primary',
    highRamOffer: false,
    notAuthoredWarning: false,
    renderDelayMs: 0,
    interruptErrorDelayMs: 0,
    dialogOpeningMs: 0,
    restartDialog: 'restart-confirm',
    header: 'shown',
    frameHost: 'googleusercontent.com',
    runtimeMenuId: true,
    connectButtonId: 'connect',
    csp: true,
    mainWorldApi: true,
    ...withoutUndefined(scenario.ui ?? {}),
    places: { stream: 'main', error: 'frame', result: 'main', ...withoutUndefined(scenario.ui?.places ?? {}) },
  };
  const timing: Timing = {
    stepMs: 30,
    cellMs: 60,
    connectMs: 100,
    restartMs: 80,
    crashRestartMs: 150,
    dialogMs: 30,
    ...withoutUndefined(scenario.timing ?? {}),
  };
  const usedIds = new Set<string>();
  return {
    id: randomId(10),
    path,
    title: scenario.title ?? 'Untitled0.ipynb',
    ui,
    kernel: { autoConnect: true, gpuUnavailable: false, ...withoutUndefined(scenario.kernel ?? {}) },
    timing,
    cells: scenario.cells.map((cell) => resolveCell(cell, ui.places, timing, usedIds)),
    savedOutputs: scenario.savedOutputs ?? 'at-load',
    autosave: scenario.autosave ?? true,
    runCounting: scenario.runCounting ?? 'notebook',
    autoRunAll: scenario.autoRunAll ?? false,
    sharedKernel: scenario.sharedKernel ?? false,
    interruptError: resolveOutput(keyboardInterrupt(), undefined, ui.places),
  };
}

function resolveCell(cell: CellSpec, places: Places, timing: Timing, usedIds: Set<string>): ResolvedCell {
  const id = cell.id ?? randomId();
  if (usedIds.has(id)) throw new Error(`colab-sim: duplicate cell id ${id}`);
  usedIds.add(id);
  const runs: Record<string, ResolvedRun> = {};
  for (const [key, run] of Object.entries(cell.runs ?? {})) {
    if (run) runs[key] = resolveRun(run, places, timing);
  }
  if (!runs.default) runs.default = resolveRun({ outputs: cell.outputs ?? [] }, places, timing);
  return {
    id,
    type: cell.type ?? 'code',
    source: cell.source,
    editor: cell.editor ?? 'rendered',
    runs,
    saved: cell.saved ? resolveSaved(cell.saved, places) : null,
  };
}

function resolveSaved(saved: SavedSpec, places: Places): NonNullable<ResolvedCell['saved']> {
  const outputs = (saved.outputs ?? []).map((o) => resolveOutput(o, saved.place, places));
  if (saved.fail) outputs.push(...failOutputs(saved.fail, saved.place, places));
  return { count: saved.count ?? null, outputs };
}

/** One run as the page of `scenario` runs it: for `planRun`, which decides a cell's next execution at test time. */
export function resolvePlannedRun(run: RunSpec, scenario: Pick<ResolvedScenario, 'ui' | 'timing'>): ResolvedRun {
  return resolveRun(run, scenario.ui.places, scenario.timing);
}

function resolveRun(run: RunSpec, places: Places, timing: Timing): ResolvedRun {
  const steps: StepSpec[] = [...(run.steps ?? [])];
  for (const output of run.outputs ?? []) steps.push({ output });
  if (run.stream) steps.push({ stream: run.stream });
  if (run.progress) steps.push({ progress: run.progress });
  if (run.durationMs) steps.push({ wait: run.durationMs });
  if (run.pause) steps.push({ pause: true });
  if (run.fail) steps.push({ fail: run.fail });
  if (run.crash) steps.push({ crash: run.crash });
  if (run.selfRestart) steps.push(...selfRestartSteps());
  if (run.hang) steps.push({ hang: true });
  return { steps: steps.flatMap((step) => resolveStep(step, run.place, places, timing)) };
}

function resolveStep(step: StepSpec, runPlace: Place | undefined, places: Places, timing: Timing): ResolvedStep[] {
  if ('output' in step) return [{ kind: 'output', output: resolveOutput(step.output, runPlace, places) }];
  if ('wait' in step) return [{ kind: 'wait', ms: step.wait }];
  if ('fail' in step) return failOutputs(step.fail, runPlace, places).map((output) => ({ kind: 'output', output }));
  if ('crash' in step) return [{ kind: 'crash', crash: step.crash }];
  if ('hang' in step) return [{ kind: 'hang' }];
  if ('pause' in step) return [{ kind: 'pause' }];
  if ('evalJs' in step) return [{ kind: 'eval-js', script: step.evalJs }];
  if ('unassign' in step) return [{ kind: 'unassign' }];
  if ('driveMount' in step) {
    const refused: ErrorOutputSpec = {
      type: 'error',
      ename: 'MessageError',
      evalue: 'Error: credential propagation was unsuccessful',
    };
    return [{ kind: 'drive-mount', refused: resolveOutput(refused, runPlace, places) }];
  }
  if ('stream' in step) {
    const s = step.stream;
    return [
      {
        kind: 'stream',
        name: s.name ?? 'stdout',
        lines: s.lines,
        every: s.every ?? timing.stepMs,
        text: s.text ?? 'step {i}/{n}\n',
        batch: Math.max(1, Math.floor(s.batch ?? 1)),
        place: s.place ?? runPlace ?? places.stream,
      },
    ];
  }
  const p = step.progress;
  return [
    {
      kind: 'progress',
      total: p.total,
      every: p.every ?? timing.stepMs,
      desc: p.desc ?? 'Training',
      place: p.place ?? runPlace ?? places.stream,
    },
  ];
}

/** `pip install` and then `os.kill(os.getpid(), 9)`: Colab can only say the session crashed for an unknown reason. */
function selfRestartSteps(): StepSpec[] {
  const text =
    'Collecting transformers==4.57.1\nInstalling collected packages: transformers\n' +
    'Successfully installed transformers-4.57.1\nRestarting the runtime to load the new packages...\n';
  return [{ output: { type: 'stream', text } }, { crash: 'unknown' }];
}

/** A failure's outputs: one error output, or for 'caught-oom' the stdout lines of code that handled the OOM. */
function failOutputs(fail: FailSpec, runPlace: Place | undefined, places: Places): ResolvedOutput[] {
  if (fail === 'caught-oom') return caughtOomOutputs().map((o) => resolveOutput(o, runPlace, places));
  const spec: ErrorOutputSpec = typeof fail === 'string' ? failureOutput(fail) : fail;
  return [resolveOutput(spec, runPlace, places)];
}

function resolveOutput(output: OutputSpec, runPlace: Place | undefined, places: Places): ResolvedOutput {
  switch (output.type) {
    case 'stream':
      return {
        output_type: 'stream',
        name: output.name ?? 'stdout',
        text: output.text,
        place: output.place ?? runPlace ?? places.stream,
      };
    case 'error': {
      const traceback =
        output.traceback === undefined
          ? defaultTraceback(output.ename, output.evalue)
          : typeof output.traceback === 'string'
            ? [output.traceback]
            : output.traceback;
      return {
        output_type: 'error',
        ename: output.ename,
        evalue: output.evalue,
        traceback,
        ...(output.continues ? { continues: true } : {}),
        place: output.place ?? runPlace ?? places.error,
      };
    }
    default: {
      // HTML needs a browser document of its own, and JavaScript runs in one: the output frame.
      const script = output.javascript !== undefined;
      const place = script ? 'frame' : (output.place ?? (output.html ? 'frame' : (runPlace ?? places.result)));
      return {
        output_type: output.type,
        text: output.text ?? '',
        ...(output.html ? { html: output.html } : {}),
        ...(output.appendToBody ? { appendToBody: true } : {}),
        ...(output.javascript !== undefined ? { javascript: output.javascript } : {}),
        place,
      };
    }
  }
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
