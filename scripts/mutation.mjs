#!/usr/bin/env node
// `npm run test:mutation [-- --folder F | --changed [--base REF]]`: Stryker over all product code (src/ but tests and
// declarations), one run per folder of src/ (found, not listed: a new folder is mutated too), each incremental (its
// reports/mutation/<folder>/stryker-incremental.json keeps its results: only mutants whose code or tests changed are
// tested again) and finished on its own, so a long run keeps what it has done. Then the summary by folder:
// stryker/summary.md is rewritten, and the run fails when a folder's score is under its threshold
// (stryker/thresholds.mjs) or a justification pins no survivor. `--folder F` runs only src/F (the summary then says
// that folder alone). `--changed` mutates only the product files the change touched since REF (default: main),
// uncommitted ones included, and the modules whose tests it touched; it keeps its own results
// (reports/mutation-changed/) and leaves stryker/summary.md alone. `--force` reuses no earlier result. After each run,
// the static survivors are tested again by hand (mutation-static.mjs).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import thresholds from '../stryker/thresholds.mjs';
import { recheckStatic } from './mutation-static.mjs';
import { belowThreshold, loadJustifications, markdown, readReport, summarize } from './mutation-summary.mjs';

/** Stops with `message` and the options this takes. */
function refuse(message) {
  console.error(
    `test:mutation: ${message}\n` +
      'Options: --folder F (one folder of src/), --changed [--base REF], --force (no result reused)',
  );
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      changed: { type: 'boolean', default: false },
      base: { type: 'string', default: 'main' },
      folder: { type: 'string' },
      force: { type: 'boolean', default: false },
    },
  }));
} catch (error) {
  refuse(error.message);
}

const git = (...args) => execFileSync('git', args, { encoding: 'utf8' }).split('\n').filter(Boolean);
const PRODUCT = (glob) => [`${glob}.{ts,tsx}`, `!${glob}.test.{ts,tsx}`, `!${glob}.d.ts`];

/** The product files (src/, not tests or declarations) a change touched, and those whose tests it touched. */
function touchedProductFiles(base) {
  const touched = new Set([
    ...git('diff', '--name-only', '--diff-filter=d', `${base}...HEAD`),
    ...git('diff', '--name-only', '--diff-filter=d', 'HEAD'),
    ...git('ls-files', '--others', '--exclude-standard'),
  ]);
  const files = new Set();
  for (const file of touched) {
    if (!/^src\/.*\.tsx?$/.test(file) || file.endsWith('.d.ts')) continue;
    const product = file.replace(/\.test(\.tsx?)$/, '$1');
    if (existsSync(product)) files.add(product);
  }
  return [...files].sort();
}

/** One Stryker run per folder of src/ (the files at its top as `src`): `{ name, mutate, reports }`. */
function folderRuns() {
  const folders = readdirSync('src').filter((name) => statSync(`src/${name}`).isDirectory());
  const runs = folders.map((name) => ({ name, mutate: PRODUCT(`src/${name}/**/*`) }));
  return [{ name: 'src', mutate: PRODUCT('src/*') }, ...runs].map((run) => ({
    ...run,
    reports: `reports/mutation/${run.name}`,
  }));
}

function stryker(run) {
  const env = { ...process.env, MUTATION_REPORTS: run.reports, MUTATION_MUTATE: JSON.stringify(run.mutate) };
  return new Promise((resolve) => {
    const args = ['stryker', 'run', ...(values.force ? ['--force'] : [])];
    const child = spawn('npx', args, { env, stdio: 'inherit' });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

function plan() {
  if (!values.changed) {
    const all = folderRuns();
    if (values.folder === undefined) return all;
    const one = all.filter((run) => run.name === values.folder);
    if (!one.length) refuse(`--folder: no folder src/${values.folder}`);
    return one;
  }
  const files = touchedProductFiles(values.base);
  if (!files.length) return [];
  console.log(`Mutating the ${files.length} product file(s) touched since ${values.base}:\n  ${files.join('\n  ')}`);
  return [{ name: 'changed', mutate: files, reports: 'reports/mutation-changed' }];
}

const runs = plan();
if (!runs.length) {
  console.log(`No product file touched since ${values.base}: nothing to mutate.`);
  process.exit(0);
}
const started = Date.now();
const load = [loadavg()[0]];
const sampler = setInterval(() => load.push(loadavg()[0]), 10_000);
/** Folders whose run failed: the others still run, and the run fails at the end. */
const broken = [];
for (const run of runs) {
  console.log(`\n== Mutation testing: ${run.name} (${run.mutate.join(', ')})`);
  const code = await stryker(run);
  if (code !== 0) broken.push(`${run.name} (exit code ${code})`);
  const file = `${run.reports}/mutation.json`;
  if (!existsSync(file)) continue;
  const { tested, killed } = recheckStatic(file);
  if (tested) console.log(`static re-check (${run.name}): ${killed} of ${tested} static survivors killed by hand`);
}
clearInterval(sampler);
const minutes = (Date.now() - started) / 60_000;

/** The runs' reports as one (each holds its own files). */
const report = { files: {} };
for (const run of runs) {
  const file = `${run.reports}/mutation.json`;
  if (existsSync(file)) Object.assign(report.files, readReport(file).files);
}
const summary = summarize(report, await loadJustifications());
const whole = !values.changed && values.folder === undefined;
const header = [
  '# Mutation testing: the last full run',
  '',
  `Written by \`npm run test:mutation\` (scripts/mutation.mjs) at ${git('rev-parse', '--short', 'HEAD')[0]}` +
    `${git('status', '--porcelain', '--', 'src').length ? ' with uncommitted changes in src/' : ''}, ` +
    `${new Date().toISOString().slice(0, 10)}: ${minutes.toFixed(1)} minutes on ${cpus().length} cores, ` +
    `load average ${Math.min(...load).toFixed(1)}-${Math.max(...load).toFixed(1)}.`,
  'docs/testing.md says how to read it.',
  '',
];
const text = markdown(summary, thresholds, header);
console.log(`\n${text}`);
if (whole) writeFileSync('stryker/summary.md', text);

let failed = broken.length > 0;
if (failed) console.error(`stryker run failed for ${broken.join(', ')}: their figures are missing or old`);
for (const { folder, score, threshold } of belowThreshold(summary.folders, thresholds)) {
  console.error(`${folder}: mutation score ${score.toFixed(2)} % is under its threshold, ${threshold} %`);
  failed = true;
}
for (const { entry, lines } of summary.hints) {
  const moved = lines.length ? ` (a survivor like it at line ${lines.join(', ')}: moved?)` : '';
  console.error(`A justification pins no survivor: ${entry.file}:${entry.line} ${entry.mutator}${moved}`);
  failed = true;
}
for (const entry of summary.ambiguous) {
  console.error(
    `A justification pins several survivors (give its column): ${entry.file}:${entry.line} ${entry.mutator}`,
  );
  failed = true;
}
process.exit(failed ? 1 : 0);
