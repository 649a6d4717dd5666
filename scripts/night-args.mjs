// The options of `npm run test:night` (scripts/night.mjs), checked before anything runs: a value that is not what
// the option takes is refused with a message that says what it takes, never read as something else.

import { randomInt } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

/** CI's nights: as many events per night as a plain run (so `--seed N` replays CI's run), no time to shrink. */
export const DEFAULT_EVENTS = 40;

export const USAGE = `Usage: npm run test:night -- [options]
  --seed N            the run's seed (a whole number; default: a fresh one, printed first)
  --seeds A,B,…       several seeds, one night each
  --events N          events per night (default ${DEFAULT_EVENTS}); more nights are added where the floor needs them
  --replay FILE       play a saved night (reports/night/seed-S.json) again
  --ci                CI's run: no shrinking, at most 40 minutes
  --minutes M         end the run after M minutes (no event starts after it)
  --shrink-minutes M  shrink a failing night for at most M minutes (default 3)`;

const CI = { shrink: '0', minutes: '40' };
const MAX_SEED = 2 ** 32 - 1;

export class NightArgsError extends Error {}

function wholeNumber(option, text, min, max) {
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new NightArgsError(`--${option} takes a whole number from ${min} to ${max}, not "${text}"`);
  }
  return Number(text);
}

function minutes(option, text) {
  if (!/^\d+(\.\d+)?$/.test(text)) throw new NightArgsError(`--${option} takes a number of minutes, not "${text}"`);
  return text;
}

function replayFile(file) {
  if (!existsSync(file)) throw new NightArgsError(`--replay: no file "${file}"`);
  let night;
  try {
    night = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new NightArgsError(`--replay: "${file}" is not a saved night (${error.message})`);
  }
  if (!Array.isArray(night?.events)) throw new NightArgsError(`--replay: "${file}" holds no events`);
  return night;
}

/**
 * The run's environment for e2e/night/night.spec.ts from the command line's `argv`, and its seeds; throws
 * NightArgsError on anything it does not take (an unknown option, a stray argument, a value out of range).
 */
export function nightEnv(argv, fresh = () => randomInt(1, 1_000_000)) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        seed: { type: 'string' },
        seeds: { type: 'string' },
        events: { type: 'string' },
        replay: { type: 'string' },
        ci: { type: 'boolean', default: false },
        'shrink-minutes': { type: 'string' },
        minutes: { type: 'string' },
      },
    }));
  } catch (error) {
    throw new NightArgsError(error.message);
  }
  if (values.seed !== undefined && values.seeds !== undefined) {
    throw new NightArgsError('--seed and --seeds: give one of them');
  }
  const replay = values.replay === undefined ? undefined : replayFile(values.replay);
  const given = values.seeds?.split(',') ?? (values.seed === undefined ? undefined : [values.seed]);
  const seeds =
    given?.map((seed) => wholeNumber(values.seeds === undefined ? 'seed' : 'seeds', seed, 0, MAX_SEED)) ??
    (replay && Number.isInteger(replay.seed) ? [replay.seed] : [fresh()]);
  const events = values.events === undefined ? DEFAULT_EVENTS : wholeNumber('events', values.events, 1, 100_000);
  const shrink = values['shrink-minutes'] ?? (values.ci ? CI.shrink : '3');
  const wall = values.minutes ?? (values.ci ? CI.minutes : '0');
  return {
    seeds,
    fresh: given === undefined && !replay,
    env: {
      NIGHT_SEEDS: seeds.join(','),
      NIGHT_EVENTS: String(events),
      NIGHT_SHRINK_MINUTES: minutes('shrink-minutes', shrink),
      NIGHT_MINUTES: minutes('minutes', wall),
      ...(values.replay ? { NIGHT_REPLAY: values.replay } : {}),
    },
    replayCommand:
      `npm run test:night -- --seed${given && given.length > 1 ? 's' : ''} ${seeds.join(',')}` +
      (values.events === undefined ? '' : ` --events ${events}`) +
      (values.replay ? ` --replay ${values.replay}` : ''),
  };
}
