import { runAll, waitForRun } from './colab-sim';
import { expect, test } from './harness/extension';
import { resetStorage, setSettings } from './harness/guard';
import {
  checkUi,
  commandsChosen,
  EPOCH_DONE,
  historyOf,
  logOf,
  openNotebook,
  record,
  trainNotebook,
} from './harness/matrix';
import { screenshot } from './harness/screenshots';

/**
 * Colab in other interface languages (REFERENCE §12.3): `?hl=` picks a whole Spanish or Portuguese interface in the
 * simulator (menus, dialogs, notices; only §12.3's labels are Colab's own). Restart and run all goes through Colab's
 * menus by command, or by the labels Colab was seen with, and its confirmation is confirmed by its structure and the
 * action the guard started; the popup and "Check Colab UI" say what the guard reads in English only.
 */

test.beforeEach(async ({ serviceWorker }) => {
  await resetStorage(serviceWorker);
  await setSettings(serviceWorker, { backoffBaseSec: 1 });
});

const OOM_ONCE = trainNotebook({ 1: { fail: 'cuda-oom', place: 'frame' }, default: EPOCH_DONE });

const LANGUAGES = [
  { hl: 'es', lang: 'es', name: /Spanish/, restart: 'Reiniciar sesión y ejecutar todo' },
  { hl: 'pt-BR', lang: 'pt-BR', name: /Portuguese/, restart: 'Reiniciar sessão e executar tudo' },
];

for (const { hl, lang, name, restart } of LANGUAGES) {
  test(`Colab in ${hl}: restart and run all, once; the popup and Check Colab UI say what is English-only`, async ({
    context,
    page,
    serviceWorker,
    sim,
    openPopup,
  }) => {
    const fx = { context, page, serviceWorker, sim };
    const { key, tabId } = await openNotebook(fx, OOM_ONCE, { search: `?hl=${hl}&authuser=0` });
    expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
    await expect(page.locator('#runtime-menu-button .goog-menu-button-caption')).not.toHaveText('Runtime');

    await runAll(page);
    expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 1 });
    expect(await waitForRun(page, 2)).toMatchObject({ ok: true });
    await expect.poll(async () => historyOf(await record(serviceWorker, key), 'restarted').length).toBe(1);
    // The popup's picture tells how the run ended: the page reports it after the run's last cell.
    await expect.poll(async () => historyOf(await record(serviceWorker, key), 'run-finished').length).toBe(1);
    expect(await commandsChosen(page)).toEqual(['runall@toolbar', 'restart-and-run-all@runtime-menu']);
    expect((await logOf(page, 'menu-item')).at(-1)?.label).toBe(restart);
    expect((await logOf(page, 'dialog-confirm')).map((e) => e.kind)).toEqual(['restart-confirm']);
    expect(await logOf(page, 'dangerous')).toEqual([]);

    const check = await checkUi(serviceWorker, tabId);
    expect(check).toMatchObject({ ready: true, language: lang });
    const popup = await openPopup(tabId);
    await popup.setViewportSize({ width: 380, height: 600 });
    const note = popup.locator('.notebook > .language-note');
    await expect(note).toContainText(name);
    await expect(note).toContainText("reads Colab's RAM-crash and disconnect notices in English only");
    await expect(note).toContainText('still catches out-of-memory errors in cell outputs');
    if (hl === 'pt-BR') await screenshot(popup, 'popup-language');
    await popup.getByRole('button', { name: 'Check Colab UI' }).click();
    await expect(popup.locator('.check .check-result')).toHaveText(/^Ready: /);
    await expect(popup.locator('.check .language-note')).toContainText(name);
    await popup.close();
  });
}

test('Colab in pt, items without command: Restart session and run all is found by its Portuguese label', async ({
  context,
  page,
  serviceWorker,
  sim,
}) => {
  const fx = { context, page, serviceWorker, sim };
  const scenario = trainNotebook(
    { 1: { fail: 'cuda-oom', place: 'main' }, default: EPOCH_DONE },
    { ui: { noCommandAttributes: true } },
  );
  const { key } = await openNotebook(fx, scenario, { search: '?hl=pt-BR' });
  await runAll(page);
  expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 1 });
  expect(await waitForRun(page, 2)).toMatchObject({ ok: true });
  await expect.poll(async () => historyOf(await record(serviceWorker, key), 'restarted').length).toBe(1);
  expect((await logOf(page, 'menu-item')).at(-1)).toMatchObject({ label: 'Reiniciar sessão e executar tudo' });
  expect(await logOf(page, 'dangerous')).toEqual([]);
});

test('Colab in English: the popup says nothing of languages', async ({
  context,
  page,
  serviceWorker,
  sim,
  openPopup,
}) => {
  const { tabId } = await openNotebook({ context, page, serviceWorker, sim }, OOM_ONCE, { search: '?hl=en' });
  expect(await checkUi(serviceWorker, tabId)).toMatchObject({ ready: true, language: 'en' });
  const popup = await openPopup(tabId);
  await popup.getByRole('button', { name: 'Check Colab UI' }).click();
  await expect(popup.locator('.check .check-result')).toHaveText(/^Ready: /);
  await expect(popup.locator('.language-note')).toHaveCount(0);
  await popup.close();
});
