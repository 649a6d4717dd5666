import type { CompiledPattern } from './patterns';
import { clip, findRecentLine } from './text';
import type { MarkerMatch } from './types';

/**
 * User patterns matched line by line, newest line first. Kept apart from the built-in rules so that the output-frame
 * script, which only looks for the user's marker lines, does not carry the rule table.
 */
/** The newest line that one of `patterns` matches, with that pattern's source. */
export function findMarkerLine(text: string, patterns: readonly CompiledPattern[]): MarkerMatch | null {
  if (patterns.length === 0) return null;
  let pattern = '';
  const line = findRecentLine(text, (candidate) => {
    pattern = patterns.find((p) => p.re.test(candidate))?.source ?? '';
    return pattern !== '';
  });
  return line === null ? null : { pattern, line: clip(line) };
}

