import {
  holdMirror,
  releaseMirror,
  resume,
  runAll,
  type Scenario,
  showLazyOutputs,
  simLog,
  simState,
  waitForKernel,
  waitForRole,
  waitForRun,
} from './colab-sim';
import { expect, test } from './harness/extension';
import { resetStorage, setSettings, waitForGuard, waitForWatching } from './harness/guard';
import {
  badgeText,
  checkUi,
  EPOCH_DONE,
  expectNothingBeforeSentinel,
  type Fixtures,
  historyOf,
  logOf,
  openNotebook,
  pageTimeOrigin,
  record,
  trainNotebook,
  waitForHelloDone,
} from './harness/matrix';

/**
 * Fresh failures on the simulated Colab with the built extension: the guard acts only on a fresh failure. Saved and
 * stale errors, a notebook restarting its own kernel, error-looking output of a cell that goes on, and a second tab
 * showing the same failure after the restart it caused are all left alone; what it cannot see, it says.
 * Negative cases end with the sentinel (harness/matrix.ts): a RAM crash whose Run all comes first had the guard not
 * acted before.
 */

test.beforeEach(async ({ serviceWorker }) => {
  await resetStorage(serviceWorker);
  await setSettings(serviceWorker, { backoffBaseSec: 1 });
});

const ALREADY_HANDLED = 'already-handled';

test.describe('a saved error that appears without a run', () => {
  for (const place of ['main', 'frame'] as const) {
    test(`a cell scrolled into view with its saved OOM and a stale error state (${place})`, async ({
      context,
      page,
      serviceWorker,
      sim,
    }) => {
      const fx = { context, page, serviceWorker, sim };
      const scenario: Scenario = {
        title: 'yesterday.ipynb',
        savedOutputs: 'lazy',
        cells: [
          { id: 'setup', source: 'import torch', runs: { default: EPOCH_DONE } },
          { id: 'train', source: 'train()', saved: { count: 3, fail: 'cuda-oom', place } },
        ],
      };
      const { key } = await openNotebook(fx, scenario);
      // The user ran a cell today: the guard watches executions; then scrolls down to yesterday's error.
      await page.locator('#cell-setup #run-button').click();
      expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
      expect(await showLazyOutputs(page)).toEqual([1]);
      const train = page.locator('#cell-train');
      await expect(train.locator('colab-run-button .cell-execution')).toHaveClass('cell-execution stale error');
      const output = place === 'main' ? train : page.frameLocator('#cell-train iframe').locator('#output-body');
      await expect(output).toContainText('CUDA out of memory');
      await expectNothingBeforeSentinel(fx, key);
    });
  }
});

test.describe('a notebook restarting its own kernel ("crashed for an unknown reason")', () => {
  const selfRestarting = (): Scenario => ({
    title: 'install.ipynb',
    cells: [
      {
        id: 'install',
        source: '!pip install transformers==4.57.1\nimport os; os.kill(os.getpid(), 9)',
        runs: { 1: { selfRestart: true } },
      },
      { id: 'train', source: 'train()', runs: { default: EPOCH_DONE } },
    ],
  });

  test('by default: no Run all (it would run the self-restarting cell again)', async ({
    context,
    page,
    serviceWorker,
    sim,
  }) => {
    const fx = { context, page, serviceWorker, sim };
    const { key } = await openNotebook(fx, selfRestarting());
    await runAll(page);
    expect(await waitForRun(page, 1)).toMatchObject({ ok: false, reason: 'crash' });
    await expect(page.locator('colab-snackbar#message-area')).toHaveAttribute(
      'labeltext',
      'Your session crashed for an unknown reason.',
    );
    await waitForKernel(page, 'idle');
    await expectNothingBeforeSentinel(fx, key);
  });

  test('with its category switched on: Run all once, and the run completes', async ({
    context,
    page,
    serviceWorker,
    sim,
  }) => {
    await setSettings(serviceWorker, { backoffBaseSec: 1, categories: { 'colab-crash-unknown': true } });
    const fx = { context, page, serviceWorker, sim };
    const { key } = await openNotebook(fx, selfRestarting());
    await runAll(page);
    expect(await waitForRun(page, 1)).toMatchObject({ ok: false, reason: 'crash' });
    expect(await waitForRun(page, 2)).toMatchObject({ ok: true });
    await expect.poll(async () => historyOf(await record(serviceWorker, key), 'restarted').length).toBe(1);
    const rec = (await record(serviceWorker, key))!;
    expect(historyOf(rec, 'restart-scheduled').map((e) => [e.action, e.verdict?.category])).toEqual([
      ['run-all', 'colab-crash-unknown'],
    ]);
    expect((await logOf(page, 'menu-item')).map((e) => `${e.command}@${e.via}`)).toEqual([
      'runall@toolbar',
      'runall@runtime-menu',
    ]);
    expect(await logOf(page, 'restart')).toEqual([]);
    expect(await logOf(page, 'dangerous')).toEqual([]);
  });
});

test.describe('one execution, one failure, across tabs', () => {
  /** Two tabs on one runtime; the second is the follower, which the test makes show the failure late. */
  async function twoTabs(fx: Fixtures & { sim: NonNullable<Fixtures['sim']> }, scenario: Scenario) {
    const opened = await openNotebook(fx, { ...scenario, sharedKernel: true });
    await waitForRole(fx.page, 'leader');
    const other = await fx.context.newPage();
    await other.goto(`${opened.url}?authuser=1`);
    await waitForRole(other, 'follower');
    const otherTab = await waitForGuard(fx.serviceWorker, other);
    await waitForHelloDone(fx.serviceWorker, otherTab);
    await waitForWatching(fx.serviceWorker, otherTab, opened.key);
    await waitForKernel(other, 'idle');
    return { ...opened, other };
  }

  const training = (ending: { fail: 'cuda-oom'; place: 'main' } | { crash: 'ram' }): Scenario =>
    trainNotebook({ 1: { stream: { lines: 2 }, pause: true, ...ending }, default: EPOCH_DONE });

  for (const [what, ending] of [
    ['an OOM traceback', { fail: 'cuda-oom', place: 'main' }],
    ["Colab's RAM crash toast", { crash: 'ram' }],
  ] as const) {
    test(`${what} shown by a background tab after the restart it caused: noted as handled, no second restart`, async ({
      context,
      page,
      serviceWorker,
      sim,
    }) => {
      const { key, other } = await twoTabs({ context, page, serviceWorker, sim }, training(ending));
      await runAll(page);
      // Both tabs see the training cell run; then the second one falls behind (a background tab).
      await expect(other.locator('#cell-train')).toHaveClass(/\brunning\b/);
      await holdMirror(other);
      await resume(page);
      expect(await waitForRun(page, 1)).toMatchObject({ ok: false });
      // The first tab's report restarts the notebook, and the run after it completes.
      expect(await waitForRun(page, 2)).toMatchObject({ ok: true });
      await expect.poll(async () => historyOf(await record(serviceWorker, key), 'restarted').length).toBe(1);
      // Now the second tab shows the failure: its report comes after the restart, on purpose.
      expect(await releaseMirror(other)).toBeGreaterThan(0);
      await expect
        .poll(async () => historyOf(await record(serviceWorker, key), 'ignored').map((e) => e.params?.why))
        .toEqual([ALREADY_HANDLED]);
      const rec = (await record(serviceWorker, key))!;
      expect(historyOf(rec, 'restart-scheduled')).toHaveLength(1);
      expect(rec.totalRestarts).toBe(1);
      expect(rec.status.kind).toBe('watching');
      expect(await logOf(other, 'menu-item')).toEqual([]);
      expect((await logOf(page, 'menu-item')).filter((e) => e.via !== 'toolbar').map((e) => e.command)).toHaveLength(1);
      expect([...(await logOf(page, 'dangerous')), ...(await logOf(other, 'dangerous'))]).toEqual([]);
      // And the guard still acts on the next failure: the sentinel (the second tab is behind: it reports late).
      await expectNothingBeforeSentinel({ context, page, serviceWorker, sim }, key, [
        'fail' in ending ? 'gpu-oom' : 'colab-crash',
      ]);
      await other.close();
    });
  }
});

test.describe('the error state triggers, the text is evidence', () => {
  for (const place of ['main', 'frame'] as const) {
    test(`error-looking output of a cell that goes on and ends well is not a failure (${place})`, async ({
      context,
      page,
      serviceWorker,
      sim,
    }) => {
      const fx = { context, page, serviceWorker, sim };
      const caught = {
        type: 'error' as const,
        ename: 'OutOfMemoryError',
        evalue: 'CUDA out of memory. Tried to allocate 2.00 GiB',
        continues: true,
        place,
      };
      // The notebook's own HTML, put outside #output-body by its script, with an `error` element in it.
      const html = {
        type: 'display_data' as const,
        html: '<div class="error output-error">OutOfMemoryError: CUDA out of memory (dashboard of the last run)</div>',
        appendToBody: true,
      };
      const outputs = place === 'main' ? [caught] : [caught, html];
      const { key } = await openNotebook(fx, trainNotebook({ 1: { outputs, durationMs: 300 }, default: EPOCH_DONE }));
      await runAll(page);
      expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
      if (place === 'frame') {
        await expect(page.frameLocator('#cell-train iframe').locator('body > .error')).toContainText('CUDA');
      }
      await expectNothingBeforeSentinel(fx, key);
    });
  }
});

test.describe('Run all clears the outputs of queued cells at once', () => {
  test('a failure whose old OOM output was cleared when queued: one restart, verified, and the run completes', async ({
    context,
    page,
    serviceWorker,
    sim,
  }) => {
    const fx = { context, page, serviceWorker, sim };
    const scenario: Scenario = {
      title: 'train.ipynb',
      cells: [
        { id: 'setup', source: 'import torch', runs: { default: EPOCH_DONE } },
        {
          id: 'train',
          source: 'train()',
          saved: { count: 7, fail: 'cuda-oom', place: 'frame' },
          runs: { 1: { pause: true, fail: 'cuda-oom', place: 'frame' }, default: EPOCH_DONE },
        },
      ],
    };
    const { key } = await openNotebook(fx, scenario);
    await expect(page.locator('#cell-train iframe')).toHaveCount(1);
    await runAll(page);
    await expect(page.locator('#cell-train')).toHaveClass(/\brunning\b/);
    await expect(page.locator('#cell-train iframe')).toHaveCount(0); // the saved OOM went when the cell was queued
    await resume(page);
    expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 1 });
    expect(await waitForRun(page, 2)).toMatchObject({ ok: true });
    await expect.poll(async () => historyOf(await record(serviceWorker, key), 'restarted').length).toBe(1);
    expect(historyOf(await record(serviceWorker, key), 'restart-scheduled')).toHaveLength(1);
    expect(historyOf(await record(serviceWorker, key), 'restart-failed')).toEqual([]);
    await expectNothingBeforeSentinel(fx, key, ['gpu-oom']);
  });
});

test.describe('saying when the guard cannot see', () => {
  test('Colab busy for 2 minutes, no cell seen running: the badge and the popup say detection may be blind', async ({
    context,
    page,
    serviceWorker,
    sim,
    openPopup,
  }) => {
    const { key, tabId } = await openNotebook(
      { context, page, serviceWorker, sim },
      trainNotebook({ default: { hang: true } }, { ui: { runStateMarkup: 'drifted' } }),
    );
    expect(await badgeText(serviceWorker, tabId)).toBe('ON');
    await runAll(page);
    await expect.poll(async () => (await simState(page)).cells[1]?.state).toBe('running');
    await expect(page.locator('colab-connect-button #connect-icon md-icon')).toHaveText('more_horiz');
    // The page's clock before the guard's could start: no stretch of "busy, no cell seen" began earlier.
    const loadedAt = await pageTimeOrigin(page);
    // README's 2 minutes (and 10 s to spare) of the page's time without waiting them: Chromium's virtual time runs
    // the page's timers (the content script's too) as fast as they come, then pauses the page.
    const cdp = await context.newCDPSession(page);
    const expired = new Promise((resolve) => cdp.once('Emulation.virtualTimeBudgetExpired', resolve));
    await cdp.send('Emulation.setVirtualTimePolicy', { policy: 'advance', budget: 2 * 60_000 + 10_000 });
    await expired;
    await expect.poll(async () => (await record(serviceWorker, key))?.blindSince).toEqual(expect.any(Number));
    // Not sooner than 2 minutes: the spell began at the earliest when the page loaded (the page's clock says when).
    expect((await record(serviceWorker, key))!.blindSince! - loadedAt).toBeGreaterThanOrEqual(2 * 60_000);
    await expect.poll(() => badgeText(serviceWorker, tabId)).toBe('?');
    const popup = await openPopup(tabId);
    await expect(popup.locator('.status')).toContainText('Detection may be blind');
    await popup.close();
  });

  test('Check Colab UI reports unreadable run states when the run-button markup drifted', async ({
    context,
    page,
    serviceWorker,
    sim,
  }) => {
    const { tabId } = await openNotebook(
      { context, page, serviceWorker, sim },
      trainNotebook({ default: EPOCH_DONE }, { ui: { runStateMarkup: 'drifted' } }),
    );
    expect(await checkUi(serviceWorker, tabId)).toMatchObject({
      ready: false,
      failed: {
        step: 'read-run-states',
        reason: 'no-run-states',
        saw: expect.stringContaining('no cell can be seen running'),
      },
    });
  });

  test('Check Colab UI reports cells it cannot find, and output frames outside their cells', async ({
    context,
    page,
    serviceWorker,
    sim,
  }) => {
    const { tabId } = await openNotebook(
      { context, page, serviceWorker, sim },
      trainNotebook({ default: { outputs: [{ type: 'stream', text: 'epoch 1\n', place: 'frame' }] } }),
    );
    await runAll(page);
    expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
    await expect(page.locator('#cell-train iframe')).toHaveCount(1);
    expect(await checkUi(serviceWorker, tabId)).toMatchObject({
      ready: true,
      detail: expect.stringContaining('2 cells, 2 of 2 run states readable, 1 output frames in their cells'),
    });
    // A release that moves output frames out of the cells' output areas.
    await page.evaluate(() => document.body.append(document.querySelector('#cell-train iframe')!));
    expect(await checkUi(serviceWorker, tabId)).toMatchObject({
      ready: false,
      failed: { step: 'match-output-frames', reason: 'frames-outside-cells' },
    });
    // One that renames the cells.
    await page.evaluate(() => {
      for (const cell of document.querySelectorAll('.cell')) cell.id = `x-${cell.id}`;
    });
    expect(await checkUi(serviceWorker, tabId)).toMatchObject({
      ready: false,
      failed: { step: 'find-cells', reason: 'no-cells' },
    });
    expect(await logOf(page, 'dangerous')).toEqual([]);
    expect(await simLog(page)).not.toContainEqual(expect.objectContaining({ type: 'restart' }));
  });
});
