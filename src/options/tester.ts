import { CATEGORIES, type Category, createDetector, type DetectorConfig, testOutput } from '../detector';
import { compilePatterns } from '../detector/patterns';
import { t } from '../lib/i18n';
import { categoryLabel } from './labels';

const engine = { compilePatterns };

export interface TestResult {
  restart: boolean;
  message: string;
}

/**
 * The "Test an output" verdict: the text is read as a failed cell's error output, or as a Colab notice, exactly as the
 * page would read it (the same pattern engine included); then as any output, for the user's restart markers.
 */
export function testText(text: string, config: DetectorConfig): TestResult | null {
  if (text.trim() === '') return null;
  const verdict = testOutput(text, config, engine);
  if (verdict) {
    return { restart: true, message: t('testerRestart', verdict.description, verdict.rule, verdict.line) };
  }
  const marker = createDetector(config, engine).findMarker(text);
  if (marker) return { restart: true, message: t('testerMarker', marker.pattern, marker.line) };
  const allOn = Object.fromEntries(CATEGORIES.map((c) => [c, true])) as Record<Category, boolean>;
  const off = testOutput(text, { ...config, categories: allOn });
  if (off && off.category !== 'custom') {
    return { restart: false, message: t('testerCategoryOff', off.description, categoryLabel(off.category)) };
  }
  return { restart: false, message: t('testerNoRestart') };
}
