// Part of `npm run lint`: no line of the project's own code is longer than 120 characters (Biome's formatter wraps
// code at 120 but leaves long strings, regular expressions and comments as they are).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, workTreeFiles } from './work-tree.mjs';

const MAX = 120;
const CODE = /\.(ts|tsx|js|mjs|css|html)$/;
const EXEMPT = /^(test\/fixtures\/|public\/_locales\/)/;

const files = workTreeFiles().filter((file) => CODE.test(file) && !EXEMPT.test(file));
const long = [];
for (const file of files) {
  readFileSync(path.join(ROOT, file), 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if ([...line].length > MAX) long.push(`${file}:${i + 1}: ${[...line].length} characters`);
    });
}
if (long.length > 0) {
  console.error(`Lines longer than ${MAX} characters:\n${long.join('\n')}`);
  process.exit(1);
}
