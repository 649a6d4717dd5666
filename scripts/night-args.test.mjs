import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NightArgsError, nightEnv } from './night-args.mjs';

const fresh = () => 4242;

describe("the night's options", () => {
  it('plays a fresh seed by default, 40 events a night, and says how to play it again', () => {
    const run = nightEnv([], fresh);
    expect(run.seeds).toEqual([4242]);
    expect(run.fresh).toBe(true);
    expect(run.env).toMatchObject({ NIGHT_SEEDS: '4242', NIGHT_EVENTS: '40', NIGHT_MINUTES: '0' });
    expect(run.replayCommand).toBe('npm run test:night -- --seed 4242');
  });

  it("replays a seed given, with CI's run the same nights as a plain run of that seed", () => {
    const ci = nightEnv(['--ci', '--seed', '17'], fresh);
    expect(ci.fresh).toBe(false);
    expect(ci.env).toMatchObject({ NIGHT_SEEDS: '17', NIGHT_EVENTS: '40', NIGHT_SHRINK_MINUTES: '0' });
    expect(ci.env.NIGHT_MINUTES).toBe('40');
    expect(nightEnv(['--seed', '17'], fresh).env).toMatchObject({ NIGHT_SEEDS: '17', NIGHT_EVENTS: '40' });
    expect(nightEnv(['--seeds', '3,4', '--events', '1000'], fresh).replayCommand).toBe(
      'npm run test:night -- --seeds 3,4 --events 1000',
    );
  });

  it.each([
    [['--events', 'abc'], '--events takes a whole number from 1 to 100000, not "abc"'],
    [['--events', '0'], '--events takes a whole number from 1 to 100000, not "0"'],
    [['--events=-3'], '--events takes a whole number'],
    [['--events', '-3'], "Option '--events' argument is ambiguous"],
    [['--events', '2.5'], '--events takes a whole number'],
    [['--seed', 'abc'], '--seed takes a whole number from 0 to 4294967295, not "abc"'],
    [['--seed', ''], '--seed takes a whole number'],
    [['--seed', '4294967296'], '--seed takes a whole number'],
    [['--seeds', '1,x'], '--seeds takes a whole number from 0 to 4294967295, not "x"'],
    [['--seed', '1', '--seeds', '2'], '--seed and --seeds: give one of them'],
    [['--minutes', 'soon'], '--minutes takes a number of minutes, not "soon"'],
    [['--shrink-minutes=-1'], '--shrink-minutes takes a number of minutes'],
    [['--short'], "Unknown option '--short'"],
    [['--sed', '1'], "Unknown option '--sed'"],
    [['42'], "Unexpected argument '42'"],
    [['--replay', '/nonexistent/night.json'], '--replay: no file "/nonexistent/night.json"'],
  ])('refuses %j with a message that says what it takes', (argv, message) => {
    expect(() => nightEnv(argv, fresh)).toThrow(NightArgsError);
    expect(() => nightEnv(argv, fresh)).toThrow(message);
  });

  it('replays a saved night with its own seed, and refuses a file that is not one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'night-args-'));
    const saved = join(dir, 'seed-9.json');
    writeFileSync(saved, JSON.stringify({ seed: 9, events: [{ kind: 'reload' }] }));
    expect(nightEnv(['--replay', saved], fresh)).toMatchObject({ seeds: [9], fresh: false });
    expect(nightEnv(['--replay', saved], fresh).env.NIGHT_REPLAY).toBe(saved);
    const junk = join(dir, 'junk.json');
    writeFileSync(junk, '{"seed": 1}');
    expect(() => nightEnv(['--replay', junk], fresh)).toThrow(`--replay: "${junk}" holds no events`);
    writeFileSync(junk, 'not json');
    expect(() => nightEnv(['--replay', junk], fresh)).toThrow('is not a saved night');
  });
});
