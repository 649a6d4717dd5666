import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

/** Flags of every e2e and bench Chromium: no network chatter, no first-run UI, no QUIC (routes see every request). */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** Where the e2e tests and the bench find Chromium, in order of preference. */
export function findChromium(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', playwrightChromium()];
  return candidates.find((path): path is string => Boolean(path && existsSync(path)));
}

function playwrightChromium(): string | undefined {
  try {
    return chromium.executablePath();
  } catch {
    return undefined;
  }
}

export const NO_BROWSER_MESSAGE =
  "No Chromium found: set CHROMIUM_PATH, or install Debian's package (sudo apt-get install -y chromium), or run " +
  '"npx playwright install chromium".';
