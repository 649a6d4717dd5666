import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { describe, generateNight, type NightColab, type NightEvent, nightColab, smallerNights } from './events';
import {
  FLOOR,
  FLOOR_ITEMS,
  type FloorItem,
  type PlannedNight,
  planNights,
  reached,
  readyToAct,
  steeredNight,
} from './floor';
import { InvariantBroken, Night, NightTiming } from './world';

/**
 * `npm run test:night`: seeded nights against the simulator, every invariant checked after every event; a failing
 * night is shrunk and written to reports/night/ for `--replay`. Configured by scripts/night.mjs.
 */

// Not under test-results/, which the e2e suite empties when it starts.
const OUT = resolve(import.meta.dirname, '../../reports/night');
const seeds = (process.env.NIGHT_SEEDS ?? '1').split(',').map(Number);
const count = Number(process.env.NIGHT_EVENTS ?? 40);
const replayFile = process.env.NIGHT_REPLAY;
const shrinkBudgetMs = Number(process.env.NIGHT_SHRINK_MINUTES ?? 3) * 60_000;
/** The whole run's wall-clock budget (0: none): past it no event starts, and the summary says how far it got. */
const wallBudgetMs = Number(process.env.NIGHT_MINUTES ?? 0) * 60_000;

interface Outcome {
  ok: boolean;
  played: number;
  checks: number;
  failure?: string;
  /** Which invariant broke ('error': the night itself could not go on). */
  signature?: string;
  /** The night's own timing failed at event `played` (the machine too slow for it): not a failure of the guard. */
  timing?: boolean;
}

let nights = 0;

/** Where the run reached each item of the floor first (`seed S, event n`), and how often. */
const floor = new Map<FloorItem, { first: string; times: number }>();

/** Plays one event, noting the floor's items it reached once it has passed every check. */
async function playEvent(night: Night, colab: NightColab, event: NightEvent, where: string): Promise<void> {
  const items = reached(event, colab, night.model);
  await night.play(event);
  for (const item of items) {
    const seen = floor.get(item);
    floor.set(item, { first: seen?.first ?? where, times: (seen?.times ?? 0) + 1 });
  }
}

async function play(
  night: Night,
  { seed, colab, events }: Omit<PlannedNight, 'steered'>,
  until = Infinity,
): Promise<Outcome> {
  await night.begin(`night${Date.now().toString(36)}${++nights}`, colab);
  let played = 0;
  for (const event of events) {
    if (Date.now() >= until) break;
    try {
      await playEvent(night, colab, event, `seed ${seed}, event ${played + 1}`);
    } catch (error) {
      if (error instanceof NightTiming) {
        return {
          ok: false,
          played,
          checks: night.checks,
          failure: `${describe(event)}: ${error.message}`,
          timing: true,
        };
      }
      const signature = error instanceof InvariantBroken ? error.signature : 'error';
      const failure = `${describe(event)}: ${(error as Error).message}`;
      return { ok: false, played, checks: night.checks, failure, signature };
    }
    played++;
    if (played % 50 === 0) progress(`${played}/${events.length} events of this seed, ${night.checks} checks`);
  }
  try {
    await night.waitOutCancelled();
  } catch (error) {
    const signature = error instanceof InvariantBroken ? error.signature : 'error';
    return { ok: false, played, checks: night.checks, failure: `cancelled: ${(error as Error).message}`, signature };
  }
  // Every night ends with the sentinel (as in the e2e suite): a RAM crash whose Run all comes one countdown later
  // proves that nothing the last event set going is still to come. A guard that would not act (off, given up, its
  // limit used) is first brought back by the person, as the popup lets them.
  for (const event of [...readyToAct(night.model), SENTINEL]) {
    try {
      await playEvent(night, colab, event, `seed ${seed}, the sentinel`);
    } catch (error) {
      const signature = error instanceof InvariantBroken ? error.signature : 'error';
      const failure = `sentinel (${describe(event)}): ${(error as Error).message}`;
      return { ok: false, played, checks: night.checks, failure, signature };
    }
  }
  return { ok: true, played, checks: night.checks };
}

const SENTINEL: NightEvent = { kind: 'ram-crash' };

const started = Date.now();

/** A progress line with the run's elapsed time, so that a long night shows where it is. */
function progress(line: string): void {
  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(`  [${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s] ${line}`);
}

/**
 * The browser and its night. After a failure the browser is started again: a hung event may still be running in it,
 * and the next night must start from a world nothing is left over in.
 */
class World {
  night!: Night;
  /** What closing a browser could not clean up: reported apart from the nights' verdict, never failing them. */
  readonly cleanup: string[] = [];
  /** Invariant checks made by browsers already closed. */
  #closedChecks = 0;
  /** How long a countdown showed before each question, in browsers already closed. */
  #closedFlashes: number[] = [];
  async open(): Promise<void> {
    this.night = await Night.open();
  }
  async fresh(): Promise<void> {
    this.#closedChecks += this.night.checks;
    this.#closedFlashes.push(...this.night.flashes);
    this.cleanup.push(...(await this.night.dispose()));
    await this.open();
  }
  get checks(): number {
    return this.#closedChecks + this.night.checks;
  }
  get flashes(): number[] {
    return [...this.#closedFlashes, ...this.night.flashes];
  }
  async dispose(): Promise<void> {
    this.#closedChecks += this.night.checks;
    this.cleanup.push(...(await this.night.dispose()));
  }
}

/** Plays a night; a night that failed leaves a fresh browser behind it. */
async function playFresh(world: World, night: Omit<PlannedNight, 'steered'>, until?: number): Promise<Outcome> {
  const outcome = await play(world.night, night, until).catch(
    (error: Error): Outcome => ({
      ok: false,
      played: 0,
      checks: 0,
      failure: `begin: ${error.message}`,
      signature: 'error',
    }),
  );
  if (!outcome.ok) await world.fresh();
  return outcome;
}

/**
 * The smallest night found within the budget that still breaks the same invariant; the best so far when the budget
 * runs out (a long night goes on after it).
 */
async function shrink(
  world: World,
  { seed, colab, events }: Omit<PlannedNight, 'steered'>,
  signature: string,
): Promise<{ events: NightEvent[]; failure: string; tries: number }> {
  const deadline = Date.now() + shrinkBudgetMs;
  let best = events;
  let failure = '';
  let tries = 0;
  let found = true;
  while (found && Date.now() < deadline) {
    found = false;
    for (const candidate of smallerNights(best)) {
      if (Date.now() >= deadline) break;
      tries++;
      const outcome = await playFresh(world, { seed, colab, events: candidate }, deadline);
      if (outcome.ok || outcome.timing || outcome.signature !== signature) continue;
      best = candidate.slice(0, outcome.played + 1);
      failure = outcome.failure!;
      found = true;
      progress(`shrinking: ${best.length} events still fail (${tries} tries)`);
      break;
    }
  }
  return { events: best, failure, tries };
}

function save(name: string, content: object): string {
  mkdirSync(OUT, { recursive: true });
  const file = join(OUT, name);
  writeFileSync(file, `${JSON.stringify(content, null, 2)}\n`);
  return file;
}

interface NightSummary {
  seed: number;
  /** Events played that passed every check (the failing one not counted). */
  events: number;
  checks: number;
  seconds: number;
  failure?: string;
  shrunkTo?: number;
  replay?: string;
  /** The night's own timing problem that ended this part of it (its event played again in a fresh world). */
  timing?: string;
}

/** At most this many nights steered to the floor's missing items at the end of a run. */
const STEERED_NIGHTS = 3;

/** An event that met the night's timing problem this many times in a row is skipped (counted, not judged). */
const TIMING_TRIES = 2;

test('a night of randomized events, every invariant after every event', async () => {
  const world = new World();
  await world.open();
  const until = wallBudgetMs ? started + wallBudgetMs : Infinity;
  const summary: NightSummary[] = [];
  // A failure does not end the run: the rest of its events go to a fresh world with the next seed. A timing problem of
  // the night's own goes on in a fresh world with the same events, that one first (skipped after TIMING_TRIES).
  // The run's nights: a replay plays its file; otherwise each seed's night, and more nights or events where the floor
  // needs them (e2e/night/floor.ts).
  const replayed = replayFile ? (JSON.parse(readFileSync(replayFile, 'utf8')) as { events: NightEvent[] }) : null;
  const planned: PlannedNight[] = replayed
    ? [{ seed: seeds[0]!, colab: nightColab(seeds[0]!), events: replayed.events, steered: 0 }]
    : planNights(seeds, count);
  const queue: Array<Omit<PlannedNight, 'steered'> & { retry?: number }> = [...planned];
  progress(
    `${planned.length} night(s) planned: ` +
      planned.map((n) => `seed ${n.seed}, ${n.events.length} events (${n.steered} steered to the floor)`).join('; '),
  );
  /** Nights added at the end for what the run still missed of the floor (the planned ones cut short). */
  let steeredAtEnd = 0;
  let unplayed = 0;
  const timing = { problems: 0, skipped: [] as string[] };
  try {
    while (Date.now() < until) {
      // What the run still misses of the floor once its nights are played (one cut short by a failure, an event
      // skipped for the night's own timing): a night steered to it, while such nights help.
      const missing = FLOOR_ITEMS.filter((item) => !floor.has(item));
      if (!queue.length && !replayFile && missing.length && steeredAtEnd < STEERED_NIGHTS) {
        const extra = steeredNight(missing, Math.max(...summary.map((n) => n.seed)) + steeredAtEnd * 1000);
        steeredAtEnd++;
        progress(`the floor still misses ${missing.join(', ')}: seed ${extra.seed}, ${extra.events.length} events`);
        if (extra.events.length) queue.push(extra);
      }
      if (!queue.length) break;
      const { seed, events, colab, retry = 0 } = queue.shift()!;
      const length = events.length;
      const checksBefore = world.checks;
      const nightStarted = Date.now();
      const outcome = await playFresh(world, { seed, colab, events }, until);
      const entry: NightSummary = {
        seed,
        events: outcome.played,
        checks: world.checks - checksBefore,
        seconds: Math.round((Date.now() - nightStarted) / 1000),
      };
      summary.push(entry);
      const verdict = outcome.ok
        ? ''
        : outcome.timing
          ? `, the night's own timing: ${outcome.failure}`
          : `, FAILED: ${outcome.failure}`;
      progress(
        `night seed=${seed} (${JSON.stringify(colab)}): ${outcome.played}/${events.length} events, ` +
          `${entry.checks} invariant checks, ${entry.seconds} s${verdict}`,
      );
      if (outcome.ok) {
        unplayed += events.length - outcome.played;
        continue;
      }
      if (outcome.timing) {
        entry.timing = outcome.failure;
        timing.problems++;
        const again = retry + 1 < TIMING_TRIES;
        if (!again) timing.skipped.push(`seed ${seed}: ${describe(events[outcome.played]!)}`);
        const rest = events.slice(outcome.played + (again ? 0 : 1));
        if (rest.length) queue.unshift({ seed, events: rest, colab, retry: again ? retry + 1 : 0 });
        continue;
      }
      const failing = events.slice(0, outcome.played + 1);
      save(`seed-${seed}-unshrunk.json`, { seed, colab, failure: outcome.failure, events: failing });
      const shrunk = replayFile
        ? { events: failing, failure: outcome.failure!, tries: 0 }
        : await shrink(world, { seed, colab, events: failing }, outcome.signature!);
      entry.failure = shrunk.failure || outcome.failure!;
      entry.shrunkTo = shrunk.events.length;
      entry.replay = save(`seed-${seed}.json`, { seed, colab, failure: entry.failure, events: shrunk.events });
      progress(
        `night seed=${seed} shrunk to ${shrunk.events.length} events in ${shrunk.tries} tries (${entry.failure}):\n` +
          shrunk.events.map((e, i) => `  ${i + 1}. ${describe(e)}`).join('\n') +
          `\nreplay: npm run test:night -- --seed ${seed} --replay ${entry.replay}`,
      );
      const left = length - outcome.played - 1;
      // Seed S goes on as seed S·100+1: not a seed of this run or of one beside it (seed 42 after 43 did: the same
      // events twice).
      const next = seed * 100 + 1;
      if (!replayFile && left > 0)
        queue.unshift({ seed: next, events: generateNight(next, left), colab: nightColab(next) });
    }
  } finally {
    const played = summary.reduce((sum, n) => sum + n.events, 0);
    const failures = summary.filter((n) => n.failure).length;
    const skipped = `${timing.skipped.length} event(s) skipped: ${timing.skipped.join('; ') || 'none'}`;
    const timingWords = timing.problems
      ? `, ${timing.problems} of the night's own timing problems (not failures; ${skipped})`
      : '';
    const seconds = Math.round((Date.now() - started) / 1000);
    const flashes = world.flashes;
    const flashWords = flashes.length
      ? `; before ${flashes.length} question(s) a countdown showed for up to ${Math.max(...flashes)} ms`
      : '';
    const floorMissing = FLOOR_ITEMS.filter((item) => !floor.has(item));
    // Named by its seeds: nights run side by side (one per core) keep their own.
    save(`summary-${seeds.join(',')}.json`, {
      count,
      seeds,
      floor: Object.fromEntries(floor),
      floorMissing,
      played,
      checks: world.checks,
      failures,
      timingProblems: timing.problems,
      timingSkipped: timing.skipped,
      countdownFlashesMs: flashes,
      seconds,
      nights: summary,
    });
    progress(
      `the floor (what the run must play with the guard on): ${FLOOR_ITEMS.length - floorMissing.length} of ` +
        `${FLOOR_ITEMS.length}\n` +
        FLOOR_ITEMS.map((item) => {
          const seen = floor.get(item);
          const where = seen ? ` (${seen.times}×, first ${seen.first})` : '';
          return `    ${seen ? 'played' : 'MISSING'}  ${FLOOR[item]}${where}`;
        }).join('\n'),
    );
    progress(
      `the run: ${played} events played and passed, ${failures} failing${timingWords}, ` +
        `${world.checks} invariant checks, ` +
        `seeds ${summary.map((n) => n.seed).join(',')}, ${seconds} s${flashWords}` +
        (queue.length || unplayed
          ? `; out of time with ${unplayed + queue.reduce((sum, n) => sum + n.events.length, 0)} events unplayed`
          : ''),
    );
    await world.dispose();
    if (world.cleanup.length) {
      progress(`cleanup problems (not the nights' verdict): ${world.cleanup.join('; ')}`);
    }
    progress(
      'these nights drove the simulator (e2e/colab-sim/), built from public evidence with its confidence ' +
        '(test/fixtures/colab-dom/REFERENCE.md), not Colab itself',
    );
  }
  expect(summary.filter((n) => n.failure)).toEqual([]);
  if (!replayFile) {
    expect(
      FLOOR_ITEMS.filter((item) => !floor.has(item)).map((item) => FLOOR[item]),
      'the floor: what every run must play with the guard on',
    ).toEqual([]);
  }
});
