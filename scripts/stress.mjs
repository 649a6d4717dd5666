// `npm run test:stress` (not part of `npm test` or CI): builds once, then runs the e2e suite 3 times in a row with 2
// workers while a CPU hog (one busy-looping node child per core) runs beside it. Tests that pass by timing fail here
// before users meet the race. Extra arguments go to `playwright test` (e.g. a spec file). STRESS_RUNS sets the count.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const runs = Number(process.env.STRESS_RUNS ?? 3);
const extra = process.argv.slice(2);

/** Runs a command with inherited output; resolves to its exit code. */
function run(command, args, env = process.env) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', env });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const hogs = [];
const stopHogs = () => {
  for (const hog of hogs.splice(0)) hog.kill('SIGKILL');
};
process.on('exit', stopHogs);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopHogs();
    process.exit(130);
  });
}

if ((await run('npm', ['run', 'build'])) !== 0) process.exit(1);

const cores = availableParallelism();
for (let i = 0; i < cores; i++) hogs.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
console.log(`\nstress: ${runs} runs of the e2e suite, 2 workers, ${cores} busy-looping processes beside them\n`);

const results = [];
for (let i = 1; i <= runs; i++) {
  const started = Date.now();
  const code = await run('npx', ['playwright', 'test', '--workers=2', ...extra], { ...process.env, CI: '1' });
  results.push({ run: i, ok: code === 0, seconds: Math.round((Date.now() - started) / 1000) });
  console.log(`\nstress: run ${i} of ${runs} ${code === 0 ? 'passed' : 'FAILED'}\n`);
}
stopHogs();

for (const r of results) console.log(`stress: run ${r.run}: ${r.ok ? 'passed' : 'FAILED'} in ${r.seconds} s`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
