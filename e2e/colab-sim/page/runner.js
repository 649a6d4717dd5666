// Executes cells (§4.1, §5): a "run" is one request to execute cells (Run all, Run cell and below, a cell's run
// button…), numbered 1, 2, … per page load. Its cells turn `pending` at once, and their old outputs are cleared at
// once too (§11.4; with `ui.clearQueuedOutputs: false`, when each cell starts); runs execute one after another.
// Each cell: pending → running (a new execution count) → its scenario steps → idle or error.
// A failing cell stops its run and every queued run (IPython's stop_on_error); the cells that were still pending go
// back to their previous state and count (their outputs as they are). A restart, crash or disconnect aborts
// everything; a cell it ended shows a stale state.

import { record } from './log.js';
import { sleep } from './util.js';

export class Runner {
  /**
   * @param {object} o
   * @param {import('./kernel.js').Kernel} o.kernel
   * @param {import('../scenario').ResolvedScenario} o.scenario
   * @param {import('./persist.js').Persist} o.persist
   * @param {() => Promise<boolean>} o.beforeRun  e.g. the "not authored by Google" warning; false cancels the run
   * @param {(kind: string) => void} o.onCrash  a step crashed the kernel
   * @param {() => void} o.onUnassign  a step ended the runtime (`google.colab.runtime.unassign()`)
   * @param {(kind: string) => Promise<string>} o.dialog  shows a dialog, resolves to how it was closed
   * @param {(view: import('./cells.js').CodeCellView, ok: boolean) => void} o.onCellEnd
   */
  constructor({ kernel, scenario, persist, beforeRun, onCrash, onUnassign, dialog, onCellEnd }) {
    this.kernel = kernel;
    this.scenario = scenario;
    this.persist = persist;
    this.beforeRun = beforeRun;
    this.onCrash = onCrash;
    this.onUnassign = onUnassign;
    this.dialog = dialog;
    this.onCellEnd = onCellEnd;
    this.timing = scenario.timing;
    this.runs = 0;
    this.chain = Promise.resolve();
    this.queue = new AbortController(); // aborted ('error') when a failure must cancel queued runs
    this.current = null; // { view, controller } of the executing cell
    this.paused = []; // resolvers of cells waiting for `resume`
    this.resumedEarly = 0; // resumes that came before their cell reached its pause
    this.planned = new Map(); // cell id → resolved runs the test planned for its next executions, in order
  }

  /** The next execution of cell `cellId` (in this page) does `run`, whatever its run number says. */
  plan(cellId, run) {
    const queue = this.planned.get(cellId) ?? [];
    queue.push(run);
    this.planned.set(cellId, queue);
  }

  /** Lets every cell waiting at a `pause` step go on; with none waiting yet, the next one to arrive. */
  resume() {
    if (this.paused.length === 0) this.resumedEarly++;
    for (const go of this.paused.splice(0)) go(true);
  }

  /** Queues a run of `views` (code cells); resolves when it has ended. */
  run(views, kind) {
    const run = ++this.runs;
    record('run-start', { run, kind, cells: views.map((v) => v.index) });
    for (const view of views) {
      if (view.state === 'running') continue;
      if (this.scenario.ui.clearQueuedOutputs) view.outputs.reset();
      view.setState('pending');
    }
    const signal = AbortSignal.any([this.kernel.signal, this.queue.signal]);
    const done = this.chain.then(() => this.#execute(run, views, signal));
    this.chain = done.catch(() => undefined);
    return done;
  }

  /** Runtime → Interrupt execution: KeyboardInterrupt in the executing cell. */
  interrupt() {
    this.current?.controller.abort('interrupt');
  }

  async #execute(run, views, signal) {
    const end = (from, result) => {
      for (const view of views.slice(from)) view.unqueue();
      record('run-end', { run, ...result });
    };
    if (signal.aborted) return end(0, { ok: false, reason: String(signal.reason) });
    if (!(await this.kernel.connect())) return end(0, { ok: false, reason: 'not-connected' });
    if (!(await this.beforeRun())) return end(0, { ok: false, reason: 'cancelled' });
    for (const [i, view] of views.entries()) {
      if (signal.aborted) return end(i, { ok: false, reason: String(signal.reason) });
      const outcome = await this.#executeCell(view, signal);
      if (outcome === 'error' || outcome === 'interrupt') {
        this.queue.abort('error');
        this.queue = new AbortController();
        return end(i + 1, { ok: false, failedCell: view.index, reason: outcome });
      }
      if (outcome !== 'ok') return end(i + 1, { ok: false, reason: outcome });
    }
    return end(views.length, { ok: true });
  }

  /** @returns {Promise<string>} 'ok', 'error', 'interrupt', 'restart', 'crash', 'disconnect', 'powerwash', … */
  async #executeCell(view, runSignal) {
    const controller = new AbortController();
    const signal = AbortSignal.any([runSignal, controller.signal]);
    if (!(await sleep(this.timing.stepMs, signal))) return String(signal.reason);
    this.current = { view, controller };
    const cell = view.cell;
    const process = this.kernel.process;
    const execution = ++this.kernel.counter;
    const cellRun = this.persist.nextRun(cell.id);
    view.outputs.reset();
    view.setState('running', execution);
    this.kernel.setState('busy');
    record('cell-start', { cell: view.index, cellId: cell.id, state: 'running', execution, cellRun });

    const spec = this.planned.get(cell.id)?.shift() ?? cell.runs[String(cellRun)] ?? cell.runs.default;
    /** @type {string} */
    let outcome = await this.#steps(view, spec.steps, signal);
    if (outcome === 'aborted') outcome = String(signal.reason);
    const delay = this.scenario.ui.interruptErrorDelayMs;
    if (outcome === 'interrupt' && !delay) view.outputs.add(this.scenario.interruptError);

    this.current = null;
    const failed = outcome === 'error' || outcome === 'interrupt';
    view.executedAt = new Date();
    view.setState(failed ? 'error' : 'idle', execution, process);
    if (this.kernel.state === 'busy') this.kernel.setState('idle');
    record('cell-end', {
      cell: view.index,
      cellId: cell.id,
      state: outcome === 'ok' ? 'ok' : failed ? 'error' : 'aborted',
      ...(outcome === 'ok' || outcome === 'error' ? {} : { reason: outcome }),
    });
    if (outcome === 'interrupt' && delay) this.#showLate(view, delay, execution);
    this.onCellEnd(view, !failed);
    return outcome;
  }

  /** The KeyboardInterrupt of an execution whose state already says error, shown late (unless it ran again since). */
  async #showLate(view, delay, execution) {
    if (!(await sleep(delay, this.kernel.signal))) return;
    if (view.count !== execution || view.state !== 'error') return;
    view.outputs.add(this.scenario.interruptError);
    record('output-late', { cell: view.index, outputType: 'error' });
  }

  /** @returns {Promise<'ok'|'error'|'aborted'>} */
  async #steps(view, steps, signal) {
    const half = this.timing.cellMs / 2;
    if (!(await sleep(half, signal))) return 'aborted';
    for (const step of steps) {
      const result = await this.#step(view, step, signal);
      if (result !== 'ok') return result;
    }
    return (await sleep(half, signal)) ? 'ok' : 'aborted';
  }

  async #step(view, step, signal) {
    const wait = (ms) => sleep(ms, signal);
    switch (step.kind) {
      case 'output':
        if (!(await wait(this.timing.stepMs))) return 'aborted';
        view.outputs.add(step.output);
        // An error output the code shows and goes on (IPython's showtraceback() after catching) ends nothing.
        return step.output.output_type === 'error' && !step.output.continues ? 'error' : 'ok';
      case 'wait':
        return (await wait(step.ms)) ? 'ok' : 'aborted';
      case 'stream': {
        const batch = step.batch ?? 1;
        for (let i = 1; i <= step.lines; i += batch) {
          if (!(await wait(step.every))) return 'aborted';
          let text = '';
          for (let j = i; j < i + batch && j <= step.lines; j++)
            text += step.text.replaceAll('{i}', String(j)).replaceAll('{n}', String(step.lines));
          view.outputs.add({ output_type: 'stream', name: step.name, text, place: step.place });
        }
        return 'ok';
      }
      case 'progress':
        for (let i = 0; i <= step.total; i++) {
          if (!(await wait(step.every))) return 'aborted';
          const text = `${i ? '\r' : ''}${tqdmLine(step.desc, i, step.total)}${i === step.total ? '\n' : ''}`;
          view.outputs.add({ output_type: 'stream', name: 'stderr', text, place: step.place });
        }
        return 'ok';
      case 'crash':
        if (!(await wait(this.timing.stepMs))) return 'aborted';
        this.onCrash(step.crash);
        return 'aborted';
      case 'hang':
        await wait(2 ** 31 - 1);
        return 'aborted';
      case 'unassign':
        // `google.colab.runtime.unassign()`: the runtime goes, and this cell with it.
        if (!(await wait(this.timing.stepMs))) return 'aborted';
        record('unassign', { cell: view.index });
        this.onUnassign();
        return 'aborted';
      case 'drive-mount': {
        // `drive.mount()` on a machine not yet authorised: Colab asks, and the cell waits for the answer.
        const answered = this.dialog('drive-permission');
        const aborted = new Promise((resolve) => signal.addEventListener('abort', () => resolve(null), { once: true }));
        const answer = await Promise.race([answered, aborted]);
        if (answer === null) return 'aborted';
        record('drive-mount', { cell: view.index, granted: answer === 'ok' });
        if (answer === 'ok') return 'ok';
        view.outputs.add(step.refused);
        return 'error';
      }
      case 'pause': {
        if (this.resumedEarly > 0) {
          this.resumedEarly--;
          return 'ok';
        }
        const resumed = new Promise((resolve) => {
          this.paused.push(resolve);
          signal.addEventListener('abort', () => resolve(false), { once: true });
        });
        return (await resumed) ? 'ok' : 'aborted';
      }
      case 'eval-js': {
        // Like the kernel blocking in eval_js until the frontend replies; a restart or crash ends the wait.
        if (signal.aborted) return 'aborted';
        const done = view.outputs.evalJs(step.script);
        const aborted = new Promise((resolve) => signal.addEventListener('abort', () => resolve(null), { once: true }));
        const outcome = await Promise.race([done, aborted]);
        if (!outcome) return 'aborted';
        record('eval-js', { cell: view.index, ...outcome });
        return 'ok';
      }
      default:
        throw new Error(`colab-sim: unknown step ${step.kind}`);
    }
  }
}

/** `Training:  30%|███       | 3/10 [00:00<00:00, 33.33it/s]` */
function tqdmLine(desc, i, total) {
  const pct = Math.floor((100 * i) / total);
  const filled = Math.floor((10 * i) / total);
  return (
    `${desc}: ${String(pct).padStart(3)}%|${'█'.repeat(filled)}${' '.repeat(10 - filled)}| ${i}/${total} ` +
    `[00:0${Math.min(9, i)}<00:00, 33.33it/s]`
  );
}
