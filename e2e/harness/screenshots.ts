import { join, resolve } from 'node:path';
import type { Page } from '@playwright/test';

/**
 * The pictures in README and docs/ are taken by the e2e tests that reach each state, but only on purpose:
 * `npm run screenshots` (SCREENSHOTS=1). A plain test run writes nothing, so `npm test` leaves the tree clean.
 */
const DIR = resolve(import.meta.dirname, '../../docs/screenshots');

export const screenshotsWanted = process.env.SCREENSHOTS === '1';

export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (!screenshotsWanted) return;
  // No caret or focus ring in the picture.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.screenshot({ path: join(DIR, `${name}.png`), animations: 'disabled', ...options });
}
