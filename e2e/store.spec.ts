import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './harness/extension';
import { SCREENSHOT_DIR, screenshotsWanted } from './harness/screenshots';

/**
 * The store listings' pictures (store/screenshots/): 1280×800 screenshots and the 440×280 promo tile that the Chrome
 * Web Store asks for, composed from the pictures the e2e tests take of the real UI (docs/screenshots/) with a caption.
 * `npm run screenshots` composes them after retaking those pictures; sources.json records what each was made from.
 * A plain run checks that each is there, at its size, made from the pictures and captions as they are now.
 */

const STORE_DIR = resolve(import.meta.dirname, '../store/screenshots');
const SOURCES_FILE = join(STORE_DIR, 'sources.json');
const ICON = resolve(import.meta.dirname, '../public/icons/icon-128.png');

interface Composition {
  title: string;
  text: string;
  /** Pictures from docs/screenshots, without .png, left to right. */
  pictures: string[];
}

const SCREENSHOTS: Record<string, Composition> = {
  'screenshot-1-morning.png': {
    title: 'Out of memory at night? Restarted and running again.',
    text:
      "When a cell fails with CUDA, TensorFlow or JAX out of memory, or Colab's session runs out of RAM, the guard " +
      'does what you would do: Runtime → Restart session and run all. In the morning the popup tells the night.',
    pictures: ['popup-morning'],
  },
  'screenshot-2-countdown.png': {
    title: 'A countdown you can see, and cancel',
    text:
      'Before each restart, a notice in the Colab tab and the popup say what was found and what will happen. ' +
      'Cancel restart, and the guard keeps watching.',
    pictures: ['notice-countdown', 'popup-countdown'],
  },
  'screenshot-3-per-notebook.png': {
    title: 'Off until you switch it on, per notebook',
    text:
      'Switch Auto-restart on for the notebook in the toolbar popup. Other notebooks are left alone, and the badge ' +
      'shows which tabs are guarded.',
    pictures: ['popup-off', 'popup-watching'],
  },
  'screenshot-4-bounded.png': {
    title: 'Bounded, and never blind',
    text:
      'At most 3 restarts in a row (you choose), each after a longer countdown. When Colab does not look as ' +
      'expected, the guard stops and says which step failed. It never clicks what it does not understand.',
    pictures: ['popup-gave-up', 'popup-ui-problem'],
  },
  'screenshot-5-test-an-output.png': {
    title: 'Check before the night',
    text:
      'Paste a traceback into the options page to see whether the guard would restart, and why. Choose the failure ' +
      'kinds, and add patterns of your own.',
    pictures: ['options-tester'],
  },
};

const TILE = 'promo-tile-440x280.png';
const TILE_TITLE = 'Colab OOM Guard';
const TILE_TEXT = 'Restarts Colab after out of memory, and runs all again';

interface SourcesRecord {
  [file: string]: { width: number; height: number; title: string; text: string; sources: Record<string, string> };
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const pngSize = (file: string) => {
  const header = readFileSync(file).subarray(16, 24);
  return { width: header.readUInt32BE(0), height: header.readUInt32BE(4) };
};
const dataUrl = (file: string) => `data:image/png;base64,${readFileSync(file).toString('base64')}`;
const picturePath = (name: string) => join(SCREENSHOT_DIR, `${name}.png`);
const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** What each store picture is made from, as the pictures are now. */
function expectedSources(): SourcesRecord {
  const record: SourcesRecord = {};
  for (const [file, { title, text, pictures }] of Object.entries(SCREENSHOTS)) {
    const sources = Object.fromEntries(pictures.map((name) => [`${name}.png`, sha256(picturePath(name))]));
    record[file] = { width: 1280, height: 800, title, text, sources };
  }
  record[TILE] = {
    width: 440,
    height: 280,
    title: TILE_TITLE,
    text: TILE_TEXT,
    sources: { 'icon-128.png': sha256(ICON) },
  };
  return record;
}

const STAGE_CSS = `
  * { box-sizing: border-box; margin: 0; }
  body { font-family: system-ui, sans-serif; color: #1f1f1f; }
  .stage { width: 1280px; height: 800px; display: flex; align-items: center; gap: 40px; padding: 0 48px 0 64px;
    background: linear-gradient(135deg, #e8f0fe 0%, #f3f5f7 60%); }
  .caption { flex: 0 0 340px; }
  .caption img { width: 64px; height: 64px; margin-bottom: 24px; }
  h1 { font-size: 34px; line-height: 1.2; margin-bottom: 20px; }
  p { font-size: 19px; line-height: 1.5; color: #41474d; }
  .pictures { flex: 1; display: flex; justify-content: center; align-items: center; gap: 20px; }
  .pictures img { display: block; border: 1px solid #c4c7c5; border-radius: 8px; background: #fff;
    box-shadow: 0 10px 28px rgba(31, 31, 31, 0.18); }
`;

const TILE_CSS = `
  * { box-sizing: border-box; margin: 0; }
  body { font-family: system-ui, sans-serif; }
  .tile { width: 440px; height: 280px; display: flex; align-items: center; gap: 24px; padding: 0 28px;
    background: linear-gradient(135deg, #0b57d0 0%, #1a73e8 100%); color: #fff; }
  .mark { flex: 0 0 112px; height: 112px; display: grid; place-items: center; background: #fff; border-radius: 24px; }
  .mark img { width: 88px; height: 88px; }
  h1 { font-size: 30px; line-height: 1.15; margin-bottom: 12px; }
  p { font-size: 17px; line-height: 1.4; color: #e8f0fe; }
`;

async function render(page: Page, html: string, width: number, height: number, file: string): Promise<void> {
  await page.setViewportSize({ width, height });
  await page.setContent(`<!doctype html><html><head><meta charset="utf-8"></head><body>${html}</body></html>`);
  await page.evaluate(() => Promise.all([...document.images].map((image) => image.decode())));
  await page.screenshot({ path: join(STORE_DIR, file), animations: 'disabled' });
}

test('the store pictures are composed from the current UI pictures and captions, at the sizes the stores ask', () => {
  test.skip(screenshotsWanted, 'npm run screenshots composes them (next test)');
  const recorded = existsSync(SOURCES_FILE) ? (JSON.parse(readFileSync(SOURCES_FILE, 'utf8')) as SourcesRecord) : {};
  const expected = expectedSources();
  expect(recorded, 'store/screenshots/ was composed from other pictures or captions: run npm run screenshots').toEqual(
    expected,
  );
  for (const [file, { width, height }] of Object.entries(expected)) {
    expect(pngSize(join(STORE_DIR, file)), file).toEqual({ width, height });
  }
});

test('compose the store pictures (npm run screenshots)', async ({ page }) => {
  test.skip(!screenshotsWanted, 'only with SCREENSHOTS=1');
  const icon = dataUrl(ICON);
  for (const [file, { title, text, pictures }] of Object.entries(SCREENSHOTS)) {
    const images = pictures.map((name) => `<img alt="" src="${dataUrl(picturePath(name))}">`).join('');
    const html =
      `<style>${STAGE_CSS}</style><div class="stage"><div class="caption"><img alt="" src="${icon}">` +
      `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></div><div class="pictures">${images}</div></div>`;
    await render(page, html, 1280, 800, file);
  }
  const tile =
    `<style>${TILE_CSS}</style><div class="tile"><div class="mark"><img alt="" src="${icon}"></div>` +
    `<div><h1>${escapeHtml(TILE_TITLE)}</h1><p>${escapeHtml(TILE_TEXT)}</p></div></div>`;
  await render(page, tile, 440, 280, TILE);
  writeFileSync(SOURCES_FILE, `${JSON.stringify(expectedSources(), null, 2)}\n`);
});
