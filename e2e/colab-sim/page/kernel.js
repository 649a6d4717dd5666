// The simulated runtime (§5.4 states): 'disconnected' → 'connecting' → 'idle' ⇄ 'busy'. Everything executing in a
// session listens to `signal`; a restart, crash or disconnect aborts it (with that reason) and starts a new session.
// The execution counter restarts at 1 with every new kernel process (restart, crash, a new connection); `process`
// numbers them, so that the page can tell a state of this process from a stale one (§11.4).

import { record } from './log.js';
import { sleep } from './util.js';

export class Kernel {
  /**
   * @param {{timing: import('../scenario').ResolvedScenario['timing'], onState: (state: string) => void,
   *   onGpuUnavailable: (() => Promise<boolean>) | null, onUnreachable: () => void}} o
   *   onGpuUnavailable: asks "Connect without GPU?"; null when the GPU is available
   *   onUnreachable: a connection failed during an outage (`unreachable`)
   */
  constructor({ timing, onState, onGpuUnavailable, onUnreachable }) {
    this.timing = timing;
    this.onState = onState;
    this.onGpuUnavailable = onGpuUnavailable;
    this.onUnreachable = onUnreachable;
    /** An outage (colabtools#5650): every connection fails, after trying for `connectMs`. */
    this.unreachable = false;
    this.state = 'disconnected';
    this.everConnected = false;
    this.counter = 0;
    this.process = 0;
    this.session = new AbortController();
    this.transition = null;
    this.crashRecovery = null;
  }

  get connected() {
    return this.state === 'idle' || this.state === 'busy';
  }

  /** Aborted when this session ends (reason 'restart' | 'crash' | 'disconnect' | 'powerwash'). */
  get signal() {
    return this.session.signal;
  }

  setState(state) {
    if (state === this.state) return;
    this.state = state;
    record('kernel', { state });
    this.onState(state);
  }

  /**
   * Connects; resolves false if the connection was refused. While a connection, restart or crash recovery is in
   * progress, waits for it instead of starting another one.
   */
  async connect() {
    if (this.connected) return true;
    if (this.transition) {
      while (this.transition) await this.transition;
      return this.connected;
    }
    return this.#transition(async () => {
      await sleep(this.timing.connectMs);
      if (this.unreachable) {
        record('connect-failed');
        this.onUnreachable();
        return false;
      }
      if (this.onGpuUnavailable && !(await this.onGpuUnavailable())) return false;
      this.everConnected = true;
      this.counter = 0;
      this.process++;
      return true;
    });
  }

  /** Restarts the kernel process: running work is aborted, the counter resets. Outputs are the page's business. */
  restart() {
    record('restart');
    this.#newProcess('restart');
    return this.#transition(() => sleep(this.timing.restartMs).then(() => true));
  }

  /** The kernel died (§5.1); Colab restarts it by itself, which takes `crashRestartMs`. */
  crash(kind) {
    record('crash', { kind });
    this.#newProcess('crash');
    this.crashRecovery = this.#transition(() => sleep(this.timing.crashRestartMs).then(() => true));
    return this.crashRecovery;
  }

  /** Colab is still bringing a crashed kernel back: a Run all sent now is ignored (§11.5). */
  get recoveringFromCrash() {
    return !!this.transition && this.transition === this.crashRecovery;
  }

  /** 'connecting' while `work` runs, then 'idle' (work resolved true) or 'disconnected'. */
  #transition(work) {
    this.setState('connecting');
    const transition = work().then((ok) => {
      if (this.transition === transition) {
        this.transition = null;
        this.setState(ok ? 'idle' : 'disconnected');
      }
      return ok;
    });
    this.transition = transition;
    return transition;
  }

  disconnect(reason = 'disconnect') {
    this.transition = null;
    this.#endSession(reason);
    this.setState('disconnected');
  }

  #newProcess(reason) {
    this.#endSession(reason);
    this.counter = 0;
    this.process++;
  }

  #endSession(reason) {
    this.session.abort(reason);
    this.session = new AbortController();
  }
}
