// What survives a reload of the same notebook in the same browser context (localStorage on Colab's origin, keyed by
// the scenario registration): Colab's autosaved outputs and execution counts, and how often each cell has run
// (`runs` keys count executions per `runCounting`).

export class Persist {
  constructor(scenario) {
    this.key = `colab-sim:${scenario.id}`;
    this.autosave = scenario.autosave;
    this.perNotebook = scenario.runCounting === 'notebook';
    this.pageRuns = {};
    this.data = this.#load();
  }

  #load() {
    try {
      const data = JSON.parse(localStorage.getItem(this.key) ?? 'null');
      if (data && typeof data === 'object') return { runs: data.runs ?? {}, saved: data.saved ?? {} };
    } catch {
      // unreadable: start afresh
    }
    return { runs: {}, saved: {} };
  }

  #write() {
    localStorage.setItem(this.key, JSON.stringify(this.data));
  }

  /** Counts one more execution of the cell and returns its run number (1-based). */
  nextRun(cellId) {
    const counts = this.perNotebook ? this.data.runs : this.pageRuns;
    counts[cellId] = (counts[cellId] ?? 0) + 1;
    if (this.perNotebook) this.#write();
    return counts[cellId];
  }

  /** The autosaved state of a cell, if autosave is on and the cell was saved before. */
  saved(cellId) {
    return this.autosave ? this.data.saved[cellId] : undefined;
  }

  save(cellId, snapshot) {
    if (!this.autosave) return;
    this.data.saved[cellId] = snapshot;
    this.#write();
  }
}
