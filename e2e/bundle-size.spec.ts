import { basename } from 'node:path';
import { expect, test } from '@playwright/test';
import { measureSizes } from '../bench/lib/sizes';
import { DIST } from './harness/extension';

/**
 * The two content scripts run in every Colab page and every output frame: each stays within 15 kB minified, counted
 * as the bench counts it (the script with the chunks it imports at once). A byte budget, not a timing: a
 * module-level property read that tree-shaking cannot drop once pushed the frame script over it unnoticed.
 */
const BUDGET_BYTES = 15_000;

/** Each bundle by its name, the source it is built from, and the bench's row for it. */
const BUNDLES = [
  { name: 'page script', source: 'src/page/page-script.ts', what: 'content script: Colab page (top frame)' },
  { name: 'output-frame script', source: 'src/frame/frame-script.ts', what: 'content script: output frames' },
];

for (const { name, source, what } of BUNDLES) {
  test(`${name} (${source}) stays within ${BUDGET_BYTES} bytes minified`, () => {
    const entry = measureSizes(DIST).find((e) => e.what === what);
    expect(entry, `${what} in dist/manifest.json`).toBeDefined();
    // crxjs names the built files after their source (`src-page-page-script.ts-….js`, `src/frame/frame-script.js`).
    expect(entry!.files.join(' '), `${name} is built from ${source}`).toContain(basename(source, '.ts'));
    expect(entry!.raw, `${name}: ${entry!.files.join(', ')}`).toBeLessThanOrEqual(BUDGET_BYTES);
  });
}
