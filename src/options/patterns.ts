import { validatePattern } from '../detector/patterns';
import { t } from '../lib/i18n';
import { MAX_PATTERN_CHARS, MAX_PATTERNS } from '../limits';
import { sayRefusal } from '../ui/refusal-text';

export interface LineProblem {
  /** 1-based, counting blank lines too, so it matches what the user sees in the box. */
  line: number;
  message: string;
}

export interface PatternsCheck {
  patterns: string[];
  problems: LineProblem[];
}

/** One pattern per line; blank lines are ignored. Every line must compile for the list to be saved. */
export function checkPatterns(text: string): PatternsCheck {
  const patterns: string[] = [];
  const problems: LineProblem[] = [];
  text.split(/\r\n|\r|\n/).forEach((raw, index) => {
    if (raw.trim() === '') return;
    const line = index + 1;
    if (raw.length > MAX_PATTERN_CHARS) {
      problems.push({ line, message: t('patternsTooLong', MAX_PATTERN_CHARS) });
      return;
    }
    const check = validatePattern(raw);
    if (check.ok) patterns.push(raw);
    else problems.push({ line, message: sayRefusal(check.refusal) });
  });
  if (patterns.length + problems.length > MAX_PATTERNS) {
    problems.push({ line: 0, message: t('patternsTooMany', MAX_PATTERNS) });
  }
  return { patterns, problems };
}
