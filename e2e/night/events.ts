/**
 * The night's events: what a person, Colab and the browser can do to a guarded notebook overnight, drawn from a
 * weighted list by a seeded generator, so that a seed names one night exactly. Pure: no browser, no Node API.
 */

/**
 * Where the guard is, when an event lands in the middle of a countdown (the interleavings bugs came from): a reload,
 * the switch off, a stopped worker, a visit to another notebook, an update, the computer asleep for 2 hours, or Colab
 * ending the runtime for a reason that is the person's (no compute units).
 */
export type During = 'reload' | 'switch-off' | 'worker-stop' | 'other-notebook' | 'update' | 'asleep' | 'disconnect';

export type NightEvent =
  /** The person's Run all; every cell succeeds. */
  | { kind: 'run-ok' }
  /**
   * Run all; the training cell ends in an out of memory shown in `place`; optionally something lands mid-countdown.
   * In a night with the question at the keyboard on, the person who just clicked Run all is asked, and gives `answer`
   * (Restart now when none: a replay file written before the question was played).
   */
  | {
      kind: 'oom';
      preset: 'cuda-oom' | 'tf-oom' | 'jax-oom' | 'host-ram';
      place: 'frame' | 'main';
      during?: During;
      answer?: Answer;
    }
  /** Run all; the kernel dies of RAM while training runs: Colab's "crashed after using all available RAM" toast. */
  | { kind: 'ram-crash' }
  /** Run all; Colab's "crashed for an unknown reason" (off by default: never acted on). */
  | { kind: 'unknown-crash' }
  /** Run all; a ValueError ends training. */
  | { kind: 'other-error' }
  /** Run all; the code catches an OOM, shows its traceback and goes on. */
  | { kind: 'caught-oom' }
  /** Run all; the person stops the training cell: KeyboardInterrupt. */
  | { kind: 'stop' }
  /** Run all; `!accelerate launch` dies of CUDA OOM. */
  | { kind: 'shell-oom' }
  /** Run all; a shell cell prints last night's OOM from a log file, and ends well. */
  | { kind: 'old-log' }
  /** More time than the healthy window passes with nothing failing (the guard's clock jumps). */
  | { kind: 'healthy-stretch' }
  /**
   * The computer sleeps this many hours, nothing running: past the healthy window (2), or past the 12 hours after
   * which a guard that saw nothing run ends by itself (13). Both clocks jump: the simulator's has no timers pending.
   */
  | { kind: 'asleep'; hours: 2 | 13 }
  /** Colab ends the runtime and says "Runtime disconnected", for this reason (settings.md, "Reconnect and run all"). */
  | { kind: 'disconnect'; reason: 'idle' | 'disallowed-code' | 'zero-units' }
  /**
   * Colab loses the runtime and cannot connect ("Unable to connect to the runtime"), until the person, having seen one
   * reconnect of the guard's fail (or none coming), sees Colab back.
   */
  | { kind: 'outage' }
  | { kind: 'reload' }
  /** The tab opens a notebook never guarded, which fails of OOM, then comes back. */
  | { kind: 'other-notebook' }
  | { kind: 'worker-stop' }
  /** A new version of the extension is loaded in place, the notebook's tab open. */
  | { kind: 'update' }
  /**
   * Colab shows one of the person's dialogs; the person closes it. The disallowed-code warning (REFERENCE §11.2:
   * "Cancel execution" / "Continue anyway", both the person's decision) is closed with Escape, which answers neither.
   */
  | { kind: 'dialog'; dialog: PersonDialog }
  | { kind: 'switch'; on: boolean }
  /** The notebook's Max restarts, set in the popup. */
  | { kind: 'limit'; max: number }
  /** The person types in the page. */
  | { kind: 'typing' }
  /** A second tab on the notebook (one shared runtime); the OOM shows there late when `late`. */
  | { kind: 'second-tab'; late: boolean }
  /**
   * The person starts Run all and opens another tab in front of the Colab tab; behind it, hidden and throttled as
   * browsers do, training dies of out of memory (`fails`) or ends well; then the person comes back to the tab.
   */
  | { kind: 'hidden'; fails: boolean };

export type Kind = NightEvent['kind'];

const PERSON_DIALOGS = ['drive-permission', 'usage-limit', 'gpu-unavailable', 'disallowed-code'] as const;
export type PersonDialog = (typeof PERSON_DIALOGS)[number];

/**
 * The person's answer to "Restart session and run all?" (settings.md): Restart now, Not now, or nothing: they leave
 * the keyboard, and 2 minutes later the countdown comes back and acts. Leaving costs the night 2 real minutes, so it is
 * drawn rarely.
 */
export type Answer = 'restart' | 'not-now' | 'away';

/** Weights: failures often (they are what the guard is for), the rest now and then. */
const WEIGHTS: Array<[number, (r: Random) => NightEvent]> = [
  [10, () => ({ kind: 'run-ok' })],
  [
    18,
    (r) => ({
      kind: 'oom',
      preset: r.pick(['cuda-oom', 'cuda-oom', 'tf-oom', 'jax-oom', 'host-ram'] as const),
      place: r.pick(['frame', 'main'] as const),
      ...(r.chance(0.3)
        ? {
            during: r.pick([
              'reload',
              'switch-off',
              'worker-stop',
              'other-notebook',
              'update',
              'asleep',
              'disconnect',
            ] as const),
          }
        : {}),
      answer: r.chance(0.04) ? 'away' : r.pick(['restart', 'not-now'] as const),
    }),
  ],
  [6, () => ({ kind: 'ram-crash' })],
  [3, () => ({ kind: 'unknown-crash' })],
  [5, () => ({ kind: 'other-error' })],
  [4, () => ({ kind: 'caught-oom' })],
  [4, () => ({ kind: 'stop' })],
  [5, () => ({ kind: 'shell-oom' })],
  [3, () => ({ kind: 'old-log' })],
  [6, () => ({ kind: 'healthy-stretch' })],
  [3, (r) => ({ kind: 'asleep', hours: r.pick([2, 13] as const) })],
  [4, (r) => ({ kind: 'disconnect', reason: r.pick(['idle', 'idle', 'disallowed-code', 'zero-units'] as const) })],
  [2, () => ({ kind: 'outage' })],
  [4, () => ({ kind: 'reload' })],
  [2, () => ({ kind: 'other-notebook' })],
  [3, () => ({ kind: 'worker-stop' })],
  [2, () => ({ kind: 'update' })],
  [3, (r) => ({ kind: 'dialog', dialog: r.pick(PERSON_DIALOGS) })],
  [4, (r) => ({ kind: 'switch', on: r.chance(0.5) })],
  [3, (r) => ({ kind: 'limit', max: r.int(0, 4) })],
  [2, () => ({ kind: 'typing' })],
  [3, (r) => ({ kind: 'second-tab', late: r.chance(0.6) })],
  [4, (r) => ({ kind: 'hidden', fails: r.chance(0.75) })],
];

/** The night's Colab, drawn from its seed: how its dialogs are built, how late frames and a Stop's error show. */
export interface NightColab {
  dialog: 'mwc' | 'mwc-legacy' | 'md' | 'paper';
  /** Outputs rendered progressively, this late. */
  renderDelayMs: number;
  /** A Stop's KeyboardInterrupt shown this long after the cell's state says error. */
  interruptErrorDelayMs: number;
  /** The person's "Reconnect and run all after Runtime disconnected" for the night (settings.md). */
  reconnectOnDisconnect: boolean;
  /** The person's "Ask before restarting while I work in the Colab tab" (`askAtKeyboard`, settings.md). */
  askAtKeyboard: boolean;
  /** Alerts to a URL (docs/alerts.md), or none set. */
  alerts: NightAlerts | null;
}

/** Which events alert, and how the night's local receiver answers: 200, an HTTP error, or never (held open). */
export interface NightAlerts {
  events: Record<AlertEventName, boolean>;
  receiver: 'ok' | 'fails' | 'hangs';
}

/** docs/alerts.md's events (its JSON shape's `event`). */
export const ALERT_EVENT_NAMES = [
  'gave-up',
  'run-stopped',
  'ui-problem',
  'left-to-person',
  'restarted',
  'run-finished',
] as const;
export type AlertEventName = (typeof ALERT_EVENT_NAMES)[number];

export function nightColab(seed: number): NightColab {
  const random = new Random(seed ^ 0x5eed);
  return {
    dialog: random.pick(['mwc', 'mwc-legacy', 'md', 'paper'] as const),
    renderDelayMs: random.pick([0, 0, 120]),
    interruptErrorDelayMs: random.pick([0, 300]),
    reconnectOnDisconnect: random.chance(0.5),
    // Drawn after the earlier choices, so that a seed keeps the Colab it had before these were drawn.
    askAtKeyboard: random.chance(0.5),
    alerts: random.chance(0.6) ? nightAlerts(random) : null,
  };
}

function nightAlerts(random: Random): NightAlerts {
  const events = Object.fromEntries(ALERT_EVENT_NAMES.map((name) => [name, random.chance(0.5)]));
  return {
    events: events as Record<AlertEventName, boolean>,
    receiver: random.pick(['ok', 'ok', 'ok', 'fails', 'hangs'] as const),
  };
}

/** mulberry32: small, fast, and the same sequence on every machine for a seed. */
export class Random {
  #state: number;
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
}

/** The night of `seed`: `count` events. */
export function generateNight(seed: number, count: number): NightEvent[] {
  const random = new Random(seed);
  const total = WEIGHTS.reduce((sum, [weight]) => sum + weight, 0);
  const events: NightEvent[] = [];
  for (let i = 0; i < count; i++) {
    const roll = random.next() * total;
    let sum = 0;
    const entry = WEIGHTS.find(([weight]) => {
      sum += weight;
      return roll < sum;
    });
    events.push((entry ?? WEIGHTS[WEIGHTS.length - 1]!)[1](random));
  }
  return events;
}

/** One line per event, for a report a person reads. */
export function describe(event: NightEvent): string {
  const { kind, ...rest } = event;
  const params = Object.entries(rest).map(([k, v]) => `${k}=${v}`);
  return params.length ? `${kind}(${params.join(', ')})` : kind;
}

/**
 * Candidate smaller nights: first the night's last 1, 2, 4… events alone (a failure usually needs only the events just
 * before it, and a long night's halves take longer to replay than a shrink has), then the largest cut first (delta
 * debugging's chunks, then one event at a time): the shrinker keeps the first candidate that still fails, and asks
 * again.
 */
export function* smallerNights(events: NightEvent[]): Generator<NightEvent[]> {
  for (let tail = 1; tail * 2 <= events.length; tail *= 2) yield events.slice(-tail);
  for (let chunk = Math.floor(events.length / 2); chunk >= 1; chunk = Math.floor(chunk / 2)) {
    for (let start = 0; start + chunk <= events.length; start += chunk) {
      yield [...events.slice(0, start), ...events.slice(start + chunk)];
    }
  }
}
