#!/usr/bin/env node
// `npm run test:mutation [-- --changed [--base REF]]`: Stryker over all product code (src/ but tests), incremental
// (reports/stryker-incremental.json keeps the last results: only mutants whose code or tests changed are tested
// again), then the summary by folder: stryker/summary.md is rewritten, and the run fails when a folder's score is under
// its threshold (stryker/thresholds.mjs) or a justification pins no survivor. `--changed` mutates only the product
// files the change touched since REF (default: main), uncommitted ones included, and the modules whose tests it
// touched; it keeps its own results (reports/mutation-changed/) and leaves stryker/summary.md alone.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import thresholds from '../stryker/thresholds.mjs';
import { belowThreshold, loadJustifications, markdown, readReport, summarize } from './mutation-summary.mjs';

const { values } = parseArgs({
  options: { changed: { type: 'boolean', default: false }, base: { type: 'string', default: 'main' } },
});

const git = (...args) => execFileSync('git', args, { encoding: 'utf8' }).split('\n').filter(Boolean);

/** The product files (src/, not tests or declarations) a change touched, and those whose tests it touched. */
export function touchedProductFiles(base) {
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

function stryker(args, env) {
  return new Promise((resolve) => {
    const child = spawn('npx', ['stryker', 'run', ...args], { env: { ...process.env, ...env }, stdio: 'inherit' });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

const files = values.changed ? touchedProductFiles(values.base) : [];
if (values.changed && !files.length) {
  console.log(`No product file touched since ${values.base}: nothing to mutate.`);
  process.exit(0);
}
const reports = values.changed ? 'reports/mutation-changed' : 'reports/mutation';
if (values.changed)
  console.log(`Mutating the ${files.length} product file(s) touched since ${values.base}:\n  ${files.join('\n  ')}`);
const started = Date.now();
const load = [loadavg()[0]];
const sampler = setInterval(() => load.push(loadavg()[0]), 10_000);
const code = await stryker(values.changed ? ['--mutate', files.join(',')] : [], { MUTATION_REPORTS: reports });
clearInterval(sampler);
const minutes = (Date.now() - started) / 60_000;
if (code !== 0) {
  console.error(`stryker run failed (exit code ${code})`);
  process.exit(code);
}

const summary = summarize(readReport(`${reports}/mutation.json`), await loadJustifications());
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
if (!values.changed) writeFileSync('stryker/summary.md', text);

let failed = false;
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
