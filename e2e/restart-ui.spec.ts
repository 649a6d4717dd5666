import { openConnectMenu, type Place, resume, runAll, showDisconnect, type UiOptions, waitForRun } from './colab-sim';
import { expect, test } from './harness/extension';
import { resetStorage, setSettings } from './harness/guard';
import {
  badgeText,
  checkUi,
  commandsChosen,
  EPOCH_DONE,
  type Fixtures,
  historyOf,
  logOf,
  openNotebook,
  pageTimeOrigin,
  record,
  trainNotebook,
} from './harness/matrix';

/**
 * The restart on the simulated Colab with the built extension: "Restart session and run all" through Colab's own
 * UI, exactly once per failure, in every dialog form and label set; the dangerous items and dialogs never accepted; a
 * clear failure state (no loop) when the item is missing or disabled; the "Check Colab UI" dry run. Then a ready
 * kernel and real proof of a run, the dialogs of 2025-26 and dialogs still opening, the connect button's menu, a
 * collapsed or missing header.
 */

test.beforeEach(async ({ serviceWorker }) => {
  await resetStorage(serviceWorker);
  await setSettings(serviceWorker, { backoffBaseSec: 1 });
});

const OOM_ONCE = { 1: { fail: 'cuda-oom' as const }, default: EPOCH_DONE };

/** The guard did nothing it must never do, and left no Runtime menu open. */
async function expectNothingDangerous({ page }: Fixtures) {
  expect(await logOf(page, 'dangerous')).toEqual([]);
  await expect(page.locator('#runtime-menu')).toBeHidden();
}

test.describe('restart and run all, exactly once per failure, and the next run completes', () => {
  const variants: Array<{ name: string; ui: UiOptions; place: Place; dialog: boolean }> = [
    { name: 'mwc-dialog with md-text-button (current)', ui: { dialog: 'mwc' }, place: 'frame', dialog: true },
    { name: 'mwc-dialog with mwc-button (2023-2024)', ui: { dialog: 'mwc-legacy' }, place: 'main', dialog: true },
    { name: 'Material md-dialog with a method=dialog form', ui: { dialog: 'md' }, place: 'frame', dialog: true },
    { name: 'colab-dialog > paper-dialog (until 2023)', ui: { dialog: 'paper' }, place: 'main', dialog: true },
    { name: 'no confirmation dialog', ui: { dialog: 'none' }, place: 'frame', dialog: false },
    { name: 'confirmation asked always', ui: { confirm: 'always', dialog: 'mwc' }, place: 'main', dialog: true },
    { name: 'German UI (items with command attributes)', ui: { labels: 'de' }, place: 'frame', dialog: true },
    {
      name: 'Japanese UI (items with command attributes)',
      ui: { labels: 'ja', dialog: 'md' },
      place: 'main',
      dialog: true,
    },
    {
      name: 'older English labels with accelerators, no toolbar split button',
      ui: { labels: 'en-legacy', dialog: 'paper' },
      place: 'frame',
      dialog: true,
    },
    {
      name: 'items without command attributes, English labels',
      ui: { noCommandAttributes: true },
      place: 'main',
      dialog: true,
    },
  ];
  for (const { name, ui, place, dialog } of variants) {
    test(name, async ({ context, page, serviceWorker }) => {
      const fx = { context, page, serviceWorker };
      const { sim, key } = await openNotebook(
        fx,
        trainNotebook({ 1: { fail: 'cuda-oom', place }, default: EPOCH_DONE }, { ui }),
      );
      const toolbar = ui.labels !== 'en-legacy';
      await runAll(page, toolbar ? 'toolbar' : 'menu');
      expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 1 });
      expect(await waitForRun(page, 2)).toMatchObject({ ok: true });
      await expect.poll(async () => historyOf(await record(serviceWorker, key), 'restarted').length).toBe(1);

      const userRun = toolbar ? 'runall@toolbar' : 'runall@runtime-menu';
      expect(await commandsChosen(page)).toEqual([userRun, 'restart-and-run-all@runtime-menu']);
      const labels = await page.evaluate(
        () => (window as unknown as { __colabSim: { labels: Record<string, string> } }).__colabSim.labels,
      );
      expect((await logOf(page, 'menu-item')).at(-1)?.label).toBe(labels['restart-and-run-all']);
      expect(await logOf(page, 'restart')).toHaveLength(1);
      expect((await logOf(page, 'dialog-open')).map((e) => e.kind)).toEqual(dialog ? ['restart-confirm'] : []);
      expect((await logOf(page, 'dialog-confirm')).map((e) => e.kind)).toEqual(dialog ? ['restart-confirm'] : []);
      await expectNothingDangerous(fx);

      const rec = (await record(serviceWorker, key))!;
      expect(rec.status.kind).toBe('watching');
      expect(rec.totalRestarts).toBe(1);
      expect(historyOf(rec, 'restart-scheduled')).toHaveLength(1);
      expect(historyOf(rec, 'restart-failed')).toEqual([]);
      await sim.dispose();
    });
  }
});

function itemOption(option: 'removeItems' | 'disableItems'): UiOptions {
  return option === 'removeItems'
    ? { removeItems: ['restart-and-run-all'] }
    : { disableItems: ['restart-and-run-all'] };
}

test.describe('a missing or disabled item', () => {
  for (const [option, problem] of [
    ['removeItems', 'item-missing'],
    ['disableItems', 'item-disabled'],
  ] as const) {
    test(`${option}, no toolbar split button: a clear UI problem at the failing step, one attempt, no loop`, async ({
      context,
      page,
      serviceWorker,
    }) => {
      const fx = { context, page, serviceWorker };
      const ui: UiOptions = { ...itemOption(option), toolbarRunButton: false };
      // Every run fails: a guard that retried would restart again after each of them.
      const { sim, key, tabId } = await openNotebook(fx, trainNotebook({ default: { fail: 'cuda-oom' } }, { ui }));
      await page.keyboard.press('Control+F9'); // Run all, as a user does without the toolbar
      expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 1 });
      await expect.poll(async () => (await record(serviceWorker, key))?.status.kind).toBe('ui-problem');
      const rec = (await record(serviceWorker, key))!;
      expect(rec.status).toMatchObject({ failed: { step: 'find-item', reason: problem } });
      expect(historyOf(rec, 'restart-failed')).toHaveLength(1);
      expect(rec.totalRestarts).toBe(0);
      expect(await badgeText(serviceWorker, tabId)).toBe('UI');
      // The notice tells the user which step failed, in words.
      await expect(page.locator('colab-oom-guard-notice .box')).toContainText(
        option === 'removeItems'
          ? 'Could not find Runtime → Restart session and run all.'
          : 'Runtime → Restart session and run all is greyed out',
      );

      // The user runs all again and it fails again: the guard stays stopped until re-armed. Nothing is reported once
      // stopped, so a bounded wait covers back-off (1 s) and reaction time with margin.
      await page.keyboard.press('Control+F9');
      expect(await waitForRun(page, 2)).toMatchObject({ ok: false, failedCell: 1 });
      await page.waitForTimeout(2500);
      expect(await logOf(page, 'menu-open')).toHaveLength(1);
      expect((await logOf(page, 'menu-close')).map((e) => e.menu)).toEqual(['runtime']);
      expect(await commandsChosen(page)).toEqual(['runall@shortcut', 'runall@shortcut']);
      expect(await logOf(page, 'restart')).toEqual([]);
      expect(historyOf(await record(serviceWorker, key), 'restart-failed')).toHaveLength(1);
      await expectNothingDangerous(fx);
      await sim.dispose();
    });

    test(`${option}, with the toolbar split button: the toolbar's "Restart session and run all" is used`, async ({
      context,
      page,
      serviceWorker,
    }) => {
      const fx = { context, page, serviceWorker };
      const ui: UiOptions = { ...itemOption(option), toolbarRunButton: true };
      const { sim, key } = await openNotebook(fx, trainNotebook(OOM_ONCE, { ui }));
      await runAll(page);
      expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 1 });
      expect(await waitForRun(page, 2)).toMatchObject({ ok: true });
      await expect.poll(async () => historyOf(await record(serviceWorker, key), 'restarted').length).toBe(1);
      expect(await commandsChosen(page)).toEqual(['runall@toolbar', 'restart-and-run-all@toolbar']);
      // The Runtime menu was tried first, and closed again before the fallback.
      expect((await logOf(page, 'menu-open')).map((e) => e.menu)).toEqual(['runtime']);
      expect((await logOf(page, 'menu-close')).map((e) => e.menu)).toEqual(['runtime']);
      expect(await logOf(page, 'restart')).toHaveLength(1);
      const rec = (await record(serviceWorker, key))!;
      expect(rec.status.kind).toBe('watching');
      expect(rec.totalRestarts).toBe(1);
      await expectNothingDangerous(fx);
      await sim.dispose();
    });
  }
});

test.describe('dialogs that must never be accepted', () => {
  test('a RAM crash followed by "Switch to a high-RAM runtime?": the offer is declined, then Run all', async ({
    context,
    page,
    serviceWorker,
  }) => {
    const fx = { context, page, serviceWorker };
    const { sim, key } = await openNotebook(
      fx,
      trainNotebook({ 1: { crash: 'ram' }, default: EPOCH_DONE }, { ui: { highRamOffer: true } }),
    );
    await runAll(page);
    expect(await waitForRun(page, 1)).toMatchObject({ ok: false, reason: 'crash' });
    await expect.poll(async () => (await logOf(page, 'dialog-open')).map((e) => e.kind)).toEqual(['high-ram']);
    expect(await waitForRun(page, 2)).toMatchObject({ ok: true });
    await expect.poll(async () => historyOf(await record(serviceWorker, key), 'restarted').length).toBe(1);
    // "No" keeps the runtime; "Yes" (switching runtimes) and "Get more RAM" are never clicked.
    expect((await logOf(page, 'dialog-cancel')).map((e) => e.kind)).toEqual(['high-ram']);
    expect(await logOf(page, 'dialog-confirm')).toEqual([]);
    expect(await logOf(page, 'toast-action')).toEqual([]);
    expect(await logOf(page, 'restart')).toEqual([]);
    expect(await commandsChosen(page)).toEqual(['runall@toolbar', 'runall@runtime-menu']);
    expect((await record(serviceWorker, key))?.status.kind).toBe('watching');
    await expectNothingDangerous(fx);
    await sim.dispose();
  });

  test('"This notebook was not authored by Google" before the run the guard starts', async ({
    context,
    page,
    serviceWorker,
  }) => {
    const fx = { context, page, serviceWorker };
    // No run yet in this page, so the first execution, the guard's Run all after it reconnected the runtime, gets the
    // warning: only a person may accept it. (A crash with no run seen in the page is not acted on.)
    await setSettings(serviceWorker, { backoffBaseSec: 1, reconnectOnDisconnect: true });
    const { sim, key } = await openNotebook(fx, trainNotebook(OOM_ONCE, { ui: { notAuthoredWarning: true } }));
    await showDisconnect(page);
    await expect
      .poll(async () => (await logOf(page, 'dialog-open')).map((e) => e.kind))
      .toEqual(['disconnected', 'not-authored']);
    // Colab queued the cells before asking (they show pending): the guard's Run all started a run, so the reconnect
    // counts as done and the guard watches again. README: the dialog is the user's, and the page's notice says so.
    await expect.poll(async () => historyOf(await record(serviceWorker, key), 'restarted').length).toBe(1);
    expect((await record(serviceWorker, key))?.status.kind).toBe('watching');
    await expect(page.locator('colab-oom-guard-notice .box')).toContainText('not authored by Google');
    expect(await commandsChosen(page)).toEqual(['runall@runtime-menu']);
    // Only the disconnect dialog's Reconnect was answered, the one "dangerous" action the user allowed here.
    expect((await logOf(page, 'dialog-confirm')).map((e) => e.kind)).toEqual(['disconnected']);
    expect(await logOf(page, 'dialog-cancel')).toEqual([]);
    await expect(page.locator('md-dialog[open]')).toBeVisible();
    expect((await logOf(page, 'dangerous')).map((e) => e.what)).toEqual(['reconnect']);
    await expect(page.locator('#runtime-menu')).toBeHidden();
    await sim.dispose();
  });
});

test.describe('Check Colab UI (dry run)', () => {
  test('ready with the default UI; the menu is opened and closed, nothing chosen', async ({
    context,
    page,
    serviceWorker,
  }) => {
    const fx = { context, page, serviceWorker };
    const { sim, tabId } = await openNotebook(fx, trainNotebook(OOM_ONCE));
    const reply = await checkUi(serviceWorker, tabId);
    expect(reply).toMatchObject({ ready: true });
    expect(reply.ready && reply.detail).toContain('Restart session and run all');
    expect((await logOf(page, 'menu-open')).map((e) => e.menu)).toEqual(['runtime']);
    expect((await logOf(page, 'menu-close')).map((e) => e.menu)).toEqual(['runtime']);
    expect(await commandsChosen(page)).toEqual([]);
    expect(await logOf(page, 'dialog-open')).toEqual([]);
    expect(await logOf(page, 'restart')).toEqual([]);
    await expectNothingDangerous(fx);
    await sim.dispose();
  });

  test('not ready when the item is missing, saying so; the menu is closed again', async ({
    context,
    page,
    serviceWorker,
  }) => {
    const fx = { context, page, serviceWorker };
    const { sim, tabId } = await openNotebook(
      fx,
      trainNotebook(OOM_ONCE, { ui: { removeItems: ['restart-and-run-all'] } }),
    );
    const reply = await checkUi(serviceWorker, tabId);
    expect(reply).toMatchObject({ ready: false, failed: { step: 'find-item', reason: 'item-missing' } });
    expect((await logOf(page, 'menu-open')).map((e) => e.menu)).toEqual(['runtime']);
    expect((await logOf(page, 'menu-close')).map((e) => e.menu)).toEqual(['runtime']);
    expect(await commandsChosen(page)).toEqual([]);
    await expectNothingDangerous(fx);
    await sim.dispose();
  });
});

test.describe('a ready kernel, and proof that the run started', () => {
  test('after a RAM crash, Run all waits until the connect button shows the kernel back, and the run starts', async ({
    context,
    page,
    serviceWorker,
  }) => {
    const fx = { context, page, serviceWorker };
    // Colab takes 4 s to bring the kernel back, longer than the 1 s back-off; a Run all before that is ignored.
    const { sim, key } = await openNotebook(
      fx,
      trainNotebook({ 1: { crash: 'ram' }, default: EPOCH_DONE }, { timing: { crashRestartMs: 4000 } }),
    );
    await runAll(page);
    expect(await waitForRun(page, 1)).toMatchObject({ ok: false, reason: 'crash' });
    expect(await waitForRun(page, 2)).toMatchObject({ ok: true });
    await expect.poll(async () => historyOf(await record(serviceWorker, key), 'restarted').length).toBe(1);
    expect(await logOf(page, 'run-ignored')).toEqual([]);
    expect(await commandsChosen(page)).toEqual(['runall@toolbar', 'runall@runtime-menu']);
    const [crash] = await logOf(page, 'crash');
    const back = (await logOf(page, 'kernel', crash!.t)).find((e) => e.state === 'idle');
    const guardRunAll = (await logOf(page, 'menu-item')).at(-1);
    expect(guardRunAll!.t).toBeGreaterThan(back!.t);
    expect((await record(serviceWorker, key))?.status.kind).toBe('watching');
    await expectNothingDangerous(fx);
    await sim.dispose();
  });

  test('"Restart session and run all" counts as done only once cells went pending, not when the restart began', async ({
    context,
    page,
    serviceWorker,
  }) => {
    const fx = { context, page, serviceWorker };
    // A slow restart: the connect button is busy for 3 s before Colab queues the cells.
    const { sim, key } = await openNotebook(fx, trainNotebook(OOM_ONCE, { timing: { restartMs: 3000 } }));
    await runAll(page);
    expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 1 });
    expect(await waitForRun(page, 2)).toMatchObject({ ok: true });
    await expect.poll(async () => historyOf(await record(serviceWorker, key), 'restarted').length).toBe(1);
    const [restarted] = historyOf(await record(serviceWorker, key), 'restarted');
    const started = (await logOf(page, 'run-start')).find((e) => e.run === 2);
    expect(restarted!.at).toBeGreaterThanOrEqual(Math.floor((await pageTimeOrigin(page)) + started!.t));
    await expectNothingDangerous(fx);
    await sim.dispose();
  });
});

test.describe('the dialogs of 2025-26', () => {
  for (const kind of ['pip-restart', 'new-runtime-required', 'drive-permission'] as const) {
    test(`${kind} where the restart confirmation would be: refused, never clicked, the page names it`, async ({
      context,
      page,
      serviceWorker,
    }) => {
      const fx = { context, page, serviceWorker };
      const { sim, key } = await openNotebook(fx, trainNotebook(OOM_ONCE, { ui: { restartDialog: kind } }));
      await runAll(page);
      expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 1 });
      await expect.poll(async () => (await record(serviceWorker, key))?.status.kind).toBe('ui-problem');
      const rec = (await record(serviceWorker, key))!;
      expect(rec.status).toMatchObject({ failed: { step: 'confirm', reason: 'other-dialog' } });
      expect(rec.status.failed?.saw).toMatch(new RegExp(`^${kind}; `));
      expect(await commandsChosen(page)).toEqual(['runall@toolbar', 'restart-and-run-all@runtime-menu']);
      expect((await logOf(page, 'dialog-open')).map((e) => e.kind)).toEqual([kind]);
      expect(await logOf(page, 'dialog-confirm')).toEqual([]);
      expect(await logOf(page, 'dialog-cancel')).toEqual([]);
      expect(await logOf(page, 'restart')).toEqual([]);
      await expect(page.locator('mwc-dialog[open]')).toBeVisible();
      await expect(page.locator('colab-oom-guard-notice .box')).toContainText(kind);
      await expectNothingDangerous(fx);
      await sim.dispose();
    });
  }

  test('a confirmation still opening (colab-dialog-opening) is clicked once its animation ends', async ({
    context,
    page,
    serviceWorker,
  }) => {
    const fx = { context, page, serviceWorker };
    const { sim, key } = await openNotebook(fx, trainNotebook(OOM_ONCE, { ui: { dialogOpeningMs: 1500 } }));
    await runAll(page);
    expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 1 });
    expect(await waitForRun(page, 2)).toMatchObject({ ok: true });
    await expect.poll(async () => historyOf(await record(serviceWorker, key), 'restarted').length).toBe(1);
    expect(await logOf(page, 'dialog-click-lost')).toEqual([]);
    expect((await logOf(page, 'dialog-confirm')).map((e) => e.kind)).toEqual(['restart-confirm']);
    expect(await logOf(page, 'restart')).toHaveLength(1);
    await expectNothingDangerous(fx);
    await sim.dispose();
  });

  test('the high-RAM offer still opening is declined once it has opened; then Run all', async ({
    context,
    page,
    serviceWorker,
  }) => {
    const fx = { context, page, serviceWorker };
    const { sim, key } = await openNotebook(
      fx,
      trainNotebook(
        { 1: { crash: 'ram' }, default: EPOCH_DONE },
        { ui: { highRamOffer: true, dialogOpeningMs: 2000 } },
      ),
    );
    await runAll(page);
    expect(await waitForRun(page, 1)).toMatchObject({ ok: false, reason: 'crash' });
    expect(await waitForRun(page, 2)).toMatchObject({ ok: true });
    await expect.poll(async () => historyOf(await record(serviceWorker, key), 'restarted').length).toBe(1);
    expect(await logOf(page, 'dialog-click-lost')).toEqual([]);
    expect((await logOf(page, 'dialog-cancel')).map((e) => e.kind)).toEqual(['high-ram']);
    expect(await logOf(page, 'dialog-confirm')).toEqual([]);
    await expectNothingDangerous(fx);
    await sim.dispose();
  });
});

test.describe("the connect button's menu", () => {
  for (const runtimeMenuId of [true, false]) {
    const name = `left open by the user, nothing in it is activated${runtimeMenuId ? '' : ' (no #runtime-menu id)'}`;
    test(name, async ({ context, page, serviceWorker }) => {
      const fx = { context, page, serviceWorker };
      // The failing run waits at a pause until the connect menu is open: the OOM comes with the menu open.
      const runs = { 1: { pause: true, fail: 'cuda-oom' as const }, default: EPOCH_DONE };
      const { sim, key } = await openNotebook(fx, trainNotebook(runs, { ui: { runtimeMenuId } }));
      await runAll(page);
      const menu = await openConnectMenu(page);
      await resume(page);
      expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 1 });
      expect(await waitForRun(page, 2)).toMatchObject({ ok: true });
      await expect.poll(async () => historyOf(await record(serviceWorker, key), 'restarted').length).toBe(1);
      expect(await commandsChosen(page)).toEqual(['runall@toolbar', 'restart-and-run-all@runtime-menu']);
      // Closure closed the connect menu when the guard pressed the Runtime button, as it does for a person.
      expect((await logOf(page, 'menu-close')).filter((e) => e.menu === 'connect').map((e) => e.reason)).toEqual([
        'outside',
      ]);
      await expect(menu).toBeHidden();
      expect((await logOf(page, 'dialog-open')).map((e) => e.kind)).toEqual(['restart-confirm']);
      await expectNothingDangerous(fx);
      await sim.dispose();
    });
  }
});

test.describe('a collapsed or missing header', () => {
  for (const header of ['collapsed', 'missing'] as const) {
    test(`${header}: the toolbar's "Restart session and run all"; the header is left as it is`, async ({
      context,
      page,
      serviceWorker,
    }) => {
      const fx = { context, page, serviceWorker };
      const { sim, key } = await openNotebook(fx, trainNotebook(OOM_ONCE, { ui: { header } }));
      await runAll(page);
      expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 1 });
      expect(await waitForRun(page, 2)).toMatchObject({ ok: true });
      await expect.poll(async () => historyOf(await record(serviceWorker, key), 'restarted').length).toBe(1);
      expect(await commandsChosen(page)).toEqual(['runall@toolbar', 'restart-and-run-all@toolbar']);
      expect(await logOf(page, 'menu-open')).toEqual([]);
      expect(await logOf(page, 'header-toggle')).toEqual([]);
      expect((await logOf(page, 'dialog-confirm')).map((e) => e.kind)).toEqual(['restart-confirm']);
      await expectNothingDangerous(fx);
      await sim.dispose();
    });
  }

  test('collapsed, after a RAM crash: Run all from the toolbar', async ({ context, page, serviceWorker }) => {
    const fx = { context, page, serviceWorker };
    const runs = { 1: { crash: 'ram' as const }, default: EPOCH_DONE };
    const { sim, key } = await openNotebook(fx, trainNotebook(runs, { ui: { header: 'collapsed' } }));
    await runAll(page);
    expect(await waitForRun(page, 1)).toMatchObject({ ok: false, reason: 'crash' });
    expect(await waitForRun(page, 2)).toMatchObject({ ok: true });
    await expect.poll(async () => historyOf(await record(serviceWorker, key), 'restarted').length).toBe(1);
    expect(await commandsChosen(page)).toEqual(['runall@toolbar', 'runall@toolbar']);
    expect(await logOf(page, 'menu-open')).toEqual([]);
    await sim.dispose();
  });

  test('collapsed, and no toolbar split button: a UI problem that names the collapsed header', async ({
    context,
    page,
    serviceWorker,
  }) => {
    const fx = { context, page, serviceWorker };
    const ui: UiOptions = { header: 'collapsed', toolbarRunButton: false };
    const { sim, key } = await openNotebook(fx, trainNotebook(OOM_ONCE, { ui }));
    await page.keyboard.press('Control+F9');
    expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 1 });
    await expect.poll(async () => (await record(serviceWorker, key))?.status.kind).toBe('ui-problem');
    const rec = (await record(serviceWorker, key))!;
    expect(rec.status).toMatchObject({ failed: { step: 'open-menu', reason: 'header-collapsed' } });
    expect(rec.status.failed?.saw).toContain('toolbar fallback: toolbar-missing');
    await expect(page.locator('colab-oom-guard-notice .box')).toContainText("Colab's header is collapsed");
    expect(await logOf(page, 'menu-open')).toEqual([]);
    expect(await logOf(page, 'header-toggle')).toEqual([]);
    expect(await commandsChosen(page)).toEqual(['runall@shortcut']);
    await expectNothingDangerous(fx);
    await sim.dispose();
  });

  test('Check Colab UI with the header collapsed: ready through the toolbar, nothing chosen', async ({
    context,
    page,
    serviceWorker,
  }) => {
    const fx = { context, page, serviceWorker };
    const { sim, tabId } = await openNotebook(fx, trainNotebook(OOM_ONCE, { ui: { header: 'collapsed' } }));
    const reply = await checkUi(serviceWorker, tabId);
    expect(reply).toMatchObject({ ready: true });
    expect(reply.ready && reply.detail).toContain(
      'header-collapsed: "Restart session and run all" found by command in the toolbar',
    );
    expect(await commandsChosen(page)).toEqual([]);
    expect(await logOf(page, 'menu-open')).toEqual([]);
    await sim.dispose();
  });
});
