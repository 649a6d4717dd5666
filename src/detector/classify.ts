import { MAX_RULE_LINE_CHARS } from '../limits';
import { candidatesOf } from './lines';
import { type CompiledPattern, findMarkerLine } from './markers';
import { categoryOf, firstRule, isTensorFlowText, KEYWORDS, NOTICE_RULES } from './rules';
import { clip, limit, splitLines, stripAnsi, tailOf } from './text';
import type { Category, Verdict } from './types';

export type IsEnabled = (category: Category) => boolean;

/**
 * Built-in rules over a failed cell's error text, newest line first: the failure is near the end, and anything after
 * it (`During handling of the above exception...`, launcher and log lines) simply does not match. A line whose rule
 * belongs to a disabled category is passed over, so an earlier line of an enabled category can still decide.
 */
export function classifyBuiltIn(text: string, enabled: IsEnabled): Verdict | null {
  const bounded = tailOf(text);
  if (!KEYWORDS.test(bounded)) return null;
  const tensorFlow = isTensorFlowText(bounded);
  const lines = splitLines(bounded);
  for (let i = lines.length - 1; i >= 0; i--) {
    const verdict = classifyLine(lines[i] ?? '', bounded, tensorFlow, enabled);
    if (verdict) return verdict;
  }
  return null;
}

function classifyLine(raw: string, bounded: string, tensorFlow: boolean, enabled: IsEnabled): Verdict | null {
  const line = stripAnsi(raw.slice(0, MAX_RULE_LINE_CHARS));
  if (!KEYWORDS.test(line)) return null;
  for (const candidate of candidatesOf(line)) {
    const rule = firstRule(candidate);
    if (!rule) continue;
    if (rule.unless?.test(bounded)) return null;
    const category = categoryOf(rule, candidate, tensorFlow);
    return enabled(category) ? verdictOf(category, rule.id, rule.description, line) : null;
  }
  return null;
}

const INTERRUPT = /^KeyboardInterrupt\b/;

/**
 * Whether an error output ends in `KeyboardInterrupt`: the person's Stop (the cell's stop button, Runtime → Interrupt
 * execution). Never a failure, whatever the traceback shows before it (an OOM being handled when Stop came).
 */
export function endsInInterrupt(text: string): boolean {
  const lines = splitLines(tailOf(text));
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = stripAnsi(lines[i] ?? '').trim();
    if (line) return INTERRUPT.test(line);
  }
  return false;
}

export function classifyNoticeText(text: string, enabled: IsEnabled): Verdict | null {
  for (const raw of splitLines(tailOf(text))) {
    const line = stripAnsi(raw);
    const rule = NOTICE_RULES.find((r) => r.re.test(line));
    if (rule) return enabled(rule.category) ? verdictOf(rule.category, rule.id, rule.description, line) : null;
  }
  return null;
}

export function classifyCustom(text: string, patterns: readonly CompiledPattern[]): Verdict | null {
  const match = findMarkerLine(text, patterns);
  return match && verdictOf('custom', `custom:${match.pattern}`, `Your failure pattern ${match.pattern}`, match.line);
}

function verdictOf(category: Verdict['category'], rule: string, description: string, line: string): Verdict {
  return { category, rule: limit(rule), description: limit(description), line: clip(line) };
}
