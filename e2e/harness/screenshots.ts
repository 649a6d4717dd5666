import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import { uiStrings } from './ui-strings';

/**
 * The pictures in README and docs/ are taken by the e2e tests that reach each state, but only on purpose:
 * `npm run screenshots` (SCREENSHOTS=1). A plain test run writes nothing, so `npm test` leaves the tree clean.
 *
 * Each picture's UI strings (the messages of public/_locales/en it shows) are recorded beside it in strings.json.
 * A plain run, reaching the same state, compares the strings the page shows now with that record: a label that
 * changed, or a state that shows other words, fails the test that takes the picture until it is retaken.
 */
export const SCREENSHOT_DIR = resolve(import.meta.dirname, '../../docs/screenshots');
export const STRINGS_FILE = join(SCREENSHOT_DIR, 'strings.json');

export const screenshotsWanted = process.env.SCREENSHOTS === '1';

export type StringsRecord = Record<string, Record<string, string>>;

export function readStrings(): StringsRecord {
  if (!existsSync(STRINGS_FILE)) return {};
  return JSON.parse(readFileSync(STRINGS_FILE, 'utf8')) as StringsRecord;
}

/** The text a person sees in `target`, the open shadow roots (the in-page notice) included. */
function visibleText(target: Page | Locator): Promise<string> {
  const read = (root: Element) => {
    // innerText of a <style> is its CSS: not something a person sees.
    const shadowText = (shadow: ShadowRoot) =>
      [...shadow.children]
        .filter((child) => !['STYLE', 'SCRIPT'].includes(child.tagName))
        .map((child) => (child as HTMLElement).innerText);
    const hosts = [root, ...root.querySelectorAll('*')].filter((element) => element.shadowRoot);
    return [(root as HTMLElement).innerText, ...hosts.flatMap((host) => shadowText(host.shadowRoot!))].join('\n');
  };
  return 'goto' in target ? target.locator('body').evaluate(read) : target.evaluate(read);
}

export async function screenshot(
  target: Page | Locator,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  const shown = uiStrings(await visibleText(target));
  if (!screenshotsWanted) {
    const recorded = readStrings()[name];
    expect(recorded, `docs/screenshots/${name}.png has no strings record: run npm run screenshots`).toBeDefined();
    expect(shown, `docs/screenshots/${name}.png shows other words than the UI now: run npm run screenshots`).toEqual(
      recorded,
    );
    return;
  }
  const page = 'goto' in target ? target : target.page();
  // No caret or focus ring in the picture.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  if ('goto' in target) await target.screenshot({ path, animations: 'disabled', ...options });
  else await target.screenshot({ path, animations: 'disabled' });
  writeFileSync(STRINGS_FILE, `${JSON.stringify(sortedKeys({ ...readStrings(), [name]: shown }), null, 2)}\n`);
}

function sortedKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
