// One runtime for every tab on the notebook (`sharedKernel`): the first tab to load runs the kernel (the leader);
// each later tab (a follower) shows what the leader's cells, outputs, kernel and crash toast do, and sends the
// commands its own UI gives (menus, toolbar, run buttons) to the leader. Dialogs answer in the tab that asked.
// A follower can be held (`holdMirror`): what the leader shows waits until `releaseMirror`, as a background tab
// shows a failure late; then it is shown in order, one change per task, as a page renders messages one at a time.
// Tabs talk over a BroadcastChannel on Colab's origin; a Web Lock elects the leader.

/** Resolves to 'leader' or 'follower'; the leader keeps the lock for the page's life. */
export function electLeader(id) {
  return new Promise((resolve) => {
    navigator.locks.request(`colab-sim-kernel:${id}`, { ifAvailable: true }, (lock) => {
      if (!lock) {
        resolve('follower');
        return null;
      }
      resolve('leader');
      return new Promise(() => {});
    });
  });
}

export class Mirror {
  /**
   * @param {string} id  the scenario registration
   * @param {'leader' | 'follower'} role
   * @param {(message: object) => void} onMessage  a message from the other side (in order; a held follower's later)
   */
  constructor(id, role, onMessage) {
    this.role = role;
    this.held = null; // messages waiting while held
    this.channel = new BroadcastChannel(`colab-sim:${id}`);
    this.channel.onmessage = (event) => {
      const message = event.data;
      if (message.to !== role) return;
      if (this.held) this.held.push(message);
      else onMessage(message);
    };
    this.onMessage = onMessage;
  }

  /** To the followers (from the leader) or to the leader (from a follower). */
  send(message) {
    this.channel.postMessage({ ...message, to: this.role === 'leader' ? 'follower' : 'leader' });
  }

  hold() {
    this.held ??= [];
  }

  /** Shows what was held, one change per task (messages arriving meanwhile queue behind); returns how many. */
  release() {
    const queue = this.held ?? [];
    const count = queue.length;
    const next = () => {
      const message = queue.shift();
      if (!message) {
        this.held = null;
        return;
      }
      this.onMessage(message);
      setTimeout(next, 0);
    };
    next();
    return count;
  }
}
