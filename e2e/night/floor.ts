import { generateNight, type NightColab, type NightEvent, nightColab } from './events';
import { NightModel } from './model';

/**
 * The floor of what a run of nights plays with the guard on: whatever its seed draws, a run plays each of
 * these at least once, checked and reported at its end. Where a seed's nights fall short, the run gets more events,
 * steered toward what is missing (never fewer checks). Pure: the night's model says what an event reaches.
 */
export const FLOOR = {
  'restart-mwc': "a restart confirmed in Colab's mwc-dialog (2024-12 to 2026)",
  'restart-md': 'a restart confirmed in an md-dialog (2025-26, tolerated)',
  'idle-reconnect': 'an idle disconnect reconnected',
  'meant-disconnect': 'a disconnect Colab meant, left to the person',
  outage: 'an outage ("Unable to connect") reconnected',
  'answer-restart': 'the question answered Restart now',
  'answer-not-now': 'the question answered Not now',
  'second-tab': 'an OOM in a second tab on the notebook',
  'switch-on': 'the guard switched back on',
  'oom-reload': 'an OOM whose countdown meets a reload',
  'oom-worker-stop': 'an OOM whose countdown meets a stopped worker',
  'oom-update': 'an OOM whose countdown meets an update',
} as const;
export type FloorItem = keyof typeof FLOOR;
export const FLOOR_ITEMS = Object.keys(FLOOR) as FloorItem[];

/** What the night's Colab must be for an item to be played in it. */
const NEEDS: Partial<Record<FloorItem, (colab: NightColab) => boolean>> = {
  'restart-mwc': (colab) => colab.dialog === 'mwc',
  'restart-md': (colab) => colab.dialog === 'md',
  'idle-reconnect': (colab) => colab.reconnectOnDisconnect,
  outage: (colab) => colab.reconnectOnDisconnect,
  'answer-restart': (colab) => colab.askAtKeyboard,
  'answer-not-now': (colab) => colab.askAtKeyboard,
};

const DURING_ITEMS = { reload: 'oom-reload', 'worker-stop': 'oom-worker-stop', update: 'oom-update' } as const;

/** The floor's items `event` plays, in a night of `colab` whose model (before the event) is `model`. */
export function reached(event: NightEvent, colab: NightColab, model: NightModel): FloorItem[] {
  const before = model.expected();
  if (!before.enabled) return event.kind === 'switch' && event.on ? ['switch-on'] : [];
  if (before.gaveUp) return [];
  const copy = model.clone();
  const countsDown = copy.countsDown(event);
  const answer = copy.question(event);
  copy.apply(event);
  const after = copy.expected();
  const items: FloorItem[] = [];
  if (after.restarts > before.restarts && colab.dialog === 'mwc') items.push('restart-mwc');
  if (after.restarts > before.restarts && colab.dialog === 'md') items.push('restart-md');
  if (event.kind === 'disconnect' && after.reconnects > before.reconnects) items.push('idle-reconnect');
  if (event.kind === 'disconnect' && event.reason !== 'idle') items.push('meant-disconnect');
  if (event.kind === 'oom' && event.during === 'disconnect' && countsDown) items.push('meant-disconnect');
  if (event.kind === 'outage' && countsDown) items.push('outage');
  if (answer === 'restart') items.push('answer-restart');
  if (answer === 'not-now') items.push('answer-not-now');
  if (event.kind === 'second-tab' && countsDown) items.push('second-tab');
  if (event.kind === 'oom' && countsDown && event.during && event.during in DURING_ITEMS) {
    items.push(DURING_ITEMS[event.during as keyof typeof DURING_ITEMS]);
  }
  return items;
}

/** The model of a night of `colab` before its first event. */
export function modelFor(colab: NightColab): NightModel {
  return new NightModel({ reconnectOnDisconnect: colab.reconnectOnDisconnect, askAtKeyboard: colab.askAtKeyboard });
}

/** Plays `events` on `model` (changed), adding what they reach to `covered`. */
export function playOn(model: NightModel, colab: NightColab, events: NightEvent[], covered: Set<FloorItem>): void {
  for (const event of events) {
    for (const item of reached(event, colab, model)) covered.add(item);
    model.apply(event);
  }
}

const oom = (extra: Partial<Extract<NightEvent, { kind: 'oom' }>> = {}): NightEvent => ({
  kind: 'oom',
  preset: 'cuda-oom',
  place: 'frame',
  answer: 'restart',
  ...extra,
});

/**
 * The person's events that bring the guard where it acts, with room for two crash-loop restarts (an outage takes
 * two): on, not given up, a limit of at least 3, and the loop back to 0. Before the sentinel that ends every night.
 */
export function readyToAct(model: NightModel): NightEvent[] {
  const s = model.expected();
  const events: NightEvent[] = [];
  if (!s.enabled) events.push({ kind: 'switch', on: true });
  else if (s.gaveUp) events.push({ kind: 'switch', on: false }, { kind: 'switch', on: true });
  if (s.limit < 3) events.push({ kind: 'limit', max: 3 });
  if (s.enabled && !s.gaveUp && s.loop > 0) events.push({ kind: 'healthy-stretch' });
  return events;
}

/** The events that play `item` next in a night of `colab` whose model is now `model`; null if its Colab cannot. */
export function steer(item: FloorItem, colab: NightColab, model: NightModel): NightEvent[] | null {
  if (NEEDS[item] && !NEEDS[item](colab)) return null;
  const on: NightEvent = { kind: 'switch', on: true };
  if (item === 'switch-on') return model.expected().enabled ? [{ kind: 'switch', on: false }, on] : [on];
  const tail: Record<Exclude<FloorItem, 'switch-on'>, NightEvent[]> = {
    'restart-mwc': [oom()],
    'restart-md': [oom()],
    'idle-reconnect': [{ kind: 'disconnect', reason: 'idle' }],
    'meant-disconnect': [{ kind: 'disconnect', reason: 'zero-units' }],
    outage: [{ kind: 'run-ok' }, { kind: 'outage' }],
    'answer-restart': [oom()],
    'answer-not-now': [oom({ answer: 'not-now' })],
    'second-tab': [{ kind: 'second-tab', late: true }],
    'oom-reload': [oom({ during: 'reload' })],
    'oom-worker-stop': [oom({ during: 'worker-stop' })],
    'oom-update': [oom({ during: 'update' })],
  };
  return [...readyToAct(model), ...tail[item]];
}

/** One night of a run: its seed, its Colab (drawn from the seed), its events, how many of them were steered. */
export interface PlannedNight {
  seed: number;
  colab: NightColab;
  events: NightEvent[];
  steered: number;
}

/** The floor's items that no night's Colab can play (a night of another Colab is needed). */
function colabMissing(colabs: NightColab[]): FloorItem[] {
  return FLOOR_ITEMS.filter((item) => NEEDS[item] && !colabs.some((colab) => NEEDS[item]!(colab)));
}

/**
 * The seed after `after` whose Colab plays the most of `missing` (the first such among the next 1,000): the night a
 * run adds for what its seeds' Colabs lack.
 */
export function seedFor(missing: FloorItem[], after: number): number {
  let best = after + 1;
  let most = -1;
  for (let seed = after + 1; seed <= after + 1000; seed++) {
    const colab = nightColab(seed);
    const plays = missing.filter((item) => NEEDS[item]?.(colab)).length;
    if (plays > most) [best, most] = [seed, plays];
    if (most === missing.length) break;
  }
  return best;
}

/** What the nights reach, each played from its start. */
export function coverage(nights: PlannedNight[]): Set<FloorItem> {
  const covered = new Set<FloorItem>();
  for (const night of nights) playOn(modelFor(night.colab), night.colab, night.events, covered);
  return covered;
}

/**
 * A run's nights: `count` events for each seed, then, while the seeds' Colabs cannot play an item of the floor, a
 * night of `count` events from the seed found for it; then, for each item still not reached, the events that reach
 * it, added to the end of the first night whose Colab can play it.
 */
export function planNights(seeds: number[], count: number): PlannedNight[] {
  const nights: PlannedNight[] = seeds.map((seed) => ({
    seed,
    colab: nightColab(seed),
    events: generateNight(seed, count),
    steered: 0,
  }));
  for (let missing = colabMissing(nights.map((n) => n.colab)); missing.length; ) {
    const seed = seedFor(missing, Math.max(...nights.map((n) => n.seed)));
    nights.push({ seed, colab: nightColab(seed), events: generateNight(seed, count), steered: 0 });
    const left = colabMissing(nights.map((n) => n.colab));
    if (left.length === missing.length) break;
    missing = left;
  }
  steerNights(nights);
  return nights;
}

/** Adds to `nights` the events that reach what they miss of the floor. */
function steerNights(nights: PlannedNight[]): void {
  const covered = coverage(nights);
  const models = nights.map((night) => {
    const model = modelFor(night.colab);
    playOn(model, night.colab, night.events, new Set());
    return model;
  });
  for (const item of FLOOR_ITEMS) {
    if (covered.has(item)) continue;
    for (const [i, night] of nights.entries()) {
      const events = steer(item, night.colab, models[i]!);
      if (!events) continue;
      playOn(models[i]!, night.colab, events, covered);
      night.events.push(...events);
      night.steered += events.length;
      break;
    }
  }
}

/**
 * A night of steered events only, for what a run still misses at its end (a night cut short by a failure, an event
 * skipped for the night's own timing): from the seed after `after` found for it.
 */
export function steeredNight(missing: FloorItem[], after: number): PlannedNight {
  const seed = seedFor(missing, after);
  const night: PlannedNight = { seed, colab: nightColab(seed), events: [], steered: 0 };
  const model = modelFor(night.colab);
  const covered = new Set<FloorItem>();
  for (const item of missing) {
    if (covered.has(item)) continue;
    const events = steer(item, night.colab, model);
    if (!events) continue;
    playOn(model, night.colab, events, covered);
    night.events.push(...events);
  }
  night.steered = night.events.length;
  return night;
}
