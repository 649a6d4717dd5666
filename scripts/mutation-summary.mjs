// After `stryker run` (scripts/mutation.mjs): the score by folder of src/, every surviving mutant, and the ones
// stryker/equivalent-*.mjs justifies (one line each on why nothing can observe them). A justification pins one mutant
// exactly: its file, line, mutator and replacement (and its column where one line has two such mutants). A folder
// whose score is under its threshold (stryker/thresholds.mjs) fails the run.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const DETECTED = new Set(['Killed', 'Timeout']);
const LIVE = new Set(['Survived', 'NoCoverage']);

/** Every justification in stryker/equivalent-*.mjs (one file per folder of src/, found by name). */
export async function loadJustifications(dir = 'stryker') {
  const files = readdirSync(dir).filter((name) => /^equivalent-.+\.mjs$/.test(name));
  const lists = await Promise.all(files.map((name) => import(pathToFileURL(join(dir, name)).href)));
  return lists.flatMap((module) => module.default);
}

/** The folder a file of src/ counts in: its first folder, or `src` for a file at the top. */
export function folderOf(file) {
  const parts = file.split('/');
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0];
}

/** The source text a mutant replaced. */
function original(source, { start, end }) {
  const lines = source.split('\n');
  if (start.line === end.line) return lines[start.line - 1].slice(start.column - 1, end.column - 1);
  const first = lines[start.line - 1].slice(start.column - 1);
  const middle = lines.slice(start.line, end.line - 1);
  const last = lines[end.line - 1].slice(0, end.column - 1);
  return [first, ...middle, last].join('\n');
}

/** Whether justification `entry` names this mutant: same file, line, mutator and replacement, and column if given. */
export function pins(entry, file, mutant) {
  const { line, column } = mutant.location.start;
  return (
    entry.file === file &&
    entry.line === line &&
    entry.mutator === mutant.mutatorName &&
    entry.replacement === mutant.replacement &&
    (entry.column === undefined || entry.column === column)
  );
}

/**
 * The run's figures by folder, its survivors and justified mutants, and the justifications that pin no live mutant
 * (or several) among the files the run mutated.
 */
export function summarize(report, justifications) {
  const folders = new Map();
  const survivors = [];
  const justified = [];
  const matched = new Map(justifications.map((entry) => [entry, 0]));
  for (const [file, { source, mutants }] of Object.entries(report.files)) {
    const folder = folders.get(folderOf(file)) ?? { files: 0, killed: 0, survived: 0, justified: 0, static: 0 };
    folders.set(folderOf(file), folder);
    folder.files++;
    for (const mutant of mutants) {
      if (!DETECTED.has(mutant.status) && !LIVE.has(mutant.status)) continue;
      if (mutant.static) folder.static++;
      if (DETECTED.has(mutant.status)) {
        folder.killed++;
        continue;
      }
      const { line, column } = mutant.location.start;
      const code = JSON.stringify(original(source, mutant.location).slice(0, 60));
      const what = `${file}:${line}:${column} ${mutant.mutatorName}: ${code} -> ${JSON.stringify(mutant.replacement)}`;
      const entry = justifications.find((e) => pins(e, file, mutant));
      if (entry) {
        matched.set(entry, matched.get(entry) + 1);
        folder.justified++;
        justified.push({ what, why: entry.why });
      } else {
        folder.survived++;
        survivors.push({ file, mutant, what: mutant.status === 'NoCoverage' ? `${what} (no test runs it)` : what });
      }
    }
  }
  const mutated = new Set(Object.keys(report.files));
  const unmatched = justifications.filter((e) => mutated.has(e.file) && matched.get(e) === 0);
  const ambiguous = justifications.filter((e) => matched.get(e) > 1);
  return { folders, survivors, justified, unmatched, ambiguous, hints: hints(unmatched, survivors) };
}

/** For a justification that pins nothing: the lines of survivors like it (file, mutator, replacement): moved there? */
function hints(unmatched, survivors) {
  return unmatched.map((entry) => ({
    entry,
    lines: survivors
      .filter((s) => s.file === entry.file && s.mutant.mutatorName === entry.mutator)
      .filter((s) => s.mutant.replacement === entry.replacement)
      .map((s) => s.mutant.location.start.line),
  }));
}

/** Score of a folder: killed (or timed out) over killed, survived and justified. */
export function score({ killed, survived, justified }) {
  const all = killed + survived + justified;
  return all ? (100 * killed) / all : 100;
}

/** The folders under their threshold: `{ folder, score, threshold }`. */
export function belowThreshold(folders, thresholds) {
  return [...folders]
    .map(([folder, figures]) => ({
      folder,
      score: score(figures),
      threshold: thresholds.folders[folder] ?? thresholds.default,
    }))
    .filter(({ score, threshold }) => score < threshold);
}

const pct = (n) => `${n.toFixed(2)} %`;

/** The summary as Markdown: a table by folder, then every survivor, then every justified mutant with why. */
export function markdown({ folders, survivors, justified, unmatched, ambiguous }, thresholds, header = []) {
  const rows = [...folders].sort(([a], [b]) => a.localeCompare(b));
  const total = { files: 0, killed: 0, survived: 0, justified: 0, static: 0 };
  for (const [, f] of rows) for (const k of Object.keys(total)) total[k] += f[k];
  const line = (name, f, threshold) =>
    `| ${name} | ${f.files} | ${f.killed + f.survived + f.justified} | ${f.static} | ${f.killed} | ${f.survived} | ` +
    `${f.justified} | ${pct(score(f))} | ${threshold} |`;
  const out = [
    ...header,
    '| Folder | Files | Mutants | Static | Killed | Survived | Justified | Score | Threshold |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(([name, f]) => line(`\`${name}\``, f, `${thresholds.folders[name] ?? thresholds.default} %`)),
    line('**All**', total, ''),
    '',
    'Score: killed (or timed out) over killed, survived and justified. Static: of the mutants, those in module-level',
    'code (tables, constants), tested like the others.',
    '',
    `## Survivors (${survivors.length})`,
    '',
    ...(survivors.length ? ['```text', ...survivors.map((s) => s.what), '```'] : ['None.']),
    '',
    `## Justified (${justified.length}): nothing can observe them`,
    '',
    ...(justified.length ? justified.flatMap((j) => [`- \`${j.what}\``, `  ${j.why}`]) : ['None.']),
  ];
  if (unmatched.length || ambiguous.length) {
    out.push('', '## Justifications that pin no survivor, or several', '');
    for (const e of [...unmatched, ...ambiguous]) out.push(`- ${e.file}:${e.line} ${e.mutator} ${e.replacement}`);
  }
  return `${out.join('\n')}\n`;
}

/** The run's report (reports/…/mutation.json). */
export function readReport(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}
