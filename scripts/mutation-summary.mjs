// After `stryker run` (npm run test:mutation): the score, and every surviving mutant no test noticed, by file, with
// the ones stryker.config.mjs justifies as equivalent (they change nothing observable) counted apart. A justification
// names the file, the mutator, a piece of the source line where the mutant starts, and the replacement if need be.
import { readFileSync } from 'node:fs';
import { equivalentMutants } from '../stryker.config.mjs';

const report = JSON.parse(readFileSync('reports/mutation/mutation.json', 'utf8'));
const LIVE = new Set(['Survived', 'NoCoverage']);
const DETECTED = new Set(['Killed', 'Timeout']);

/** The source text a mutant replaced. */
function original(source, { start, end }) {
  const lines = source.split('\n');
  if (start.line === end.line) return lines[start.line - 1].slice(start.column - 1, end.column - 1);
  const first = lines[start.line - 1].slice(start.column - 1);
  const middle = lines.slice(start.line, end.line - 1);
  const last = lines[end.line - 1].slice(0, end.column - 1);
  return [first, ...middle, last].join('\n');
}

/** The config's justification of a survivor: same file and mutator, `code` in the source line where it starts. */
const justification = (file, mutant, line) =>
  equivalentMutants.find(
    (e) =>
      e.file === file &&
      e.mutator === mutant.mutatorName &&
      line.includes(e.code) &&
      (e.replacement === undefined || e.replacement === mutant.replacement),
  );

let detected = 0;
let valid = 0;
let ignored = 0;
const survivors = [];
const justified = [];
/**
 * Static survivors (in a module-level expression, run once when the module loads): the vitest runner keeps modules
 * loaded between mutants, so such a mutant may never have been active. Their "survived" cannot be trusted either
 * way: listed apart, left out of the score.
 */
const untrusted = [];
const used = new Set();
for (const [file, { source, mutants }] of Object.entries(report.files)) {
  for (const mutant of mutants) {
    if (mutant.status === 'Ignored') ignored++;
    if (DETECTED.has(mutant.status)) detected++;
    if (!DETECTED.has(mutant.status) && !LIVE.has(mutant.status)) continue;
    const code = original(source, mutant.location);
    if (mutant.static && LIVE.has(mutant.status)) {
      untrusted.push(`${file}:${mutant.location.start.line}:${mutant.location.start.column} ${mutant.mutatorName}`);
      continue;
    }
    valid++;
    if (!LIVE.has(mutant.status)) continue;
    const why = justification(file, mutant, source.split('\n')[mutant.location.start.line - 1]);
    const where = `${file}:${mutant.location.start.line}:${mutant.location.start.column}`;
    const replaced = JSON.stringify(mutant.replacement?.slice(0, 60));
    const what = `${mutant.mutatorName}: ${JSON.stringify(code.slice(0, 60))} -> ${replaced}`;
    if (why) {
      used.add(why);
      justified.push(`${where} ${what}\n    equivalent: ${why.why}`);
    } else survivors.push(`${where} ${mutant.status === 'NoCoverage' ? '(no test runs it) ' : ''}${what}`);
  }
}

const pct = (n, d) => (d ? ((100 * n) / d).toFixed(2) : '–');
console.log(
  `\nMutants tested: ${valid} (${ignored} static ones not tested: stryker.config.mjs, ignoreStatic; ` +
    `${untrusted.length} static survivors left out, listed at the end)`,
);
console.log(`Mutation score: ${pct(detected, valid)} % (${detected} killed or timed out)`);
console.log(
  `Without the ${justified.length} justified equivalent mutants: ${pct(detected, valid - justified.length)} %`,
);
console.log(`\nSurviving mutants (${survivors.length}):`);
for (const line of survivors) console.log(`  ${line}`);
console.log(`\nEquivalent, justified in stryker.config.mjs (${justified.length}):`);
for (const line of justified) console.log(`  ${line}`);
const stale = equivalentMutants.filter((e) => !used.has(e));
if (stale.length) {
  console.log(`\nJustifications that matched no survivor (remove them, or the code moved):`);
  for (const e of stale) console.log(`  ${e.file}: ${e.mutator} ${JSON.stringify(e.code)}`);
}
console.log(`\nStatic survivors, not counted (the module may never have run with the mutant: check by hand):`);
for (const line of untrusted) console.log(`  ${line}`);
