import { classifyBuiltIn, classifyCustom, classifyNoticeText } from './classify';
import { findMarkerLine, type PatternEngine } from './markers';
import { classifyShellEnd } from './shell-tail';
import type { Category, Detector, DetectorConfig, Verdict } from './types';

export { MAX_TEXT_CHARS, MAX_USER_LINE_CHARS, MAX_USER_LINES } from '../limits';
export { endsInInterrupt } from './classify';
export { LAUNCH_HINT, launchesProgram } from './launchers';
export type { PatternEngine } from './markers';
export type { Refusal } from './patterns';
export { NOTICE_RULES, RULES } from './rules';
export type { Category, Detector, DetectorConfig, MarkerMatch, ShellEnd, Verdict } from './types';
export { CATEGORIES, DEFAULT_CATEGORIES } from './types';

/**
 * Compiles everything once. The user's patterns run only with `engine` (patterns.ts), which callers load where there
 * are patterns (`loadDetector`); invalid ones are skipped. Built-in rules decide first; the user's failure patterns are
 * consulted only when no built-in rule matched.
 */
export function createDetector(config: DetectorConfig, engine: PatternEngine | null = null): Detector {
  const enabled = (category: Category): boolean => config.categories[category];
  const failures = engine?.compilePatterns(config.failurePatterns) ?? [];
  const markers = engine?.compilePatterns(config.markerPatterns) ?? [];
  return {
    classifyError: (text) => classifyBuiltIn(text, enabled) ?? classifyCustom(text, failures),
    classifyNotice: (text) => classifyNoticeText(text, enabled),
    findMarker: (text) => findMarkerLine(text, markers),
    classifyShellEnd: (end) => classifyShellEnd(end, enabled),
    hasMarkers: markers.length > 0,
  };
}

/** `createDetector` with the pattern engine, a chunk of its own (~150 kB) imported only when there are patterns. */
export async function loadDetector(config: DetectorConfig): Promise<Detector> {
  if (config.failurePatterns.length + config.markerPatterns.length === 0) return createDetector(config);
  return createDetector(config, await import('./engine'));
}

/** The options page's "Test an output" box: the text may be a failed cell's error output or a Colab notice. */
export function testOutput(text: string, config: DetectorConfig, engine: PatternEngine | null = null): Verdict | null {
  const detector = createDetector(config, engine);
  return detector.classifyError(text) ?? detector.classifyNotice(text);
}
