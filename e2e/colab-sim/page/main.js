// Entry point of the simulated Colab notebook page. Reads the resolved scenario embedded by the server, builds the
// page and exposes the simulator's main-world API (`window.__colabSim`, used by the Node helpers) and a small
// `window.colab.global.notebook` like Colab's internal API (§7), whose calls are logged as `api-call`.
import './components.js';
import { entries, record } from './log.js';
import { Notebook } from './notebook.js';

const scenario = JSON.parse(document.getElementById('colab-sim-scenario').textContent);
const notebook = new Notebook(scenario);
notebook.mount();
record('page-load', { path: scenario.path, scenario: scenario.id });

window.__colabSim = {
  log: entries,
  scenario,
  labels: notebook.labels.items,
  /** A snapshot of the kernel and the cells. */
  state() {
    return {
      role: notebook.mirror?.role ?? 'alone',
      kernel: notebook.kernel.state,
      executionCounter: notebook.kernel.counter,
      runs: notebook.runner.runs,
      cells: notebook.codeViews.map((v) => ({
        index: v.index,
        id: v.cell.id,
        state: v.state,
        count: v.count,
        outputs: v.outputs.outputs.length,
      })),
    };
  },
  crash: (kind = 'ram') => notebook.crash(kind),
  disconnect: (reason = 'idle') => {
    notebook.disconnect(reason);
  },
  outage: (on = true) => notebook.setOutage(on),
  stuckReconnecting: (on = true) => notebook.setStuckReconnecting(on),
  showDialog: (kind) => {
    notebook.dialog(kind);
  },
  showLazyOutputs: () => notebook.showLazyOutputs(),
  /** A follower tab of a shared kernel shows what the leader does only on release (a background tab, late). */
  resume: () => notebook.runner.resume(),
  /** The next execution of a cell in this page runs `run` (a resolved run), before its run number's. */
  planRun: (cellId, run) => notebook.runner.plan(cellId, run),
  holdMirror: () => notebook.mirror?.hold(),
  releaseMirror: () => notebook.mirror?.release() ?? 0,
};

if (scenario.ui.mainWorldApi) installColabApi();

function installColabApi() {
  const api =
    (method, fn) =>
    (...args) => {
      record('api-call', { method });
      return fn(...args);
    };
  const KERNEL_STATES = { idle: 'kernel idle', busy: 'busy', connecting: 'allocating', disconnected: 'connect' };
  const kernel = notebook.kernel;
  window.colab = {
    global: {
      notebook: {
        runAll: api('notebook.runAll', () => notebook.runner.run(notebook.codeViews, 'all').then(() => undefined)),
        kernel: {
          restart: api('kernel.restart', () => kernel.restart().then(() => undefined)),
          isConnected: () => kernel.connected,
          isRunning: () => kernel.state === 'busy',
          getState: () => KERNEL_STATES[kernel.state],
        },
        get cells() {
          return notebook.codeViews.map((v) => ({
            cellId: v.cell.id,
            isRunning: () => v.state === 'running',
            isPending: () => v.state === 'pending',
            getExecutionCount: () => v.count,
            hasOutput: () => v.outputs.hasOutput,
            getText: () => v.cell.source,
            lastExecutionFailed: v.state === 'error',
          }));
        },
      },
    },
  };
}

notebook.start();
