import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { BLIND_AFTER_MS } from '../src/limits';
import {
  type DialogKind,
  runAll,
  type Scenario,
  setOutage,
  setStuckReconnecting,
  showDialog,
  showDisconnect,
  simState,
  triggerCrash,
  waitForKernel,
  waitForRun,
} from './colab-sim';
import { expect, test } from './harness/extension';
import { resetStorage, setSettings } from './harness/guard';
import {
  commandsChosen,
  EPOCH_DONE,
  type Fixtures,
  historyOf,
  logOf,
  openNotebook,
  record,
  trainNotebook,
} from './harness/matrix';

/**
 * The optional disconnect handling on the simulated Colab: with "Reconnect and run all" switched on, the
 * "Runtime disconnected" dialog of an idle time-out gets Reconnect and then Runtime → Run all; switched off (the
 * default), nothing is touched. Dialogs only a person may answer (usage limits, and those of 2025-26) are
 * never clicked: the guard says so in the page, and a restart due meanwhile stops at a UI problem that names the
 * dialog. A disconnect Colab or the notebook meant is never answered, whatever its title; an outage gets
 * one counted reconnect per crash-loop slot; the connect button stuck on "Reconnecting" gets nothing.
 */

const MESSAGES: Record<string, { message: string }> = JSON.parse(
  readFileSync(resolve(import.meta.dirname, '../public/_locales/en/messages.json'), 'utf8'),
);
const words = (key: string) => MESSAGES[key]!.message;

/** With `settings` (the option on), opens a training notebook and runs it once, as the night's run. */
async function trainedNotebook(
  fx: Fixtures,
  settings: Record<string, unknown>,
  scenario = trainNotebook({ default: EPOCH_DONE }),
) {
  await setSettings(fx.serviceWorker, { reconnectOnDisconnect: true, ...settings });
  const opened = await openNotebook(fx, scenario);
  await runAll(fx.page);
  expect(await waitForRun(fx.page, 1)).toMatchObject({ ok: true });
  return opened;
}

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
      expect(rec.status).toMatchObject({ failed: { step: 'precheck', reason: kind } });
      // What the step saw, Colab's dialog, in Colab's words; the step's id and machine reason only in Copy diagnostics.
      await expect(notice).toContainText('Colab said: “');
      await expect(notice).toContainText(text);
      await expect(notice).not.toContainText('dialog-open');
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

test.describe('disconnects Colab or the notebook meant are left to the person, with the option on', () => {
  const notice = (page: import('@playwright/test').Page) => page.locator('colab-oom-guard-notice .box');

  for (const [reason, rule, said, why] of [
    [
      'disallowed-code',
      'disconnected-disallowed-code',
      'disallowed in our free of charge tier',
      'noticeLeftDisallowedCode',
    ],
    ['zero-units', 'disconnected-zero-units', 'zero compute units available', 'noticeLeftZeroUnits'],
  ] as const) {
    test(`${reason}: "Runtime disconnected" by title, never reconnected; the notice and the history say why`, async ({
      context,
      page,
      serviceWorker,
      sim,
    }) => {
      const { key } = await trainedNotebook({ context, page, serviceWorker, sim }, { backoffBaseSec: 1 });
      await showDisconnect(page, reason);
      await expect.poll(async () => historyOf(await record(serviceWorker, key), 'left-to-person')).toHaveLength(1);
      const rec = (await record(serviceWorker, key))!;
      // Written by the same step that would have scheduled a reconnect: none was.
      expect(historyOf(rec, 'left-to-person')[0]?.verdict).toMatchObject({ rule, line: expect.stringContaining(said) });
      expect(historyOf(rec, 'restart-scheduled')).toEqual([]);
      expect(rec.status.kind).toBe('watching');
      await expect(notice(page)).toContainText(words(why));
      await expect(notice(page)).toContainText(said);
      await expect(page.locator('mwc-dialog[open]')).toHaveAttribute('heading', 'Runtime disconnected');
      expect(await logOf(page, 'dangerous')).toEqual([]);
      expect(await logOf(page, 'dialog-confirm')).toEqual([]);
      expect(await logOf(page, 'connect-click')).toEqual([]);
    });
  }

  test('a countdown due when Colab disconnects for disallowed code is cancelled: nothing runs the code again', async ({
    context,
    page,
    serviceWorker,
    sim,
  }) => {
    await setSettings(serviceWorker, { backoffBaseSec: 600, reconnectOnDisconnect: true });
    const { key } = await openNotebook({ context, page, serviceWorker, sim }, trainNotebook({ default: EPOCH_DONE }));
    // A crash needs a run the guard saw in this page.
    await runAll(page);
    expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
    await triggerCrash(page);
    await expect.poll(async () => (await record(serviceWorker, key))?.status.kind).toBe('pending');
    await showDisconnect(page, 'disallowed-code');
    await expect.poll(async () => (await record(serviceWorker, key))?.status.kind).toBe('watching');
    expect(historyOf(await record(serviceWorker, key), 'left-to-person')[0]?.params).toEqual({
      why: 'disconnect',
      cancelled: true,
    });
    await expect(notice(page)).toContainText(words('noticeLeftDisallowedCode'));
    expect(await logOf(page, 'dangerous')).toEqual([]);
  });

  test('a notebook that calls google.colab.runtime.unassign() stays ended', async ({
    context,
    page,
    serviceWorker,
    sim,
  }) => {
    await setSettings(serviceWorker, { backoffBaseSec: 1, reconnectOnDisconnect: true });
    const scenario: Scenario = trainNotebook(
      { default: EPOCH_DONE },
      {
        cells: [
          {
            id: 'finish',
            source: 'from google.colab import runtime\nruntime.unassign()',
            runs: { default: { steps: [{ unassign: true }] } },
          },
        ],
      },
    );
    const { key } = await openNotebook({ context, page, serviceWorker, sim }, scenario);
    await runAll(page);
    await expect.poll(async () => (await logOf(page, 'unassign')).length).toBe(1);
    await expect.poll(async () => historyOf(await record(serviceWorker, key), 'left-to-person')).toHaveLength(1);
    const rec = (await record(serviceWorker, key))!;
    expect(historyOf(rec, 'left-to-person')[0]).toMatchObject({
      params: { why: 'disconnect' },
      verdict: { rule: 'runtime-ended-by-notebook', line: expect.stringContaining('Runtime disconnected') },
    });
    expect(historyOf(rec, 'restart-scheduled')).toEqual([]);
    await expect(notice(page)).toContainText(words('noticeLeftIntended'));
    await expect(page.locator('mwc-dialog[open]')).toHaveAttribute('heading', 'Runtime disconnected');
    expect(await logOf(page, 'dangerous')).toEqual([]);
    expect(await logOf(page, 'connect-click')).toEqual([]);
    expect((await simState(page)).kernel).toBe('disconnected');
  });
});

/**
 * colabtools#5622: the connect button stuck on "Reconnecting" while the runtime goes on running code. Run states the
 * guard cannot read (drifted markup) leave only the connect button to judge blindness by: with it showing the runtime
 * busy the same minutes are reported blind (fresh-failures.spec.ts, 13.6); "Reconnecting" is no busy runtime, and no
 * disconnect either.
 */
test('the connect button stuck on "Reconnecting" while code runs: no action, detection not called blind', async ({
  context,
  page,
  serviceWorker,
  sim,
}) => {
  await setSettings(serviceWorker, { backoffBaseSec: 1, reconnectOnDisconnect: true });
  const { key } = await openNotebook(
    { context, page, serviceWorker, sim },
    trainNotebook({ default: { hang: true } }, { ui: { runStateMarkup: 'drifted' } }),
  );
  await runAll(page);
  await expect.poll(async () => (await simState(page)).cells[1]?.state).toBe('running');
  await expect(page.locator('colab-connect-button #connect-icon md-icon')).toHaveText('more_horiz');
  await setStuckReconnecting(page, true);
  await expect(page.locator('colab-connect-button #connect')).toContainText('Reconnecting');
  // Two minutes and more of the page's time (Chromium's virtual time runs the page's timers, then pauses the page).
  const cdp = await context.newCDPSession(page);
  const expired = new Promise((resolve) => cdp.once('Emulation.virtualTimeBudgetExpired', resolve));
  await cdp.send('Emulation.setVirtualTimePolicy', { policy: 'advance', budget: BLIND_AFTER_MS + 10_000 });
  await expired;
  expect((await simState(page)).cells[1]?.state).toBe('running');
  const rec = (await record(serviceWorker, key))!;
  expect(rec.blindSince).toBeUndefined();
  expect(rec.history).toEqual([]);
  expect(await logOf(page, 'connect-click')).toEqual([]);
  expect(await commandsChosen(page)).toEqual(['runall@toolbar']);
  expect(await logOf(page, 'dangerous')).toEqual([]);
});

test.describe('an outage: "Unable to connect to the runtime"', () => {
  test('one counted reconnect per crash-loop slot, the countdown shown, then the guard gives up in words', async ({
    context,
    page,
    serviceWorker,
    sim,
    openPopup,
  }) => {
    const fx = { context, page, serviceWorker, sim };
    const { key, tabId } = await trainedNotebook(fx, { backoffBaseSec: 1, maxRestarts: 2 });
    await setOutage(page, true);
    await expect(page.locator('colab-oom-guard-notice .box')).toContainText(
      'Colab could not connect to the runtime: reconnect and run all in',
    );
    await expect.poll(async () => (await record(serviceWorker, key))?.status.kind, { timeout: 20_000 }).toBe('gave-up');
    const rec = (await record(serviceWorker, key))!;
    expect(await logOf(page, 'connect-click')).toHaveLength(2);
    expect(await logOf(page, 'connect-failed')).toHaveLength(2);
    expect(historyOf(rec, 'restart-scheduled').map((e) => [e.action, e.verdict?.rule])).toEqual([
      ['reconnect-and-run-all', 'unable-to-connect'],
      ['reconnect-and-run-all', 'unable-to-connect'],
    ]);
    expect(historyOf(rec, 'restart-failed')).toHaveLength(2);
    expect(historyOf(rec, 'gave-up')[0]?.params).toEqual({ why: 'unable-to-connect', n: 2, max: 2 });
    expect(rec.loopCount).toBe(2);
    await expect(page.locator('colab-oom-guard-notice .box')).toContainText(
      'Colab could not connect to a runtime in 2 attempts',
    );
    const popup = await openPopup(tabId);
    await expect(popup.locator('.status')).toContainText('Gave up: Colab could not connect to a runtime (2 attempts)');
    await popup.close();
    expect(await logOf(page, 'dangerous')).toEqual([]);
    // The test's own Run all, and no other.
    expect(await commandsChosen(page)).toEqual(['runall@toolbar']);
  });

  test('when Colab is back by the next slot, that reconnect runs all', async ({
    context,
    page,
    serviceWorker,
    sim,
  }) => {
    const { key } = await trainedNotebook({ context, page, serviceWorker, sim }, { backoffBaseSec: 3 });
    await setOutage(page, true);
    await expect
      .poll(async () => historyOf(await record(serviceWorker, key), 'restart-failed'), { timeout: 20_000 })
      .toHaveLength(1);
    // The next slot's attempt waits its back-off (6 s): Colab is back before it.
    await setOutage(page, false);
    await expect
      .poll(async () => historyOf(await record(serviceWorker, key), 'restarted'), { timeout: 20_000 })
      .toHaveLength(1);
    expect(await waitForRun(page, 2)).toMatchObject({ ok: true });
    const rec = (await record(serviceWorker, key))!;
    expect(rec.loopCount).toBe(2);
    expect(rec.status.kind).toBe('watching');
    expect(await logOf(page, 'connect-click')).toHaveLength(2);
    expect(await logOf(page, 'connect-failed')).toHaveLength(1);
    expect(await commandsChosen(page)).toEqual(['runall@toolbar', 'runall@runtime-menu']);
    expect(await logOf(page, 'dangerous')).toEqual([]);
  });
});

test('a reconnect landing on a fresh machine stops at its Drive permission request, and the popup says so', async ({
  context,
  page,
  serviceWorker,
  sim,
  openPopup,
}) => {
  const scenario: Scenario = {
    title: 'train.ipynb',
    cells: [
      {
        id: 'mount',
        source: "from google.colab import drive\ndrive.mount('/content/drive')",
        // Authorised on the first machine; the one a reconnect lands on asks again.
        runs: { 1: EPOCH_DONE, default: { steps: [{ driveMount: true }] } },
      },
      { id: 'train', source: 'train()', runs: { default: EPOCH_DONE } },
    ],
  };
  const fx = { context, page, serviceWorker, sim };
  const { key, tabId } = await trainedNotebook(fx, { backoffBaseSec: 1 }, scenario);
  await showDisconnect(page);
  await expect.poll(async () => historyOf(await record(serviceWorker, key), 'restarted')).toHaveLength(1);
  await expect(page.locator('mwc-dialog[open]')).toHaveAttribute(
    'heading',
    'Permit this notebook to access your Google Drive files?',
  );
  await expect.poll(async () => historyOf(await record(serviceWorker, key), 'left-to-person')).toHaveLength(1);
  expect(historyOf(await record(serviceWorker, key), 'left-to-person')[0]?.params).toMatchObject({
    why: 'dialog',
    dialog: 'drive-permission',
    saw: expect.stringMatching(/^Permit this notebook/),
  });
  await expect(page.locator('colab-oom-guard-notice .box')).toContainText(words('noticeDrivePermission'));
  const popup = await openPopup(tabId);
  await expect(popup.locator('.events li').first()).toContainText(
    `Colab waits for you: ${words('noticeDrivePermission')}`,
  );
  await popup.close();
  expect((await logOf(page, 'dangerous')).map((e) => e.what)).toEqual(['reconnect']);
  expect(await logOf(page, 'drive-mount')).toEqual([]);
  expect((await record(serviceWorker, key))?.loopCount).toBe(1);
});
