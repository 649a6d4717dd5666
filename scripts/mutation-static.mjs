// Static mutants (module-level code: the OOM rule table, the selector registry, the language tables) are tested again
// by hand after each Stryker run, because Stryker's vitest runner cannot be trusted with their survival: it may
// activate one after its module was loaded in the worker (stryker-js#6144, #6209: reported Survived though a test
// kills it), and an incremental run never tests a static survivor again, whatever its tests became (Stryker's docs,
// "Incremental: limitations"). Each static survivor is written into a copy of the repository and its module's
// related tests run in a fresh vitest; one failing test kills it. Only survivors are re-tested: a killed mutant was
// killed by a test that failed.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT, workTreeFiles } from './work-tree.mjs';

/** `source` with the text at `location` (Stryker's: lines and columns from 1, end exclusive) replaced. */
export function applyMutant(source, { start, end }, replacement) {
  const lines = source.split('\n');
  const offset = (line, column) =>
    lines.slice(0, line - 1).reduce((sum, text) => sum + text.length + 1, 0) + column - 1;
  return source.slice(0, offset(start.line, start.column)) + replacement + source.slice(offset(end.line, end.column));
}

/** What the summary counts as alive (mutation-summary.mjs): survived, or run by no test. */
const LIVE = new Set(['Survived', 'NoCoverage']);

/** The static mutants a Stryker report says are alive: `{ file, mutant }`. */
export function staticSurvivors(report) {
  return Object.entries(report.files).flatMap(([file, { mutants }]) =>
    mutants.filter((m) => m.static && LIVE.has(m.status)).map((mutant) => ({ file, mutant })),
  );
}

/** A copy of the working tree (tracked and untracked files, not ignored ones), sharing node_modules. */
function copyOfRepository() {
  const root = mkdtempSync(join(tmpdir(), 'oom-guard-static-'));
  for (const file of workTreeFiles()) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(root, file));
  }
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
  return root;
}

/** Whether the related tests of `file` fail in `root` (a fresh vitest, bailing at the first failure). */
function relatedTestsFail(root, file) {
  const run = spawnSync('npx', ['vitest', 'related', file, '--run', '--bail=1', '--reporter=dot'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, CI: '1' },
  });
  return run.status !== 0;
}

/**
 * Tests each static survivor of `reportFile` again by hand and marks those a test kills as Killed (killedBy
 * `static re-check`) in the report, which the summary then reads. Returns how many were tested and killed.
 */
export function recheckStatic(reportFile, log = console.log) {
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  const survivors = staticSurvivors(report);
  if (!survivors.length) return { tested: 0, killed: 0 };
  const root = copyOfRepository();
  let killed = 0;
  try {
    for (const { file, mutant } of survivors) {
      const path = join(root, file);
      const original = readFileSync(path, 'utf8');
      writeFileSync(path, applyMutant(original, mutant.location, mutant.replacement));
      try {
        if (!relatedTestsFail(root, file)) continue;
        mutant.status = 'Killed';
        mutant.killedBy = ['static re-check'];
        killed++;
        log(`static re-check: killed ${file}:${mutant.location.start.line} ${mutant.mutatorName}`);
      } finally {
        writeFileSync(path, original);
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  writeFileSync(reportFile, JSON.stringify(report));
  return { tested: survivors.length, killed };
}
