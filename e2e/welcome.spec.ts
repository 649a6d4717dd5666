import { readFileSync } from 'node:fs';
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { extensionServiceWorker, launchWithExtension } from './harness/extension';
import { screenshot } from './harness/screenshots';

/**
 * The welcome page, in a browser of its own: the shared one closes it at start (harness/extension.ts), and only a
 * fresh install opens it.
 */

let context: BrowserContext;
let close: () => Promise<void>;
let welcome: Page;

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string; repository: { url: string } };
const repo = pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');

test.beforeAll(async () => {
  ({ context, close } = await launchWithExtension());
  const worker = await extensionServiceWorker(context);
  const url = `chrome-extension://${new URL(worker.url()).host}/src/welcome/index.html`;
  const isWelcome = (page: Page) => page.url() === url;
  // Opened by the service worker on install, without anything asking for it.
  await expect.poll(() => context.pages().filter(isWelcome).length).toBe(1);
  welcome = context.pages().find(isWelcome)!;
  await welcome.setViewportSize({ width: 900, height: 1100 });
});

test.afterAll(async () => close?.());

test('opens once on install: what the guard does, a quick start of five steps, Check Colab UI, links', async () => {
  await expect(welcome).toHaveTitle('Welcome to Colab OOM Guard');
  await expect(welcome.getByRole('heading', { level: 1, name: 'Welcome to Colab OOM Guard' })).toBeVisible();
  await expect(welcome.getByText(`Version ${pkg.version}`)).toBeVisible();
  // The limits as the settings have them now (the defaults on a fresh install).
  await expect(
    welcome.getByText(/the guard makes at most 3 restarts in a row, each after a countdown that starts at 5 s/),
  ).toBeVisible();

  const steps = welcome
    .locator('section', { has: welcome.getByRole('heading', { name: 'Quick start' }) })
    .locator('ol > li');
  await expect(steps).toHaveCount(5);
  await expect(steps.nth(0)).toContainText('resume from its last checkpoint');
  await expect(steps.nth(2)).toContainText('switch Auto-restart on');
  await expect(steps.nth(3)).toContainText('Check Colab UI');
  await expect(welcome.getByRole('heading', { name: 'What Check Colab UI does' })).toBeVisible();
  await expect(welcome.getByText(/opens Colab's Runtime menu, looks for Restart session and run all/)).toBeVisible();

  await expect(welcome.getByRole('link', { name: 'User guide' })).toHaveAttribute(
    'href',
    `${repo}/blob/main/docs/guide.md`,
  );
  await expect(welcome.getByRole('link', { name: 'Troubleshooting' })).toHaveAttribute(
    'href',
    `${repo}/blob/main/docs/troubleshooting.md`,
  );
  await expect(welcome.getByRole('link', { name: "What's new (changelog)" })).toHaveAttribute(
    'href',
    `${repo}/blob/main/CHANGELOG.md`,
  );
  await screenshot(welcome, 'welcome', { fullPage: true });
});

test('keyboard: every link is reached with Tab, in reading order, and shows its focus', async () => {
  await welcome.locator('body').focus();
  const reached: string[] = [];
  for (let i = 0; i < 4; i++) {
    await welcome.keyboard.press('Tab');
    reached.push(await welcome.evaluate(() => document.activeElement?.textContent ?? ''));
    const outline = await welcome.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(outline).not.toBe('none');
  }
  expect(reached).toEqual(['User guide', 'Troubleshooting', "What's new (changelog)", 'Options']);

  // Enter on Options opens the options page.
  const opened = context.waitForEvent('page', (page) => page.url().endsWith('/src/options/index.html'));
  await welcome.keyboard.press('Enter');
  const options = await opened;
  await expect(options.getByRole('heading', { name: 'Colab OOM Guard options' })).toBeVisible();
  await options.close();
});

test('follows the light or dark look of the system, like the popup and the options page', async () => {
  const background = () => welcome.evaluate(() => getComputedStyle(document.querySelector('.card')!).backgroundColor);
  await welcome.emulateMedia({ colorScheme: 'light' });
  const light = await background();
  await welcome.emulateMedia({ colorScheme: 'dark' });
  const dark = await background();
  expect(dark).not.toBe(light);
  await screenshot(welcome, 'welcome-dark', { fullPage: true });
  await welcome.emulateMedia({ colorScheme: 'light' });
});
