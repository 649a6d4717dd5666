import type { CompiledPattern, PatternParts } from './patterns';
import { clip, findRecentLine } from './text';
import type { MarkerMatch } from './types';

// User patterns matched line by line, newest line first. Kept apart from the built-in rules so that the output-frame
// script, which only looks for the user's marker lines, does not carry the rule table.

/** Patterns the service worker validated (`patternParts`), compiled again where they are used. */
export function compileParts(parts: readonly PatternParts[]): CompiledPattern[] {
  return parts.flatMap(({ source, body, flags }) => {
    try {
      return [{ source, re: new RegExp(body, flags) }];
    } catch {
      return [];
    }
  });
}

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
