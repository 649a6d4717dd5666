import { logOf, runAll, waitForRun } from '../e2e/colab-sim/puppeteer';
import { EPOCH_DONE, trainNotebook } from '../e2e/harness/matrix';
import { expect, fill, historyOf, openNotebook, test, waitForText } from './harness/test';

/** The popup (opened as a page for the Colab tab) and the options page of the Firefox package. */

test.beforeEach(async ({ firefox }) => firefox.resetStorage({ backoffBaseSec: 1 }));

const SWITCH = 'input[role=switch]';

test('the popup switches the guard on for the notebook of its tab, and the page follows: an OOM restarts', async ({
  firefox,
  colab,
  sim,
}) => {
  const runs = { 1: { fail: 'cuda-oom' as const, place: 'frame' as const }, default: EPOCH_DONE };
  const { key, tabId } = await openNotebook({ firefox, colab, sim }, trainNotebook(runs), { guard: false });
  // In its own window, as a popup over the Colab tab: the Colab tab stays visible.
  const popup = await firefox.openPage(`src/popup/index.html?tab=${tabId}`, { type: 'window' });
  await waitForText(popup, 'h1', /^train\.ipynb$/);
  const toggle = await popup.waitForSelector(SWITCH);
  expect(await toggle!.evaluate((el) => el.getAttribute('aria-checked'))).toBe('false');
  await waitForText(popup, '.status .headline', /^Not guarded$/);

  // Keyboard only: focus the switch and press Space.
  await toggle!.focus();
  await popup.keyboard.press(' ');
  await popup.waitForFunction((s) => document.querySelector(s)?.getAttribute('aria-checked') === 'true', {}, SWITCH);
  await expect.poll(async () => (await firefox.record(key))?.enabled).toBe(true);
  await expect.poll(() => firefox.badgeText(tabId)).toBe('ON');

  await runAll(colab);
  expect(await waitForRun(colab, 2)).toMatchObject({ ok: true });
  expect(await logOf(colab, 'restart')).toHaveLength(1);
  await expect.poll(async () => historyOf(await firefox.record(key), 'restarted').length).toBe(1);
  await waitForText(popup, '.events', /Restarted and ran all cells/);
  // The status box: what happened to the run, and what the next failure brings.
  await waitForText(popup, '.status .happened', /^Run finished at .+ after 1 restart$/);
  await waitForText(popup, '.status .next', /^2 of 3 restarts left; the next one after a 2 s countdown$/);
  await popup.close();
});

test('"Check Colab UI" in the popup runs the dry run in the Colab tab: the menu opens, closes, nothing chosen', async ({
  firefox,
  colab,
  sim,
}) => {
  const { tabId } = await openNotebook({ firefox, colab, sim }, trainNotebook({ default: EPOCH_DONE }), {
    guard: false,
  });
  // A popup in a tab, as on Firefox for Android: Firefox gives its messages a sender.tab.
  const popup = await firefox.openPage(`src/popup/index.html?tab=${tabId}`);
  await popup.click('::-p-aria([name="Check Colab UI"][role="button"])');
  await waitForText(popup, '.check [role=status]', /^Ready: /);
  expect(await logOf(colab, 'menu-open')).toHaveLength(1);
  // Closed again with Escape (a key event the content script made, read by Closure's keyCode).
  expect((await logOf(colab, 'menu-close')).map((e) => e.reason)).toEqual(['escape']);
  expect(await logOf(colab, 'menu-item')).toEqual([]);
  await popup.close();
});

test('the options page saves a failure pattern, and "Test an output" judges text with it', async ({ firefox }) => {
  const page = await firefox.openPage('src/options/index.html');
  const patterns = '::-p-aria([name="Your failure patterns"][role="textbox"])';
  await fill(page, patterns, 'MyTrainer: ran out of budget\n(unclosed');
  await waitForText(page, 'body', /Line 2: This is not a valid regular expression/);
  await page.click('::-p-aria([name="Save failure patterns"][role="button"])');
  await waitForText(page, '[role=alert]', /^Not saved: fix the lines listed above first\.$/);
  expect(await settings(firefox)).not.toHaveProperty('failurePatterns');

  await fill(page, patterns, 'MyTrainer: ran out of budget\n/budget exceeded/i');
  await page.click('::-p-aria([name="Save failure patterns"][role="button"])');
  await waitForText(page, 'body', /Saved \(2 patterns\)\./);
  await expect
    .poll(async () => (await settings(firefox))?.failurePatterns)
    .toEqual(['MyTrainer: ran out of budget', '/budget exceeded/i']);

  const tester = '::-p-aria([name="Test an output"][role="textbox"])';
  await fill(page, tester, 'RuntimeError: Budget exceeded at step 400');
  await waitForText(page, '#tester-verdict', /^Would restart: Your failure pattern \/budget exceeded\/i/);
  await fill(page, tester, 'ValueError: operands could not be broadcast together');
  await waitForText(page, '#tester-verdict', /^Would not restart/);
  await page.close();
});

async function settings(firefox: import('./harness/firefox').Firefox) {
  return firefox.evaluate(async () => (await browser.storage.local.get('settings')).settings, null) as Promise<
    Record<string, unknown> | undefined
  >;
}
