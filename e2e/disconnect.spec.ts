import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  type DialogKind,
  runAll,
  showDialog,
  showDisconnect,
  triggerCrash,
  waitForKernel,
  waitForRun,
} from './colab-sim';
import { expect, test } from './harness/extension';
import { resetStorage, setSettings } from './harness/guard';
import { commandsChosen, EPOCH_DONE, historyOf, logOf, openNotebook, record, trainNotebook } from './harness/matrix';

/**
 * Issue 4's optional disconnect handling on the simulated Colab: with "Reconnect and run all" switched on, the
 * "Runtime disconnected" dialog gets Reconnect and then Runtime → Run all; switched off (the default), nothing is
 * touched. Dialogs only a person may answer (usage limits, and those of 2025-26: issue 14.3) are never clicked: the
 * guard says so in the page, and a restart due meanwhile stops at a UI problem that names the dialog.
 */

const MESSAGES: Record<string, { message: string }> = JSON.parse(
  readFileSync(resolve(import.meta.dirname, '../public/_locales/en/messages.json'), 'utf8'),
);
const words = (key: string) => MESSAGES[key]!.message;

test.beforeEach(async ({ serviceWorker }) => {
  await resetStorage(serviceWorker);
});

test('switched on: "Runtime disconnected" gets Reconnect, then Run all, once', async ({
  context,
  page,
  serviceWorker,
}) => {
  await setSettings(serviceWorker, { backoffBaseSec: 1, reconnectOnDisconnect: true });
  const { sim, key } = await openNotebook({ context, page, serviceWorker }, trainNotebook({ default: EPOCH_DONE }));
  await showDisconnect(page);
  await waitForKernel(page, 'disconnected');
  await expect.poll(async () => historyOf(await record(serviceWorker, key), 'restarted').length).toBe(1);
  expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
  // Reconnect is the one "dangerous" action the user allowed here; nothing else was accepted.
  expect((await logOf(page, 'dangerous')).map((e) => e.what)).toEqual(['reconnect']);
  expect(await commandsChosen(page)).toEqual(['runall@runtime-menu']);
  expect(await logOf(page, 'restart')).toEqual([]);
  const rec = (await record(serviceWorker, key))!;
  expect(historyOf(rec, 'restart-scheduled').map((e) => [e.action, e.verdict?.rule])).toEqual([
    ['reconnect-and-run-all', 'runtime-disconnected'],
  ]);
  expect(rec.status.kind).toBe('watching');
  await sim.dispose();
});

test('switched off (the default): the dialog is left to the user', async ({ context, page, serviceWorker }) => {
  await setSettings(serviceWorker, { backoffBaseSec: 1 });
  const { sim, key } = await openNotebook({ context, page, serviceWorker }, trainNotebook({ default: EPOCH_DONE }));
  // A run the guard sees, for the crash below to be one of this page's.
  await runAll(page);
  expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
  await showDisconnect(page);
  await waitForKernel(page, 'disconnected');
  // A later crash toast is the sentinel: its Run all (after the 1 s back-off) proves the guard was watching, and
  // that it had scheduled nothing for the disconnect.
  await triggerCrash(page);
  await expect
    .poll(async () => historyOf(await record(serviceWorker, key), 'restart-scheduled').map((e) => e.verdict?.rule))
    .toHaveLength(1);
  const [scheduled] = historyOf(await record(serviceWorker, key), 'restart-scheduled');
  expect(scheduled?.verdict?.rule).not.toBe('runtime-disconnected');
  expect(scheduled?.verdict?.category).toBe('colab-crash');
  expect(await logOf(page, 'dangerous')).toEqual([]);
  await expect(page.locator('mwc-dialog[open]')).toHaveAttribute('heading', 'Runtime disconnected');
  await sim.dispose();
});

test('a usage-limit dialog is never clicked; the page notice asks for a person', async ({
  context,
  page,
  serviceWorker,
}) => {
  await setSettings(serviceWorker, { backoffBaseSec: 1, reconnectOnDisconnect: true });
  const { sim, key } = await openNotebook({ context, page, serviceWorker }, trainNotebook({ default: EPOCH_DONE }));
  await runAll(page);
  expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
  await showDialog(page, 'usage-limit');
  await expect(page.locator('colab-oom-guard-notice .box')).toContainText('usage-limit dialog');
  await expect(page.locator('mwc-dialog[open]')).toBeVisible();
  expect(await logOf(page, 'dialog-confirm')).toEqual([]);
  expect(await logOf(page, 'dialog-cancel')).toEqual([]);
  expect(await logOf(page, 'dangerous')).toEqual([]);
  expect(historyOf(await record(serviceWorker, key), 'restart-scheduled')).toEqual([]);
  await sim.dispose();
});

test.describe('the dialogs of 2025-26 (REFERENCE 11.2) are left to the user, who is told what waits', () => {
  const cases: Array<[DialogKind, string | null, string]> = [
    ['drive-permission', 'noticeDrivePermission', 'Permit this notebook to access your Google Drive files?'],
    ['new-runtime-required', 'noticeNewRuntime', 'New runtime required'],
    ['disallowed-code', 'noticeDisallowedCode', 'You may be executing code that is disallowed'],
    ['cannot-save', 'noticeCannotSave', 'Cannot save changes'],
    ['pip-restart', 'noticePipRestart', 'previously imported in this runtime'],
    // Opened by a person, who is there to answer it: no notice, but never touched either.
    ['change-runtime-type', null, 'Changing runtime attributes may terminate your current session'],
  ];
  for (const [kind, key, text] of cases) {
    test(`${kind}`, async ({ context, page, serviceWorker }) => {
      await setSettings(serviceWorker, { backoffBaseSec: 1 });
      const { sim, key: nb } = await openNotebook(
        { context, page, serviceWorker },
        trainNotebook({ default: EPOCH_DONE }),
      );
      const notice = page.locator('colab-oom-guard-notice .box');
      // A run the guard sees, for the crash below to be one of this page's.
      await runAll(page);
      expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
      await showDialog(page, kind);
      if (key) await expect(notice).toContainText(words(key));
      else await expect(notice).toHaveCount(0);
      // A crash behind the dialog: when the restart is due, the guard finds the dialog open and acts on nothing.
      await triggerCrash(page);
      await expect.poll(async () => (await record(serviceWorker, nb))?.status.kind).toBe('ui-problem');
      const rec = (await record(serviceWorker, nb))!;
      expect(rec.status.step).toBe('precheck');
      expect(rec.status.detail).toContain(`dialog-open: ${kind}`);
      await expect(notice).toContainText(`dialog-open: ${kind}`);
      await expect(notice).toContainText(text);
      await expect(page.locator('mwc-dialog[open]')).toBeVisible();
      expect(await logOf(page, 'dialog-confirm')).toEqual([]);
      expect(await logOf(page, 'dialog-cancel')).toEqual([]);
      expect(await logOf(page, 'dangerous')).toEqual([]);
      expect(await commandsChosen(page)).toEqual(['runall@toolbar']);
      expect(await logOf(page, 'menu-open')).toEqual([]);
      await sim.dispose();
    });
  }
});
