#!/usr/bin/env node
// `npm run test:night [-- options]` (scripts/night-args.mjs lists them): plays seeded randomized nights against the
// simulator with the built extension (run `npm run build` first; the npm script does). The run's seed is printed
// first (a fresh one unless given), with the command that plays the same nights again. A failure is shrunk and saved,
// and the rest of its night goes on with the next seed in a fresh browser. Results: reports/night/.
import { spawnSync } from 'node:child_process';
import { NightArgsError, nightEnv, USAGE } from './night-args.mjs';

let run;
try {
  run = nightEnv(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof NightArgsError)) throw error;
  console.error(`test:night: ${error.message}\n\n${USAGE}`);
  process.exit(2);
}
console.log(
  `Night run, seed${run.seeds.length > 1 ? 's' : ''} ${run.seeds.join(',')}${run.fresh ? ' (fresh)' : ''}: ` +
    `replay with \`${run.replayCommand}\``,
);
const result = spawnSync('npx', ['playwright', 'test', '-c', 'e2e/night/playwright.config.ts'], {
  env: { ...process.env, ...run.env },
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
