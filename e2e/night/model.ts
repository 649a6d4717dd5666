import type { Answer, NightEvent } from './events';

/**
 * What README and docs/settings.md promise, as a model of one guarded notebook: written from the documents, not from
 * src/. After each event the night compares the real extension with `expected()`.
 *
 * - "A crash loop (failures with no healthy run in between) may use at most 3 restarts (you can change that) …
 *   then the guard gives up and waits for you."
 * - "One failure gives one restart, however many tabs show it." Only fresh out-of-memory failures (in a frame, the
 *   main document or a shell-launched script) and Colab's RAM crash count; "Colab's RAM crash … then it runs all
 *   without a restart". Never other errors, caught OOMs, old logs, a Stop, or "crashed for an unknown reason" (off by
 *   default).
 * - "If 30 minutes pass after a restart without a failure, the crash loop's restarts used go back to zero."
 * - "Switching off cancels a countdown. Switching on again starts fresh: a give-up … is cleared along with the
 *   crash loop." A countdown carried into a reloaded or returning tab, or past a stopped worker, still gives one
 *   restart; so does one met by an update ("Open Colab tabs get the new version's script at once"), and one the
 *   computer slept through ("a new countdown starts when it wakes"). "Every other disconnect is yours … a countdown
 *   due then is cancelled".
 * - "Once no cell has been queued or running in any tab of its notebook for 12 hours, it switches itself off … a
 *   failure reported after the end is noted but not restarted."
 * - "Reconnect and run all after 'Runtime disconnected'" (off by default) answers the idle time-out only: the dialog's
 *   Reconnect, then Run all; "each reconnect counts toward the crash loop like a restart". Every other disconnect is
 *   the person's: never reconnected, whatever the setting. "Unable to connect to the runtime": "one reconnect per
 *   crash-loop restart, each after its countdown; when the restarts are used up it gives up and says so", in a page
 *   whose guard has seen a cell run since it started watching there (settings.md now says so).
 * - "A person at the keyboard is never surprised: when the Colab tab has focus and had a key press, a click … in the
 *   last 2 minutes, a failure's countdown becomes a question …, and waits for Restart now or Not now. Not now is final
 *   for that failure (the history says 'You chose Not now: left to you'). Once nothing has been typed or clicked in
 *   the tab for 2 minutes, the question gives way to the usual countdown." The night's person clicks Run all with
 *   the mouse (trusted input), so an out of memory that follows it is asked about; Restart now is one restart, Not now
 *   none and no crash-loop restart used (the loop counts restarts), away is the countdown acting.
 */
export interface Expected {
  enabled: boolean;
  gaveUp: boolean;
  /** Crash-loop restarts used (the popup's "Crash loop: n of m restarts used"). */
  loop: number;
  limit: number;
  /** Restarts the guard has performed (Runtime → Restart session and run all) since the night began. */
  restarts: number;
  /** Run alls the guard has chosen after Colab's RAM crash or its own reconnect. */
  crashRunAlls: number;
  /** The guard's Reconnects in a "Runtime disconnected" dialog. */
  reconnects: number;
  /** Times it gave up ("every give-up recorded"). */
  giveUps: number;
  /** The person's Not now answers: "left to you" in the history, nothing restarted. */
  leftToYou: number;
}

/** The events that run cells in the notebook's page. */
const RUNS = new Set<NightEvent['kind']>([
  'run-ok',
  'oom',
  'ram-crash',
  'unknown-crash',
  'other-error',
  'caught-oom',
  'stop',
  'shell-oom',
  'old-log',
  'second-tab',
  'hidden',
]);

/** What, landing in a countdown, cancels it: the switch off, a disconnect that is the person's. */
function cancels(during: string | undefined): boolean {
  return during === 'switch-off' || during === 'disconnect';
}

/** The failures that qualify, by event kind. */
const QUALIFYING = new Set<NightEvent['kind']>(['oom', 'shell-oom', 'ram-crash', 'second-tab']);

/** README's defaults: the night starts from them. */
export const README_DEFAULT_LIMIT = 3;
/** settings.md: "Healthy run (minutes) … 30 min"; "nothing ran for 12 hours". */
const HEALTHY_HOURS = 0.5;
const IDLE_END_HOURS = 12;

/** The person's settings the night plays with. */
export interface NightSettings {
  reconnectOnDisconnect: boolean;
  /** "Ask before restarting while I work in the Colab tab". */
  askAtKeyboard?: boolean;
}

export class NightModel {
  #s: Expected = {
    enabled: true,
    gaveUp: false,
    loop: 0,
    limit: README_DEFAULT_LIMIT,
    restarts: 0,
    crashRunAlls: 0,
    reconnects: 0,
    giveUps: 0,
    leftToYou: 0,
  };

  /** Whether the guard's watch in the notebook's page has seen a cell run: an outage then has a run to bring back. */
  #pageRan = false;

  constructor(private readonly settings: NightSettings = { reconnectOnDisconnect: false }) {}

  expected(): Expected {
    return { ...this.#s };
  }

  /** A copy to ask "what if" on: the night's floor plays events on one before they are played for real. */
  clone(): NightModel {
    const copy = new NightModel(this.settings);
    copy.#s = { ...this.#s };
    copy.#pageRan = this.#pageRan;
    return copy;
  }

  /** Whether the guard is expected to act on this event (a countdown, then a restart or a Run all). */
  acts(event: NightEvent): boolean {
    if (event.kind === 'oom' && cancels(event.during)) return false;
    if (this.#askingPageLeft(event)) return false;
    return this.countsDown(event);
  }

  /**
   * The person at the keyboard, asked, opens another notebook in the tab: settings.md counts it as closing the tab that
   * asks, a no. A reload or an update keeps the notebook in the tab, and nobody has touched the new page since: the
   * question gives way to the countdown.
   */
  #askingPageLeft(event: NightEvent): boolean {
    return !!this.settings.askAtKeyboard && event.kind === 'oom' && event.during === 'other-notebook';
  }

  /**
   * Whether the event starts a countdown: what an event meant to land inside one (`during`) needs, a switch-off
   * included, though it cancels the countdown and the guard does not act.
   */
  countsDown(event: NightEvent): boolean {
    const s = this.#s;
    if (!this.#qualifies(event) || !s.enabled || s.gaveUp) return false;
    return s.loop < s.limit;
  }

  /**
   * How the person at the keyboard answers this event's question, when the night knows it is asked in the page the
   * person works in and the page that asked is still there to answer: an out of memory after their click on Run all,
   * with nothing in its countdown or a stopped worker (the page stays). Other countdowns (a reload or an update throws
   * the asking page away; a second tab may own the countdown; a disconnect's time since the last click) may or may
   * not ask: whoever is asked answers Restart now, which is one restart either way, as the countdown is.
   */
  question(event: NightEvent): Answer | null {
    if (!this.settings.askAtKeyboard || event.kind !== 'oom' || !this.acts(event)) return null;
    if (event.during && event.during !== 'worker-stop') return null;
    return event.answer ?? 'restart';
  }

  /** Whether an outage now ends in a give-up: the guard's first reconnect (or none) uses the loop's last restart. */
  outageGivesUp(): boolean {
    const s = this.#s;
    return this.#qualifies({ kind: 'outage' }) && s.enabled && !s.gaveUp && s.loop + 1 >= s.limit;
  }

  #qualifies(event: NightEvent): boolean {
    if (event.kind === 'outage') return this.settings.reconnectOnDisconnect && this.#pageRan;
    if (event.kind === 'disconnect') return event.reason === 'idle' && this.settings.reconnectOnDisconnect;
    if (event.kind === 'hidden') return event.fails;
    return QUALIFYING.has(event.kind);
  }

  apply(event: NightEvent): void {
    const wasEnabled = this.#s.enabled;
    this.#applyToGuard(event);
    this.#pageRan = this.#ranAfter(event, wasEnabled);
  }

  /**
   * The guard's watch in the page starts afresh with each page load, update and switch-on, and sees nothing while the
   * guard is off; once it has seen a Run all (a countdown carried into a reloaded page runs all there), it has a run.
   */
  #ranAfter(event: NightEvent, wasEnabled: boolean): boolean {
    if (!this.#s.enabled) return false;
    if (!wasEnabled) return false;
    if (event.kind === 'reload' || event.kind === 'other-notebook' || event.kind === 'update') return false;
    // The tab left for another notebook and came back with nothing run there (the question's no).
    if (this.#askingPageLeft(event)) return false;
    if (RUNS.has(event.kind)) return true;
    // The guard's reconnect runs all.
    return this.#pageRan || this.#acted;
  }

  #applyToGuard(event: NightEvent): void {
    const s = this.#s;
    const before = s.crashRunAlls;
    this.#apply(event);
    this.#acted = s.crashRunAlls > before;
  }

  /** Whether the last event made the guard run all. */
  #acted = false;

  #apply(event: NightEvent): void {
    const s = this.#s;
    switch (event.kind) {
      case 'oom':
      case 'shell-oom':
      case 'ram-crash':
      case 'second-tab':
        this.#failure(event);
        break;
      case 'hidden':
        // Hidden, the tab has nobody at the keyboard: the countdown acts, unasked.
        if (event.fails) this.#failure(event);
        break;
      case 'disconnect':
        if (this.#qualifies(event)) this.#failure(event);
        break;
      case 'outage':
        // The person sees Colab back after the guard's first reconnect failed: it counted, and the next one works.
        if (!this.#qualifies(event)) break;
        if (this.countsDown(event)) s.loop++;
        this.#failure(event);
        break;
      case 'healthy-stretch':
        if (s.enabled && !s.gaveUp) s.loop = 0;
        break;
      case 'asleep':
        if (event.hours >= HEALTHY_HOURS && s.enabled && !s.gaveUp) s.loop = 0;
        if (event.hours >= IDLE_END_HOURS) s.enabled = false;
        break;
      case 'switch':
        if (event.on === s.enabled) break;
        s.enabled = event.on;
        if (event.on) Object.assign(s, { loop: 0, gaveUp: false });
        break;
      case 'limit':
        s.limit = event.max;
        break;
    }
  }

  #failure(event: NightEvent): void {
    const s = this.#s;
    if (!s.enabled || s.gaveUp) return;
    if (s.loop >= s.limit) {
      // No countdown to switch off in: the guard gives up and stays on.
      s.gaveUp = true;
      s.giveUps++;
      return;
    }
    if (event.kind === 'oom' && event.during === 'switch-off') {
      // Switched off during the countdown: cancelled.
      s.enabled = false;
      return;
    }
    // The person's disconnect cancels the countdown, leaving the notebook asks no more: nothing restarted, no loop
    // restart used.
    if (event.kind === 'oom' && event.during === 'disconnect') return;
    if (this.#askingPageLeft(event)) return;
    if (this.question(event) === 'not-now') {
      // Final for that failure: nothing restarted, no crash-loop restart used.
      s.leftToYou++;
      return;
    }
    s.loop++;
    if (event.kind === 'disconnect') s.reconnects++;
    if (event.kind === 'ram-crash' || event.kind === 'disconnect' || event.kind === 'outage') s.crashRunAlls++;
    else s.restarts++;
  }
}
