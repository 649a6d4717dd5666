import { classifyBuiltIn, classifyCustom, classifyNoticeText } from './classify';
import { findMarkerLine } from './markers';
import { compilePatterns } from './patterns';
import { classifyShellEnd } from './shell-tail';
import type { Category, Detector, DetectorConfig, Verdict } from './types';

export { MAX_TEXT_CHARS, MAX_USER_LINE_CHARS, MAX_USER_LINES } from '../limits';
export type { PatternCheck } from './patterns';
export { validatePattern } from './patterns';
export { NOTICE_RULES, RULES } from './rules';
export type { Category, Detector, DetectorConfig, MarkerMatch, ShellEnd, Verdict } from './types';
export { CATEGORIES, DEFAULT_CATEGORIES } from './types';

/**
 * Compiles everything once. Invalid user patterns are skipped: they are refused at input by `validatePattern`.
 * Built-in rules decide first; the user's failure patterns are consulted only when no built-in rule matched.
 */
export function createDetector(config: DetectorConfig): Detector {
  const enabled = (category: Category): boolean => config.categories[category];
  const failures = compilePatterns(config.failurePatterns);
  const markers = compilePatterns(config.markerPatterns);
  return {
    classifyError: (text) => classifyBuiltIn(text, enabled) ?? classifyCustom(text, failures),
    classifyNotice: (text) => classifyNoticeText(text, enabled),
    findMarker: (text) => findMarkerLine(text, markers),
    classifyShellEnd: (end) => classifyShellEnd(end, enabled),
    hasMarkers: markers.length > 0,
  };
}

/** The options page's "Test an output" box: the text may be a failed cell's error output or a Colab notice. */
export function testOutput(text: string, config: DetectorConfig): Verdict | null {
  const detector = createDetector(config);
  return detector.classifyError(text) ?? detector.classifyNotice(text);
}
