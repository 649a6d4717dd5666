#!/usr/bin/env node
// Prints the notes of a release: the section of CHANGELOG.md headed `## [<version>]` (Keep a Changelog's form, e.g.
// `## [0.2.0] - 2027-01-15`), without its heading. Fails when there is none, so that no version is released without
// its entry. Used by .github/workflows/release.yml: `node scripts/release-notes.mjs 0.2.0`.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The body of `version`'s section of `changelog`, trimmed; undefined when the changelog has no such section. */
export function releaseNotes(changelog, version) {
  const lines = changelog.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`## [${version}]`));
  if (start === -1) return undefined;
  const next = lines.findIndex((line, i) => i > start && line.startsWith('## '));
  const body = lines.slice(start + 1, next === -1 ? undefined : next);
  // Link references ([0.2.0]: https://…) at the end of the file belong to the whole changelog.
  return body
    .filter((line) => !/^\[[^\]]+\]: /.test(line))
    .join('\n')
    .trim();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const version = process.argv[2];
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const notes = version && releaseNotes(readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8'), version);
  if (!notes) {
    console.error(`CHANGELOG.md has no section "## [${version}]" with notes: add it before tagging v${version}.`);
    process.exit(1);
  }
  console.log(notes);
}
