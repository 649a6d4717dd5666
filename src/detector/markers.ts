import { clip, findRecentLine } from './text';
import type { MarkerMatch } from './types';

// User patterns matched line by line, newest line first. Kept apart from the built-in rules and from the engine that
// compiles the patterns (patterns.ts), which only contexts with patterns load.

/** A user pattern the engine compiled: `test` takes time linear in the line. */
export interface CompiledPattern {
  /** As the user wrote it. */
  source: string;
  test(line: string): boolean;
}

/** What patterns.ts provides; `loadDetector` imports it only when there are patterns. */
export interface PatternEngine {
  compilePatterns(sources: readonly string[]): CompiledPattern[];
}

/** The newest line that one of `patterns` matches, with that pattern's source. */
export function findMarkerLine(text: string, patterns: readonly CompiledPattern[]): MarkerMatch | null {
  if (patterns.length === 0) return null;
  let pattern = '';
  const line = findRecentLine(text, (candidate) => {
    pattern = patterns.find((p) => p.test(candidate))?.source ?? '';
    return pattern !== '';
  });
  return line === null ? null : { pattern, line: clip(line) };
}
