import { CATEGORIES, type Category, createDetector, type DetectorConfig, testOutput, type Verdict } from '../detector';
import { compilePatterns } from '../detector/patterns';
import { t } from '../lib/i18n';
import { categoryLabel } from '../ui/category-labels';
import { verdictName } from '../ui/verdict-name';

const engine = { compilePatterns };

/** What the guard would do with a text: information for the user, never an alarm. */
export interface TestResult {
  restart: boolean;
  /** "Would restart: PyTorch CUDA out of memory" or "Would not restart". */
  headline: string;
  /** Why: the failure kind and the matched line, or what did not match. No rule id: Copy diagnostics has those. */
  detail: string;
}

/**
 * The "Test an output" verdict: the text is read as a failed cell's error output, or as a Colab notice, exactly as the
 * page would read it (the same pattern engine included); then as any output, for the user's restart markers.
 */
export function testText(text: string, config: DetectorConfig): TestResult | null {
  if (text.trim() === '') return null;
  const verdict = testOutput(text, config, engine);
  if (verdict) {
    const detail = t('testerFound', kindName(verdict), verdict.line);
    return { restart: true, headline: t('testerWouldRestart', verdictName(verdict)), detail };
  }
  const marker = createDetector(config, engine).findMarker(text);
  if (marker) {
    return {
      restart: true,
      headline: t('testerWouldMarker'),
      detail: t('testerMarkerFound', marker.pattern, marker.line),
    };
  }
  const allOn = Object.fromEntries(CATEGORIES.map((c) => [c, true])) as Record<Category, boolean>;
  const off = testOutput(text, { ...config, categories: allOn });
  if (off && off.category !== 'custom') {
    const detail = t('testerCategoryOff', verdictName(off), categoryLabel(off.category));
    return { restart: false, headline: t('testerWouldNot'), detail };
  }
  return { restart: false, headline: t('testerWouldNot'), detail: t('testerNoMatch') };
}

function kindName(verdict: Verdict): string {
  return verdict.category === 'custom' ? t('testerYourPattern') : categoryLabel(verdict.category);
}
