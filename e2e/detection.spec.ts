import { type FailPreset, type Place, runAll, type Scenario, showLazyOutputs, simLog, waitForRun } from './colab-sim';
import { expect, test } from './harness/extension';
import { resetStorage, setSettings } from './harness/guard';
import {
  EPOCH_DONE,
  expectNothingBeforeSentinel,
  type Fixtures,
  failuresReported,
  historyOf,
  logOf,
  noteFailureReports,
  openNotebook,
  record,
  switchOnInPopup,
  trainNotebook,
} from './harness/matrix';

/**
 * Detection on the simulated Colab with the built extension: what the guard acts on (an OOM that ended a cell's
 * execution in this page, in the main document or in an output frame; Colab's crash toast; the user's failure and
 * marker patterns) and what it must leave alone (caught OOMs, OOM text in sources, saved and lazily rendered outputs,
 * old outputs after a restart, other errors, a notebook with the guard off).
 *
 * Negative cases end with a *sentinel*: Colab's crash toast, raised by the test after the run under test has ended.
 * The guard answers it with Runtime → Run all after the back-off. That proves the guard was watching this page all
 * along, and gives a deterministic point in time after "run end + back-off": had the guard acted on the negative, its
 * restart would be scheduled first (the crash report would then be absorbed) and "Restart session and run all" would
 * be in the simulator's log before the sentinel's Run all.
 */

test.beforeEach(async ({ serviceWorker }) => {
  await resetStorage(serviceWorker);
  await setSettings(serviceWorker, { backoffBaseSec: 1 });
});

type Action = 'restart-and-run-all' | 'run-all';

/** One failure gave exactly one restart of the expected kind, and the run after it completed. */
async function expectOneRestart(
  { page, serviceWorker }: Fixtures,
  key: string,
  expected: { category: string; action: Action; reason?: 'marker'; firstRunOk?: boolean },
) {
  expect(await waitForRun(page, 1)).toMatchObject({ ok: expected.firstRunOk ?? false });
  expect(await waitForRun(page, 2)).toMatchObject({ ok: true });
  await expect.poll(async () => historyOf(await record(serviceWorker, key), 'restarted').length).toBe(1);
  const rec = (await record(serviceWorker, key))!;
  expect(rec.status.kind).toBe('watching');
  expect(rec.totalRestarts).toBe(1);
  const scheduled = historyOf(rec, 'restart-scheduled');
  expect(scheduled).toHaveLength(1);
  expect(scheduled[0]).toMatchObject({ action: expected.action, verdict: { category: expected.category } });
  if (expected.reason === 'marker') {
    expect(scheduled[0]?.verdict?.rule).toBe('restart-marker');
    expect(rec.loopCount).toBe(0); // markers do not count toward the crash-loop limit
  } else {
    expect(rec.loopCount).toBe(1);
  }

  const log = await simLog(page);
  const chosen = log.filter((e) => e.type === 'menu-item').map((e) => `${e.command}@${e.via}`);
  if (expected.action === 'restart-and-run-all') {
    expect(chosen).toEqual(['runall@toolbar', 'restart-and-run-all@runtime-menu']);
    expect(log.filter((e) => e.type === 'restart')).toHaveLength(1);
  } else {
    // After Colab's RAM crash the kernel was already restarted by Colab: Runtime → Run all, no restart.
    expect(chosen).toEqual(['runall@toolbar', 'runall@runtime-menu']);
    expect(log.filter((e) => e.type === 'restart')).toEqual([]);
  }
  expect(log.filter((e) => e.type === 'dangerous')).toEqual([]);
}

test.describe('acts on an OOM that ended a cell run in this page', () => {
  // Every framework's message once, alternating between the two places Colab renders errors (the page, an output
  // frame); PyTorch's current message in both.
  const cases: Array<{ fail: FailPreset; category: string; what: string; place: Place }> = [
    { fail: 'cuda-oom', category: 'gpu-oom', what: 'PyTorch CUDA out of memory', place: 'main' },
    { fail: 'cuda-oom', category: 'gpu-oom', what: 'PyTorch CUDA out of memory', place: 'frame' },
    {
      fail: 'cuda-oom-legacy',
      category: 'gpu-oom',
      what: 'PyTorch 0.x "cuda runtime error (2): out of memory"',
      place: 'main',
    },
    { fail: 'tf-oom', category: 'tf-oom', what: 'TensorFlow ResourceExhaustedError', place: 'frame' },
    { fail: 'jax-oom', category: 'jax-oom', what: 'JAX XlaRuntimeError RESOURCE_EXHAUSTED', place: 'main' },
    { fail: 'host-ram', category: 'host-ram', what: 'host-RAM MemoryError', place: 'frame' },
  ];
  for (const { fail, category, what, place } of cases) {
    test(`${what} in ${place === 'main' ? 'the main document' : 'an output frame'}: restart and run all`, async ({
      context,
      page,
      serviceWorker,
      sim,
    }) => {
      const fx = { context, page, serviceWorker, sim };
      const { key } = await openNotebook(fx, trainNotebook({ 1: { fail, place }, default: EPOCH_DONE }));
      await runAll(page);
      await expectOneRestart(fx, key, { category, action: 'restart-and-run-all' });
    });
  }
});

test.describe("acts on Colab's crash toast with Run all", () => {
  const cases: Array<{ name: string; ui: Scenario['ui'] }> = [
    { name: 'current wording', ui: {} },
    { name: 'legacy wording, in the secondary message area', ui: { crashWording: 'legacy', toastArea: 'secondary' } },
  ];
  for (const { name, ui } of cases) {
    test(`RAM crash during a run, ${name}`, async ({ context, page, serviceWorker, sim }) => {
      const fx = { context, page, serviceWorker, sim };
      const { key } = await openNotebook(
        fx,
        trainNotebook({ 1: { stream: { lines: 2 }, crash: 'ram' }, default: EPOCH_DONE }, { ui }),
      );
      await runAll(page);
      expect(await waitForRun(page, 1)).toMatchObject({ ok: false, reason: 'crash' });
      await expectOneRestart(fx, key, { category: 'colab-crash', action: 'run-all' });
    });
  }
});

test.describe("acts on the user's own patterns", () => {
  test('a custom failure pattern on a failed cell: restart and run all', async ({
    context,
    page,
    serviceWorker,
    sim,
  }) => {
    const fx = { context, page, serviceWorker, sim };
    await setSettings(serviceWorker, { backoffBaseSec: 1, failurePatterns: ['/^TrainerBudgetError: .*exceeded/i'] });
    const fail = {
      type: 'error' as const,
      ename: 'TrainerBudgetError',
      evalue: 'GPU-hours budget exceeded for this job',
    };
    const { key } = await openNotebook(fx, trainNotebook({ 1: { fail, place: 'frame' }, default: EPOCH_DONE }));
    await runAll(page);
    await expectOneRestart(fx, key, { category: 'custom', action: 'restart-and-run-all' });
  });

  for (const place of ['main', 'frame'] as const) {
    test(`a marker line printed by a cell that goes on (${place}): restart and run all, reason marker`, async ({
      context,
      page,
      serviceWorker,
      sim,
    }) => {
      const fx = { context, page, serviceWorker, sim };
      await setSettings(serviceWorker, { backoffBaseSec: 1, markerPatterns: ['^### fresh runtime please ###$'] });
      const marker = {
        outputs: [{ type: 'stream' as const, text: 'iteration 1 saved\n### fresh runtime please ###\nbye\n' }],
        place,
      };
      const { key } = await openNotebook(fx, trainNotebook({ 1: marker, default: EPOCH_DONE }));
      await runAll(page);
      await expectOneRestart(fx, key, {
        category: 'custom',
        action: 'restart-and-run-all',
        reason: 'marker',
        firstRunOk: true,
      });
      expect((await record(serviceWorker, key))?.status.kind).toBe('watching');
    });
  }
});

test.describe('does not act on', () => {
  for (const place of ['main', 'frame'] as const) {
    test(`an OOM that the code caught and printed, the cell going on (${place})`, async ({
      context,
      page,
      serviceWorker,
      sim,
    }) => {
      const fx = { context, page, serviceWorker, sim };
      const { key } = await openNotebook(fx, trainNotebook({ default: { fail: 'caught-oom', place } }));
      await runAll(page);
      expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
      await expectNothingBeforeSentinel(fx, key);
    });
  }

  test('OOM and crash texts in the cell sources (code and text cells)', async ({
    context,
    page,
    serviceWorker,
    sim,
  }) => {
    const fx = { context, page, serviceWorker, sim };
    const scenario: Scenario = {
      title: 'notes.ipynb',
      cells: [
        {
          type: 'text',
          source:
            'If you see "Your session crashed after using all available RAM." or "CUDA out of memory", lower the ' +
            'batch size.',
        },
        {
          source:
            'try:\n    train()\nexcept torch.cuda.OutOfMemoryError:\n    raise RuntimeError("CUDA out of memory. ' +
            'Tried to allocate 2.00 GiB")\n# MemoryError: Unable to allocate 74.5 GiB for an array',
          runs: { default: EPOCH_DONE },
        },
      ],
    };
    const { key } = await openNotebook(fx, scenario);
    await expect(page.locator('.cell').filter({ hasText: 'OutOfMemoryError' }).first()).toBeVisible();
    await runAll(page);
    expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
    await expectNothingBeforeSentinel(fx, key);
  });

  test('saved OOM outputs shown at load (main document and output frame), and a run that does not touch them', async ({
    context,
    page,
    serviceWorker,
    sim,
  }) => {
    const fx = { context, page, serviceWorker, sim };
    const scenario: Scenario = {
      title: 'yesterday.ipynb',
      savedOutputs: 'at-load',
      cells: [
        { id: 'setup', source: 'import torch' },
        { id: 'torchcell', source: 'train()', saved: { count: 3, fail: 'cuda-oom', place: 'main' } },
        { id: 'tfcell', source: 'model.fit()', saved: { count: 4, fail: 'tf-oom', place: 'frame' } },
      ],
    };
    const { key } = await openNotebook(fx, scenario);
    await expect(page.locator('#cell-torchcell')).toContainText('CUDA out of memory');
    await expect(page.frameLocator('#cell-tfcell iframe').locator('#output-body')).toContainText(
      'OOM when allocating tensor',
    );
    // The user runs the first cell only; the saved outputs stay on the page.
    await page.locator('#cell-setup #run-button').click();
    expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
    await expectNothingBeforeSentinel(fx, key);
  });

  test('saved OOM outputs that Colab renders lazily after load, while another cell runs', async ({
    context,
    page,
    serviceWorker,
    sim,
  }) => {
    const fx = { context, page, serviceWorker, sim };
    const scenario: Scenario = {
      title: 'lazy.ipynb',
      savedOutputs: 'lazy',
      cells: [
        { id: 'slow', source: 'time.sleep(1)', runs: { default: { durationMs: 800 } } },
        { id: 'torchcell', source: 'train()', saved: { count: 3, fail: 'cuda-oom', place: 'main' } },
        { id: 'jaxcell', source: 'step()', saved: { count: 4, fail: 'jax-oom', place: 'frame' } },
      ],
    };
    const { key } = await openNotebook(fx, scenario);
    await page.locator('#cell-slow #run-button').click();
    await expect.poll(async () => (await logOf(page, 'cell-start')).length).toBe(1);
    expect(await showLazyOutputs(page)).toEqual([1, 2]);
    await expect(page.locator('#cell-torchcell')).toContainText('CUDA out of memory');
    await expect(page.frameLocator('#cell-jaxcell iframe').locator('#output-body')).toContainText('RESOURCE_EXHAUSTED');
    expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
    await expectNothingBeforeSentinel(fx, key);
  });

  for (const place of ['main', 'frame'] as const) {
    test(`an old OOM output still shown after the restart, until its cell runs again (${place})`, async ({
      context,
      page,
      serviceWorker,
      sim,
    }) => {
      const fx = { context, page, serviceWorker, sim };
      // Run 1: OOM in "train" → the guard restarts and runs all (run 2), where "setup" now fails with a ValueError:
      // the run stops, "train" goes back to its error state with the old OOM output of run 1 (Colab before 2026 kept
      // a queued cell's outputs until it ran).
      const scenario: Scenario = {
        title: 'train.ipynb',
        ui: { clearQueuedOutputs: false },
        cells: [
          { id: 'setup', source: 'load()', runs: { 2: { fail: 'value-error', place } } },
          { id: 'train', source: 'train()', runs: { 1: { fail: 'cuda-oom', place }, default: EPOCH_DONE } },
        ],
      };
      const { key } = await openNotebook(fx, scenario);
      await runAll(page);
      expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 1 });
      expect(await waitForRun(page, 2)).toMatchObject({ ok: false, failedCell: 0 });
      const train =
        place === 'main'
          ? page.locator('#cell-train')
          : page.frameLocator('#cell-train iframe').locator('#output-body');
      await expect(train).toContainText('CUDA out of memory');
      await expectNothingBeforeSentinel(fx, key, ['gpu-oom']);
    });
  }

  test('ValueErrors, in the main document and in an output frame', async ({ context, page, serviceWorker, sim }) => {
    const fx = { context, page, serviceWorker, sim };
    const scenario: Scenario = {
      title: 'train.ipynb',
      cells: [
        { id: 'load', source: 'load()', runs: { 1: { fail: 'value-error', place: 'main' } } },
        { id: 'train', source: 'train()', runs: { 1: { fail: 'value-error', place: 'frame' } } },
      ],
    };
    const { key } = await openNotebook(fx, scenario);
    await runAll(page);
    expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 0 });
    await runAll(page);
    expect(await waitForRun(page, 2)).toMatchObject({ ok: false, failedCell: 1 });
    await expect(page.frameLocator('#cell-train iframe').locator('#output-body')).toContainText('ValueError');
    await expectNothingBeforeSentinel(fx, key);
  });

  test('an OOM in a notebook with the guard off', async ({ context, page, serviceWorker, sim, openPopup }) => {
    const fx = { context, page, serviceWorker, sim };
    await noteFailureReports(serviceWorker);
    const { key, tabId } = await openNotebook(
      fx,
      trainNotebook({ 1: { fail: 'cuda-oom', place: 'frame' }, default: EPOCH_DONE }),
      { guard: 'off' },
    );
    await runAll(page);
    expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 1 });
    // Switched on as the user does (the worker keeps the record): the guard watches this page from now on, and the
    // OOM already on it is history. The sentinel's crash needs a run the guard saw: the person's next one, which
    // ends well. Every report the page sent, before or after, reached the worker before the sentinel's.
    await switchOnInPopup(openPopup, tabId);
    await runAll(page);
    expect(await waitForRun(page, 2)).toMatchObject({ ok: true });
    await expectNothingBeforeSentinel(fx, key);
    expect(await failuresReported(serviceWorker)).toEqual(['colab-crash']);
    const types = (await record(serviceWorker, key))?.history.map((e) => e.type);
    expect(types?.slice(0, 3)).toEqual(['enabled', 'disabled', 'enabled']);
  });
});
