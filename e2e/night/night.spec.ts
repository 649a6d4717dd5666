import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { describe, generateNight, type NightColab, type NightEvent, nightColab, smallerNights } from './events';
import { InvariantBroken, Night, NightTiming } from './world';

/**
 * `npm run test:night`: seeded nights against the simulator, every invariant checked after every event; a failing
 * night is shrunk and written to reports/night/ for `--replay`. Configured by scripts/night.mjs.
 */

// Not under test-results/, which the e2e suite empties when it starts.
const OUT = resolve(import.meta.dirname, '../../reports/night');
const seeds = (process.env.NIGHT_SEEDS ?? '1').split(',').map(Number);
const count = Number(process.env.NIGHT_EVENTS ?? 300);
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

async function play(night: Night, colab: NightColab, events: NightEvent[], until = Infinity): Promise<Outcome> {
  await night.begin(`night${Date.now().toString(36)}${++nights}`, colab);
  let played = 0;
  for (const event of events) {
    if (Date.now() >= until) break;
    try {
      await night.play(event);
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
  // The sentinel (as in the e2e suite): a RAM crash whose Run all comes one countdown later proves that nothing the
  // last event set going is still to come.
  const sentinel: NightEvent = { kind: 'ram-crash' };
  if (night.model.acts(sentinel)) {
    try {
      await night.play(sentinel);
    } catch (error) {
      const signature = error instanceof InvariantBroken ? error.signature : 'error';
      return { ok: false, played, checks: night.checks, failure: `sentinel: ${(error as Error).message}`, signature };
    }
  }
  return { ok: true, played, checks: night.checks };
}

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
    await this.night.dispose().catch(() => undefined);
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
    await this.night.dispose();
  }
}

/** Plays a night; a night that failed leaves a fresh browser behind it. */
async function playFresh(world: World, colab: NightColab, events: NightEvent[], until?: number): Promise<Outcome> {
  const outcome = await play(world.night, colab, events, until).catch(
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
  colab: NightColab,
  events: NightEvent[],
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
      const outcome = await playFresh(world, colab, candidate, deadline);
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

/** An event that met the night's timing problem this many times in a row is skipped (counted, not judged). */
const TIMING_TRIES = 2;

test('a night of randomized events, every invariant after every event', async () => {
  const world = new World();
  await world.open();
  const until = wallBudgetMs ? started + wallBudgetMs : Infinity;
  const summary: NightSummary[] = [];
  // A failure does not end the run: the rest of its events go to a fresh world with the next seed. A timing problem of
  // the night's own goes on in a fresh world with the same events, that one first (skipped after TIMING_TRIES).
  const queue: Array<{ seed: number; events: NightEvent[]; colab: NightColab; retry?: number }> = seeds.map((seed) => ({
    seed,
    events: replayFile ? JSON.parse(readFileSync(replayFile, 'utf8')).events : generateNight(seed, count),
    colab: nightColab(seed),
  }));
  let unplayed = 0;
  const timing = { problems: 0, skipped: [] as string[] };
  try {
    while (queue.length && Date.now() < until) {
      const { seed, events, colab, retry = 0 } = queue.shift()!;
      const length = events.length;
      const checksBefore = world.checks;
      const nightStarted = Date.now();
      const outcome = await playFresh(world, colab, events, until);
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
        : await shrink(world, colab, failing, outcome.signature!);
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
    // Named by its seeds: nights run side by side (one per core) keep their own.
    save(`summary-${seeds.join(',')}.json`, {
      count,
      seeds,
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
      `the run: ${played} events played and passed, ${failures} failing${timingWords}, ` +
        `${world.checks} invariant checks, ` +
        `seeds ${summary.map((n) => n.seed).join(',')}, ${seconds} s${flashWords}` +
        (queue.length || unplayed
          ? `; out of time with ${unplayed + queue.reduce((sum, n) => sum + n.events.length, 0)} events unplayed`
          : ''),
    );
    await world.dispose();
  }
  expect(summary.filter((n) => n.failure)).toEqual([]);
});
