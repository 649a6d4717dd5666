#!/usr/bin/env node
// Renders the toolbar and store icons in public/icons/ from the SVG sources in assets/icons/ (`npm run icons`).
// The PNGs are committed, so building needs no browser; run this again after editing an SVG.
//
//   assets/icons/icon.svg     the mark (shield + restart arrow), drawn on a 128 grid, used for 32, 48 and 128 px
//   assets/icons/icon-16.svg  the same mark redrawn on a 16 px grid (edges on whole pixels) so it stays crisp at 16 px
//
// Output, all in public/icons/ (copied as is to dist/icons/ and dist-firefox/icons/):
//   icon-16.png icon-32.png icon-48.png icon-128.png   the normal mark (blue): manifest icons and default toolbar icon;
//                                                       icon-128 is drawn at 96 px with 16 px of transparent margin, as
//                                                       the Chrome Web Store asks of the 128 px manifest icon
//   icon-off-16.png icon-off-32.png                     grey: the guard is off (for action.setIcon)
//   icon-gave-up-16.png icon-gave-up-32.png             red with a stop square: the guard gave up (action.setIcon)
//   icon-ui-problem-16.png icon-ui-problem-32.png       orange with "!": a Colab UI problem (action.setIcon)
//
// Renders with Playwright and the system Chromium: $CHROMIUM_PATH, else /usr/bin/chromium.
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sourceDir = path.join(root, 'assets', 'icons');
const outDir = path.join(root, 'public', 'icons');

/** Colour and glyph overrides per variant, over the SVG's <style> (classes .shield, .glyph, .head, .stop, .warn). */
const only = (glyph) => `svg .glyph, svg .head { display: none; } svg .${glyph} { display: inline; }`;
const variants = [
  { suffix: '', sizes: [16, 32, 48, 128], css: '' },
  { suffix: '-off', sizes: [16, 32], css: 'svg .shield { fill: #80868b; }' },
  { suffix: '-gave-up', sizes: [16, 32], css: `svg .shield { fill: #d93025; } ${only('stop')}` },
  { suffix: '-ui-problem', sizes: [16, 32], css: `svg .shield { fill: #c25400; } ${only('warn')}` },
];

const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
if (!existsSync(executablePath)) {
  console.error(`No Chromium at ${executablePath}: install Debian's chromium or set CHROMIUM_PATH.`);
  process.exit(1);
}

const sources = {
  small: await readFile(path.join(sourceDir, 'icon-16.svg'), 'utf8'),
  large: await readFile(path.join(sourceDir, 'icon.svg'), 'utf8'),
};

/** Transparent margin around the artwork, per output size. */
const margin = (size) => (size === 128 ? 16 : 0);

/** The SVG markup sized to `size` CSS pixels (the viewBox keeps the drawing). */
function sized(svg, size) {
  const open = svg.match(/<svg\b[^>]*>/);
  if (!open) throw new Error('not an SVG');
  const tag = open[0]
    .replace(/\s(width|height)="[^"]*"/g, '')
    .replace(/^<svg/, `<svg width="${size}" height="${size}"`);
  return svg.replace(open[0], tag);
}

const browser = await chromium.launch({
  executablePath,
  headless: true,
  // Exact sRGB colours, independent of the machine's display profile.
  args: ['--force-color-profile=srgb'],
});
try {
  await mkdir(outDir, { recursive: true });
  for (const variant of variants) {
    for (const size of variant.sizes) {
      const pad = margin(size);
      const svg = sized(size <= 16 ? sources.small : sources.large, size - 2 * pad);
      const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
      await page.setContent(
        `<!doctype html><style>html, body { margin: 0; background: transparent; } svg { display: block; margin: ` +
          `${pad}px; }` +
          `${variant.css}</style>${svg}`,
      );
      const png = await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
      await page.close();
      const file = path.join(outDir, `icon${variant.suffix}-${size}.png`);
      await writeFile(file, png);
      console.log(path.relative(root, file));
    }
  }
} finally {
  await browser.close();
}
