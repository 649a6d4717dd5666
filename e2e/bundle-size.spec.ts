import { expect, test } from '@playwright/test';
import { measureSizes } from '../bench/lib/sizes';
import { DIST } from './harness/extension';

/**
 * The two content scripts run in every Colab page and every output frame: each stays within 15 kB minified (issue 7),
 * counted as the bench counts it (the script with the chunks it imports at once). A byte budget, not a timing: a
 * module-level property read that tree-shaking cannot drop once pushed the frame script over it unnoticed.
 */
const BUDGET_BYTES = 15_000;

for (const what of ['content script: Colab page (top frame)', 'content script: output frames']) {
  test(`${what} stays within ${BUDGET_BYTES} bytes minified`, () => {
    const entry = measureSizes(DIST).find((e) => e.what === what);
    expect(entry, `${what} in dist/manifest.json`).toBeDefined();
    expect(entry!.raw, entry!.files.join(', ')).toBeLessThanOrEqual(BUDGET_BYTES);
  });
}
