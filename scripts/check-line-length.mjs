// Part of `npm run lint`: no line of the project's own code is longer than 120 characters (Biome's formatter wraps
// code at 120 but leaves long strings, regular expressions and comments as they are).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const MAX = 120;
const CODE = /\.(ts|tsx|js|mjs|css|html)$/;
const EXEMPT = /^(test\/fixtures\/|public\/_locales\/)/;

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' })
  .split('\n')
  .filter((file) => CODE.test(file) && !EXEMPT.test(file));
const long = [];
for (const file of files) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    continue; // deleted in the work tree
  }
  text.split('\n').forEach((line, i) => {
    if ([...line].length > MAX) long.push(`${file}:${i + 1}: ${[...line].length} characters`);
  });
}
if (long.length > 0) {
  console.error(`Lines longer than ${MAX} characters:\n${long.join('\n')}`);
  process.exit(1);
}
