// Copies a newer version of the shared reference material into test/fixtures (see test/fixtures/README.md).
// Usage: npm run fixtures:refresh -- <path of the shared reference folder>

import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';

const from = process.argv[2];
if (!from) {
  console.error('Usage: npm run fixtures:refresh -- <path of the folder holding colab-dom/ and oom-corpus/>');
  process.exit(2);
}
const fixtures = resolve(import.meta.dirname, '../test/fixtures');
const items = ['colab-dom/REFERENCE.md', 'colab-dom/snippets', 'oom-corpus/corpus.jsonl', 'oom-corpus/README.md'];
const missing = items.filter((item) => !existsSync(resolve(from, item)));
if (missing.length > 0) {
  console.error(`Not a reference folder: ${resolve(from)} lacks ${missing.join(', ')}`);
  process.exit(2);
}
for (const item of items) {
  const target = resolve(fixtures, item);
  rmSync(target, { recursive: true, force: true });
  cpSync(resolve(from, item), target, { recursive: true });
}
console.log(execFileSync('git', ['diff', '--stat', '--', fixtures], { encoding: 'utf8' }) || 'No change.');
