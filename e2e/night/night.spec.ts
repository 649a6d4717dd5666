import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { describe, generateNight, type NightColab, type NightEvent, nightColab, smallerNights } from './events';
import { InvariantBroken, Night } from './world';

/**
 * `npm run test:night`: seeded nights against the simulator, every invariant checked after every event; a failing
 * night is shrunk and written to reports/night/ for `--replay`. Configured by scripts/night.mjs.
 */

// Not under test-results/, which the e2e suite empties when it starts.
const OUT = resolve(import.meta.dirname, '../../reports/night');
const seeds = (process.env.NIGHT_SEEDS ?? '1').split(',').map(Number);
const count = Number(process.env.NIGHT_EVENTS ?? 300);
const replayFile = process.env.NIGHT_REPLAY;
const shrinkBudgetMs = Number(process.env.NIGHT_SHRINK_MINUTES ?? 10) * 60_000;

interface Outcome {
  ok: boolean;
  played: number;
  checks: number;
  failure?: string;
  /** Which invariant broke ('error': the night itself could not go on). */
  signature?: string;
}

let nights = 0;

async function play(night: Night, colab: NightColab, events: NightEvent[]): Promise<Outcome> {
  await night.begin(`night${Date.now().toString(36)}${++nights}`, colab);
  let played = 0;
  for (const event of events) {
    try {
      await night.play(event);
    } catch (error) {
      const signature = error instanceof InvariantBroken ? error.signature : 'error';
      const failure = `${describe(event)}: ${(error as Error).message}`;
      return { ok: false, played, checks: night.checks, failure, signature };
    }
    played++;
    if (played % 50 === 0) console.log(`  … ${played}/${events.length} events, ${night.checks} checks`);
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

/** The smallest night found within the budget that still breaks the same invariant. */
async function shrink(
  night: Night,
  colab: NightColab,
  events: NightEvent[],
  signature: string,
): Promise<{ events: NightEvent[]; failure: string }> {
  const deadline = Date.now() + shrinkBudgetMs;
  let best = events;
  let failure = '';
  let progress = true;
  while (progress && Date.now() < deadline) {
    progress = false;
    for (const candidate of smallerNights(best)) {
      if (Date.now() >= deadline) break;
      const outcome = await play(night, colab, candidate);
      if (outcome.ok || outcome.signature !== signature) continue;
      best = candidate.slice(0, outcome.played + 1);
      failure = outcome.failure!;
      progress = true;
      break;
    }
  }
  return { events: best, failure };
}

function save(name: string, content: object): string {
  mkdirSync(OUT, { recursive: true });
  const file = join(OUT, name);
  writeFileSync(file, `${JSON.stringify(content, null, 2)}\n`);
  return file;
}

test('a night of randomized events, every invariant after every event', async () => {
  const night = await Night.open();
  const summary: Array<{ seed: number; events: number; checks: number; failure?: string; replay?: string }> = [];
  try {
    for (const seed of seeds) {
      const events: NightEvent[] = replayFile
        ? JSON.parse(readFileSync(replayFile, 'utf8')).events
        : generateNight(seed, count);
      const colab = nightColab(seed);
      const checksBefore = night.checks;
      const started = Date.now();
      const outcome = await play(night, colab, events);
      const seconds = Math.round((Date.now() - started) / 1000);
      const verdict = outcome.ok ? '' : `, FAILED: ${outcome.failure}`;
      console.log(
        `night seed=${seed} (${JSON.stringify(colab)}): ${outcome.played}/${events.length} events, ` +
          `${night.checks - checksBefore} invariant checks, ${seconds} s${verdict}`,
      );
      if (outcome.ok) {
        summary.push({ seed, events: outcome.played, checks: night.checks - checksBefore });
        continue;
      }
      const failing = events.slice(0, outcome.played + 1);
      save(`seed-${seed}-unshrunk.json`, { seed, colab, failure: outcome.failure, events: failing });
      const shrunk = replayFile
        ? { events: failing, failure: outcome.failure! }
        : await shrink(night, colab, failing, outcome.signature!);
      const failure = shrunk.failure || outcome.failure!;
      const file = save(`seed-${seed}.json`, { seed, colab, failure, events: shrunk.events });
      console.log(
        `night seed=${seed} shrunk to ${shrunk.events.length} events (${failure}):\n` +
          shrunk.events.map((e, i) => `  ${i + 1}. ${describe(e)}`).join('\n') +
          `\nreplay: npm run test:night -- --seed ${seed} --replay ${file}`,
      );
      summary.push({ seed, events: outcome.played, checks: night.checks - checksBefore, failure, replay: file });
    }
  } finally {
    save('summary.json', { count, seeds, nights: summary });
    await night.dispose();
  }
  expect(summary.filter((n) => n.failure)).toEqual([]);
});
