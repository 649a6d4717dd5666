#!/usr/bin/env node
// Part of `npm run lint`: no product file of src/ (tests are left out) is longer than MAX_LINES, so a room stays one
// a reader takes in whole (the restart policy was split into rooms for it: DEVELOPERS.md, Layout). A file in
// EXCEPTIONS is today's exception, reported as a known exception (lint stays green) and failing once it fits, so the
// table never lists a file that no longer needs it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT, workTreeFiles } from './work-tree.mjs';

export const MAX_LINES = 400;

/** Files allowed over MAX_LINES until they are split, with why they are not yet. */
export const EXCEPTIONS = {
  'src/state/schema.ts': 'the stored shapes, the settings and their bounds: not split yet',
  'src/popup/Popup.tsx': 'the popup as one component: not split yet',
};

/** A test, or no product file of src/. */
function isTest(file) {
  return /\.test\.[cm]?[jt]sx?$/.test(file) || !file.startsWith('src/');
}

/** Lines as an editor numbers them: a last line's newline does not start another one. */
export function lineCount(text) {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/**
 * `files`: path → text. Returns the problems (a file over the limit, an exception that fits or is gone) and the known
 * exceptions in use.
 */
export function checkSizes(files, exceptions = EXCEPTIONS, max = MAX_LINES) {
  const problems = [];
  const known = [];
  for (const [file, text] of Object.entries(files)) {
    if (isTest(file)) continue;
    const lines = lineCount(text);
    if (lines <= max) continue;
    if (file in exceptions) known.push({ file, lines, why: exceptions[file] });
    else problems.push(`${file}: ${lines} lines, more than ${max}: split it along its own sections`);
  }
  for (const file of Object.keys(exceptions)) {
    if (!(file in files)) problems.push(`${file} is an exception but no such file: remove it from EXCEPTIONS`);
    else if (lineCount(files[file]) <= max) {
      problems.push(`${file} is an exception but fits in ${max} lines: remove it from EXCEPTIONS`);
    }
  }
  return { problems, known };
}

/** The repository's product files of src/, path → text. */
export function repositoryFiles() {
  const files = workTreeFiles('src').filter((file) => !isTest(file));
  return Object.fromEntries(files.map((file) => [file, readFileSync(path.join(ROOT, file), 'utf8')]));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { problems, known } = checkSizes(repositoryFiles());
  for (const { file, lines, why } of known) console.log(`known exception: ${file}, ${lines} lines: ${why}`);
  if (problems.length > 0) {
    console.error(`File sizes:\n${problems.join('\n')}`);
    process.exit(1);
  }
}
