import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type BrowserContext, expect, type Page, test, type Worker } from '@playwright/test';
import { pluralForm } from '../src/lib/plural';
import { extensionServiceWorker, launchWithExtension } from './harness/extension';
import { enableGuard } from './harness/guard';
import { openNotebook, trainNotebook } from './harness/matrix';
import { SCREENSHOT_DIR, screenshotsWanted } from './harness/screenshots';
import { welcomeTabClosed } from './harness/welcome-tab';

/**
 * The extension in the browser's language: Chromium started in German (long words) and in Japanese (other glyphs,
 * no spaces to wrap at) shows the popup, the options page and the welcome page in that language, with no text cut
 * off or pushed out of its box. With SCREENSHOTS=1 the pictures go to docs/screenshots/locales/.
 */

type Messages = Record<string, { message: string }>;

const LOCALES = resolve(import.meta.dirname, '../public/_locales');
const messagesOf = (locale: string): Messages =>
  JSON.parse(readFileSync(resolve(LOCALES, locale, 'messages.json'), 'utf8')) as Messages;

/** A message of `locale` as the extension shows it: placeholders filled, the plural form for `count` chosen. */
function say(messages: Messages, key: string, subs: (string | number)[] = [], count?: number): string {
  const message = messages[key]?.message ?? '';
  const filled = message.replace(/\$([1-9])/g, (_, n: string) => String(subs[Number(n) - 1] ?? ''));
  return count === undefined ? filled : pluralForm(filled, messages.messagesLocale?.message ?? 'en', count);
}

const POPUP_VIEWPORT = { width: 380, height: 700 };

/**
 * A night that gave up, as the guard records it: three restarts in a row, then a fourth failure. Every line of the
 * popup agrees (gave up after 3, 4 failures and 3 restarts tonight, 3 of 3 used), as the picture must.
 */
function gaveUpNight() {
  const now = Date.now();
  const verdict = {
    category: 'gpu-oom',
    rule: 'torch-cuda-oom',
    description: 'PyTorch CUDA out of memory',
    line: 'torch.OutOfMemoryError: CUDA out of memory.',
  };
  const minute = (m: number) => now - (60 - m) * 60_000;
  const history: object[] = [{ at: minute(0), type: 'run-started' }];
  for (const n of [1, 2, 3]) {
    const at = minute(n * 10);
    const params = { n, max: 3, delaySec: 5 * 2 ** (n - 1) };
    history.push({ at, type: 'restart-scheduled', params, verdict, action: 'restart-and-run-all' });
    history.push({ at: at + 60_000, type: 'restarted', params: { n, max: 3 }, action: 'restart-and-run-all' });
  }
  const at = minute(45);
  history.push({ at, type: 'gave-up', params: { why: 'failed-again', n: 3, max: 3 }, verdict });
  return {
    loopCount: 3,
    totalRestarts: 3,
    lastRestartAt: minute(30) + 60_000,
    lastFailureAt: at,
    status: { kind: 'gave-up', at, restarts: 3 },
    history,
  };
}

/**
 * The picture of a page in another language, for docs/where-it-works.md, only under `npm run screenshots`. Unlike
 * the English pictures no strings are recorded: those records are of English messages.
 */
async function localePicture(page: Page, name: string): Promise<void> {
  if (!screenshotsWanted) return;
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.screenshot({ path: resolve(SCREENSHOT_DIR, 'locales', `${name}.png`), animations: 'disabled' });
}

/**
 * Every box on the page whose text does not fit: wider than the box (scrollWidth > clientWidth), a button or label
 * taller than it is drawn, or the page itself wider than the window. Boxes meant to scroll (overflow auto/scroll),
 * form fields and the visually hidden live regions do not count.
 */
function clippedBoxes(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const describe = (element: Element) => {
      const classes = element.className ? `.${String(element.className).replace(/\s+/g, '.')}` : '';
      return `${element.tagName.toLowerCase()}${classes} "${(element.textContent ?? '').trim().slice(0, 60)}"`;
    };
    const clipped: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>('body *')) {
      const style = getComputedStyle(element);
      if (style.display === 'inline' || style.display === 'none' || element.getClientRects().length === 0) continue;
      if (['INPUT', 'TEXTAREA', 'SELECT', 'svg', 'OPTION'].includes(element.tagName)) continue;
      if (element.clientWidth <= 1 || element.classList.contains('sr-only')) continue;
      const scrolls = (overflow: string) => overflow === 'auto' || overflow === 'scroll';
      if (!scrolls(style.overflowX) && element.scrollWidth > element.clientWidth + 1) clipped.push(describe(element));
      const fixedHeight = ['BUTTON', 'LABEL', 'SUMMARY', 'A'].includes(element.tagName);
      if (fixedHeight && !scrolls(style.overflowY) && element.scrollHeight > element.clientHeight + 1) {
        clipped.push(`${describe(element)} (height)`);
      }
    }
    if (document.documentElement.scrollWidth > window.innerWidth) clipped.push('the page is wider than the window');
    return clipped;
  });
}

/**
 * Chromium in `lang`, its extension speaking `locale`. On a loaded machine Chromium now and then starts with its own
 * language instead of `--lang`'s, and the extension then reads English: such a start is not the extension's doing, so
 * the browser is started again (at most three times) until its worker reads the extension's messages in `locale`.
 */
async function launchIn(
  lang: string,
  locale: string,
): Promise<{ context: BrowserContext; worker: Worker; close: () => Promise<void> }> {
  let spoke = '';
  for (let start = 0; start < 3; start++) {
    const { context, close } = await launchWithExtension({ lang });
    const worker = await extensionServiceWorker(context);
    if (!(await worker.evaluate(welcomeTabClosed))) throw new Error('no welcome page opened on install');
    spoke = await worker.evaluate(() => chrome.i18n.getMessage('messagesLocale'));
    if (spoke === locale) return { context, worker, close };
    await close();
  }
  throw new Error(`Chromium started with --lang=${lang} three times, and the extension read "${spoke}" each time`);
}

/**
 * Opens an extension page in the browser's language. Chromium has answered getMessage with '' for every key of a
 * page on a loaded machine (lib/i18n.ts then shows English): such a page is opened again, until it speaks `locale`.
 */
async function openIn(page: Page, url: string, locale: string): Promise<void> {
  await expect(async () => {
    await page.goto(url);
    await expect(page.locator('html')).toHaveAttribute('lang', locale, { timeout: 5_000 });
  }).toPass({ timeout: 30_000 });
}

const extensionPage = (worker: Worker, path: string) => `chrome-extension://${new URL(worker.url()).host}/${path}`;

for (const { lang, locale } of [
  { lang: 'de', locale: 'de' },
  { lang: 'ja', locale: 'ja' },
]) {
  test.describe(`in ${lang}`, () => {
    test.describe.configure({ mode: 'serial' });
    let browser: Awaited<ReturnType<typeof launchIn>>;
    const messages = messagesOf(locale);

    test.beforeAll(async () => {
      browser = await launchIn(lang, locale);
    });
    test.afterAll(async () => browser?.close());

    test(`the popup speaks ${lang}, its plurals by ${lang} rules, and nothing is cut off`, async () => {
      const { context, worker } = browser;
      const page = await context.newPage();
      const scenario = trainNotebook({ default: { outputs: [{ type: 'stream', text: 'epoch 1 done\n' }] } });
      const { tabId } = await openNotebook({ context, page, serviceWorker: worker }, scenario, {
        record: gaveUpNight(),
      });

      const popup = await context.newPage();
      await popup.setViewportSize(POPUP_VIEWPORT);
      await openIn(popup, extensionPage(worker, `src/popup/index.html?tab=${tabId}`), locale);
      await expect(popup.locator('html')).toHaveAttribute('lang', locale);
      await expect(popup.locator('.status .headline')).toHaveText(say(messages, 'stateGaveUp', [3], 3));
      await expect(popup.getByRole('switch', { name: say(messages, 'popupSwitch') })).toBeChecked();
      await expect(popup.getByRole('button', { name: say(messages, 'popupRearm') })).toBeVisible();
      await expect(popup.getByRole('button', { name: say(messages, 'popupCheckUi') })).toBeVisible();
      await expect(popup.getByText(say(messages, 'popupUsed', [3, 3], 3))).toBeVisible();
      expect(await clippedBoxes(popup)).toEqual([]);
      await localePicture(popup, `popup-${lang}`);
      await popup.close();
      await page.close();
    });

    test(`the options page speaks ${lang} and nothing is cut off, wide or narrow`, async () => {
      const { context, worker } = browser;
      const options = await context.newPage();
      await openIn(options, extensionPage(worker, 'src/options/index.html'), locale);
      await expect(options.locator('html')).toHaveAttribute('lang', locale);
      await expect(options.getByRole('heading', { level: 1 })).toHaveText(say(messages, 'optionsTitle'));
      await expect(options.getByRole('heading', { name: say(messages, 'optionsLimits') })).toBeVisible();
      await expect(options.getByRole('button', { name: say(messages, 'exportButton') })).toBeVisible();
      expect(await options.title()).toBe(say(messages, 'optionsTitle'));
      for (const width of [1024, 420]) {
        await options.setViewportSize({ width, height: 800 });
        expect(await clippedBoxes(options), `at ${width} px`).toEqual([]);
      }
      await options.setViewportSize({ width: 900, height: 800 });
      await localePicture(options, `options-${lang}`);
      await options.close();
    });

    test(`the welcome page speaks ${lang} and nothing is cut off`, async () => {
      const { context, worker } = browser;
      const welcome = await context.newPage();
      await welcome.setViewportSize({ width: 420, height: 800 });
      await openIn(welcome, extensionPage(worker, 'src/welcome/index.html'), locale);
      await expect(welcome.getByRole('heading', { level: 1 })).toHaveText(say(messages, 'welcomeTitle'));
      await expect(welcome.getByText(say(messages, 'welcomeStep3'))).toBeVisible();
      expect(await clippedBoxes(welcome)).toEqual([]);
      await welcome.close();
    });
  });
}

test('a browser language the extension does not ship reads English, counted by English rules', async () => {
  const { context, worker, close } = await launchIn('ru', 'en');
  try {
    const english = messagesOf('en');
    // Russian counts 21 as "one": English text must still say "21 restarts".
    await enableGuard(worker, 'drive:ru21', { title: 'train.ipynb', overrides: { maxRestarts: 21 } });
    const options = await context.newPage();
    await options.goto(extensionPage(worker, 'src/options/index.html'));
    await expect(options.locator('html')).toHaveAttribute('lang', 'en');
    await expect(options.getByRole('heading', { level: 1 })).toHaveText(say(english, 'optionsTitle'));
    await expect(options.getByText(say(english, 'notebookUsed', [0, 21], 21))).toBeVisible();
    expect(say(english, 'notebookUsed', [0, 21], 21)).toBe('0 of 21 restarts used');
  } finally {
    await close();
  }
});
