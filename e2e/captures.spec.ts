/**
 * The captures in test/fixtures/captures/ that come from the simulator (sim-*.json): what src/colab/capture.ts takes
 * of the simulator's Runtime menu and dialogs, in Chromium, without the extension. They are the simulator's, not
 * Colab's (the simulator is built from REFERENCE.md's evidence): each file says so in its `source`. A plain run checks
 * that each file still says what the simulator shows; `CAPTURES=1` writes them again (npm run fixtures:captures).
 * Real captures ("Copy diagnostics" in a user's Colab) go beside them, named otherwise, and are never rewritten here.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Browser, chromium, expect, type Page, test } from '@playwright/test';
import { Window } from 'happy-dom';
import { captureDialog, captureRuntimeMenu } from '../src/colab/capture';
import type { CaptureNode, PageCapture } from '../src/state/page-capture';
import { buildCapture, type CaptureFile } from '../test/support/capture-dom';
import { attachShadows, snippet } from '../test/support/colab-dom';
import {
  type DialogKind,
  type DialogVariant,
  installColabSim,
  openRuntimeMenu,
  showDialog,
  showDisconnect,
  waitForKernel,
} from './colab-sim';
import { CHROMIUM_FLAGS, findChromium } from './harness/browser-path';

const DIR = resolve(import.meta.dirname, '../test/fixtures/captures');
const WRITE = process.env.CAPTURES === '1';

let browser: Browser;
test.beforeAll(async () => {
  browser = await chromium.launch({ executablePath: findChromium(), headless: true, args: CHROMIUM_FLAGS });
});
test.afterAll(async () => browser?.close());

/** Every element `selector` matches in the page, whole: every attribute, its own text, open shadow roots. */
function rawTrees(page: Page, selector: string): Promise<CaptureNode[]> {
  return page.evaluate((selector) => {
    const walk = (el: Element): CaptureNode => ({
      tag: el.localName,
      attrs: Object.fromEntries([...el.attributes].map((a) => [a.name, a.value])),
      text: [...el.childNodes]
        .filter((n) => n.nodeType === 3)
        .map((n) => n.textContent)
        .join(''),
      shadow: el.shadowRoot ? [...el.shadowRoot.children].map(walk) : undefined,
      children: [...el.children].map(walk),
    });
    return [...document.querySelectorAll(selector)].map(walk);
  }, selector);
}

/** The simulator's page with `ui.dialog` `variant`, loaded and connected. */
async function simPage(variant: DialogVariant): Promise<Page> {
  const context = await browser.newContext();
  const sim = await installColabSim(context);
  const page = await context.newPage();
  await page.goto(sim.notebook(`/drive/captures-${variant}`, { ui: { dialog: variant }, cells: [{ source: 'x' }] }));
  await waitForKernel(page, 'idle');
  return page;
}

/** A happy-dom document at a Colab address, holding `html` (shadow roots attached) or the elements of `raw`. */
function page(content: { raw: CaptureNode[] } | { html: string }): Document {
  const window = new Window({ url: 'https://colab.research.google.com/drive/captures' });
  const doc = window.document as unknown as Document;
  doc.documentElement.lang = 'en';
  if ('raw' in content) {
    buildCapture(content.raw, doc.body);
    return doc;
  }
  const template = doc.createElement('template');
  template.innerHTML = content.html;
  attachShadows(template.content);
  doc.body.append(template.content);
  return doc;
}

/** The same elements rebuilt in happy-dom, taken by the product's capture code as the guard takes them. */
function retake(raw: CaptureNode[], take: (doc: Document) => PageCapture): PageCapture {
  return { ...take(page({ raw })), at: 0 };
}

function fixture(name: string, source: string, captures: PageCapture[]): void {
  const file = resolve(DIR, name);
  const content: CaptureFile = { source, captures };
  if (WRITE) writeFileSync(file, `${JSON.stringify(content, null, 2)}\n`);
  expect(existsSync(file), `${name}: run CAPTURES=1 npx playwright test e2e/captures.spec.ts`).toBe(true);
  expect(JSON.parse(readFileSync(file, 'utf8')), `${name} no longer what the simulator shows`).toEqual(content);
}

const SIMULATED = (what: string) =>
  `the simulator (e2e/colab-sim), ${what}: NOT a real Colab page (built from REFERENCE.md's evidence)`;

test('a capture of the Runtime menu in the shared snippet of a real page (2026-03)', () => {
  const doc = page({ html: snippet('menubar-and-runtime-menu-2026-03.html') });
  const button = doc.getElementById('runtime-menu-button')!;
  const taken = { ...captureRuntimeMenu(button, doc.getElementById('runtime-menu')!, 'check'), at: 0 };
  const source =
    'made by src/colab/capture.ts from test/fixtures/colab-dom/snippets/menubar-and-runtime-menu-2026-03.html, a ' +
    'fragment saved from a real Colab page (2026-03): not taken by the guard, the menu as saved (closed)';
  fixture('snippet-runtime-menu-2026-03.json', source, [taken]);
});

test.describe('captures of the simulator', () => {
  for (const variant of ['mwc', 'md', 'mwc-legacy', 'paper'] as const) {
    test(`the restart confirmation, ${variant}`, async () => {
      const page = await simPage(variant);
      await showDialog(page, 'restart-confirm');
      const raw = await rawTrees(page, 'mwc-dialog[open], md-dialog[open], colab-dialog');
      expect(raw).toHaveLength(1);
      const taken = retake(raw, (doc) => captureDialog(doc.body.firstElementChild!, 'restart'));
      fixture(`sim-restart-confirm-${variant}.json`, SIMULATED(`its ${variant} restart confirmation`), [taken]);
      await page.context().close();
    });
  }

  test('the Runtime menu as Check Colab UI opens it', async () => {
    const page = await simPage('mwc');
    await openRuntimeMenu(page);
    const raw = [...(await rawTrees(page, '#top-menubar')), ...(await rawTrees(page, '#runtime-menu'))];
    const taken = retake(raw, (doc) =>
      captureRuntimeMenu(doc.getElementById('runtime-menu-button')!, doc.getElementById('runtime-menu')!, 'check'),
    );
    fixture('sim-runtime-menu.json', SIMULATED('its Runtime menu, opened'), [taken]);
    await page.context().close();
  });

  const leftAlone: Array<[string, DialogKind | 'idle', PageCapture['occasion']]> = [
    ['sim-disconnected-idle.json', 'idle', 'disconnect'],
    ['sim-drive-permission.json', 'drive-permission', 'left-to-person'],
  ];
  for (const [name, kind, occasion] of leftAlone) {
    test(`a dialog the guard leaves to the person: ${kind}`, async () => {
      const page = await simPage('mwc');
      if (kind === 'idle') await showDisconnect(page, 'idle');
      else await showDialog(page, kind);
      const raw = await rawTrees(page, 'mwc-dialog[open]');
      expect(raw).toHaveLength(1);
      const taken = retake(raw, (doc) => captureDialog(doc.body.firstElementChild!, occasion));
      fixture(name, SIMULATED(`its ${kind} dialog (mwc)`), [taken]);
      await page.context().close();
    });
  }
});
