import {
  type CellSpec,
  childKilled,
  colabErrorCopy,
  type Place,
  type RunSpec,
  runAll,
  type Scenario,
  shellRun,
  shownOom,
  stopCell,
  triggerCrash,
  waitForKernel,
  waitForRun,
} from './colab-sim';
import { expect, test } from './harness/extension';
import { resetStorage, setSettings } from './harness/guard';
import {
  EPOCH_DONE,
  expectNothingBeforeSentinel,
  type Fixtures,
  historyOf,
  logOf,
  openNotebook,
  record,
  trainNotebook,
} from './harness/matrix';

/**
 * Judge the error that ended the run, and only a run that could be training: a wrong "Restart session and run all"
 * re-runs every cell of the notebook. Each case here restarted before; now nothing restarts, and the history says why
 * where the guard saw a failure it left alone. Negative cases end with the sentinel (harness/matrix.ts): had the guard
 * acted on the run under test, its restart would come before the sentinel's.
 */

test.beforeEach(async ({ serviceWorker }) => {
  await resetStorage(serviceWorker);
  await setSettings(serviceWorker, { backoffBaseSec: 1 });
});

/** Why the guard left a failure it saw alone, as the history keeps it (state/declined.ts DECLINED's reasons). */
const NOT_THE_ENDING = 'earlier-error';
const SOURCE_UNREADABLE = 'source-unreadable';
const NO_RUN_SEEN = 'crash-without-run';

/** The guard noted a failure it left alone: an 'ignored' entry says why (`reason`), about a `category` failure. */
async function expectNoted({ serviceWorker }: Fixtures, key: string, reason: string, category: string) {
  await expect
    .poll(async () => historyOf(await record(serviceWorker, key), 'ignored').map((e) => e.params?.why))
    .toContain(reason);
  const entry = historyOf(await record(serviceWorker, key), 'ignored').find((e) => e.params?.why === reason);
  expect(entry?.verdict?.category).toBe(category);
}

/** A notebook whose second cell (`id`) runs `source`, doing `run` on its first execution. */
function launchNotebook(id: string, source: string, run: RunSpec, cell: Partial<CellSpec> = {}): Scenario {
  return {
    title: 'train.ipynb',
    cells: [
      { id: 'setup', source: '!pip install accelerate wandb' },
      { id, source, runs: { 1: run, default: EPOCH_DONE }, ...cell },
    ],
  };
}

/** The training cell catches a CUDA OOM and shows it (`showtraceback()`, in `place`), prints on, then waits. */
function caughtThenGoesOn(place: Place, extra: Partial<Scenario> = {}): Scenario {
  return trainNotebook(
    {
      1: {
        steps: [
          { output: shownOom(place) },
          { output: { type: 'stream', text: 'retrying with batch_size=32\nepoch 2/3: loss=0.4817\n' } },
          { pause: true },
        ],
      },
      default: EPOCH_DONE,
    },
    extra,
  );
}

test.describe('an earlier error output is not the ending; the Stop is never a failure', () => {
  for (const place of ['frame', 'main'] as const) {
    test(`a caught OOM shown mid-run (${place}), the run goes on, then Stop: no restart, the history says why`, async ({
      context,
      page,
      serviceWorker,
      sim,
    }) => {
      const fx = { context, page, serviceWorker, sim };
      const { key } = await openNotebook(fx, caughtThenGoesOn(place));
      await runAll(page);
      const shown =
        place === 'frame'
          ? page.frameLocator('#cell-train iframe').locator('.error')
          : page.locator('#cell-train colab-static-output-renderer .error');
      await expect(shown).toContainText('CUDA out of memory');
      await expect(page.locator('#cell-train colab-static-output-renderer')).toContainText('epoch 2/3');
      await stopCell(page, 'train');
      expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 1, reason: 'interrupt' });
      await expectNoted(fx, key, NOT_THE_ENDING, 'gpu-oom');
      await expectNothingBeforeSentinel(fx, key);
    });
  }

  test("the Stop's KeyboardInterrupt shown in the frame 1.5 s after the cell's state says error: no restart", async ({
    context,
    page,
    serviceWorker,
    sim,
  }) => {
    const fx = { context, page, serviceWorker, sim };
    const { key } = await openNotebook(fx, caughtThenGoesOn('frame', { ui: { interruptErrorDelayMs: 1500 } }));
    await runAll(page);
    await expect(page.frameLocator('#cell-train iframe').locator('.error')).toContainText('CUDA out of memory');
    await expect(page.locator('#cell-train colab-static-output-renderer')).toContainText('epoch 2/3');
    await stopCell(page, 'train');
    expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 1, reason: 'interrupt' });
    await expect.poll(async () => (await logOf(page, 'output-late')).length).toBe(1);
    await expect(page.frameLocator('#cell-train iframe').locator('.error')).toHaveCount(2);
    await expectNoted(fx, key, NOT_THE_ENDING, 'gpu-oom');
    await expectNothingBeforeSentinel(fx, key);
  });

  test('the uncaught OOM that ends the run still restarts, once', async ({ context, page, serviceWorker, sim }) => {
    const fx = { context, page, serviceWorker, sim };
    const { key } = await openNotebook(
      fx,
      trainNotebook({
        1: { outputs: [{ type: 'stream', text: 'epoch 1/3\n' }], fail: 'cuda-oom' },
        default: EPOCH_DONE,
      }),
    );
    await runAll(page);
    expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 1 });
    expect(await waitForRun(page, 2)).toMatchObject({ ok: true });
    await expect.poll(async () => historyOf(await record(serviceWorker, key), 'restarted').length).toBe(1);
    expect(historyOf(await record(serviceWorker, key), 'ignored')).toEqual([]);
  });
});

test.describe('notebook HTML is never an error output', () => {
  test("a display_data copying Colab's error markup (its own #output-body), then another error: no restart", async ({
    context,
    page,
    serviceWorker,
    sim,
  }) => {
    const fx = { context, page, serviceWorker, sim };
    const { key } = await openNotebook(
      fx,
      trainNotebook({ 1: { outputs: [colabErrorCopy()], fail: 'value-error' }, default: EPOCH_DONE }),
    );
    await runAll(page);
    expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 1 });
    const frame = page.frameLocator('#cell-train iframe');
    await expect(frame.locator('#output-body #output-body .error')).toContainText('CUDA out of memory');
    await expect(frame.locator('body > #output-area > #output-body > .error')).toContainText('ValueError');
    await expectNothingBeforeSentinel(fx, key);
    expect(historyOf(await record(serviceWorker, key), 'ignored')).toEqual([]);
  });
});

test.describe('reading a log is not running a program', () => {
  test('`!tail -n 40 train.log` printing an old OOM traceback: no restart', async ({
    context,
    page,
    serviceWorker,
    sim,
  }) => {
    const fx = { context, page, serviceWorker, sim };
    const { key } = await openNotebook(fx, launchNotebook('log', '!tail -n 40 train.log', shellRun('old-log')));
    await runAll(page);
    expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
    await expect(page.locator('#cell-log colab-static-output-renderer')).toContainText('CUDA out of memory');
    await expectNothingBeforeSentinel(fx, key);
  });

  test('a cell whose editor lines are never rendered is no launcher: no restart, the history says why', async ({
    context,
    page,
    serviceWorker,
    sim,
  }) => {
    const fx = { context, page, serviceWorker, sim };
    const scenario = launchNotebook('train', '!python train.py', shellRun('python-killed'), { editor: 'unrendered' });
    const { key } = await openNotebook(fx, scenario);
    await expect(page.locator('#cell-train .view-line')).toHaveCount(0);
    await runAll(page);
    expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
    await expectNoted(fx, key, SOURCE_UNREADABLE, 'host-ram');
    await expectNothingBeforeSentinel(fx, key);
  });
});

test.describe('a launched program killed by SIGKILL, and one that logs to W&B, are caught', () => {
  test("a library's child killed by SIGKILL, as the cell's error output: one host-RAM restart", async ({
    context,
    page,
    serviceWorker,
    sim,
  }) => {
    const fx = { context, page, serviceWorker, sim };
    const { key } = await openNotebook(fx, trainNotebook({ 1: { fail: childKilled() }, default: EPOCH_DONE }));
    await runAll(page);
    expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 1 });
    expect(await waitForRun(page, 2)).toMatchObject({ ok: true });
    await expect.poll(async () => historyOf(await record(serviceWorker, key), 'restarted').length).toBe(1);
    const [scheduled] = historyOf(await record(serviceWorker, key), 'restart-scheduled');
    expect(scheduled?.verdict).toMatchObject({ category: 'host-ram', rule: 'child-killed' });
    expect(scheduled?.verdict?.line).toMatch(/died with <Signals\.SIGKILL: 9>\.$/);
  });

  test("`!accelerate launch` whose script logs to W&B: the summary after the child's OOM, one restart", async ({
    context,
    page,
    serviceWorker,
    sim,
  }) => {
    const fx = { context, page, serviceWorker, sim };
    const scenario = launchNotebook('train', '!accelerate launch train.py', shellRun('accelerate-oom-wandb'));
    const { key } = await openNotebook(fx, scenario);
    await runAll(page);
    expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
    expect(await waitForRun(page, 2)).toMatchObject({ ok: true });
    await expect.poll(async () => historyOf(await record(serviceWorker, key), 'restarted').length).toBe(1);
    const [scheduled] = historyOf(await record(serviceWorker, key), 'restart-scheduled');
    expect(scheduled?.verdict).toMatchObject({ category: 'gpu-oom', rule: 'shell:torch-cuda-oom' });
  });
});

test.describe('a crash notice needs a run the page saw', () => {
  test('the RAM crash notice with nothing seen running: noted, no Run all; after a run, a crash restarts', async ({
    context,
    page,
    serviceWorker,
    sim,
  }) => {
    const fx = { context, page, serviceWorker, sim };
    const { key } = await openNotebook(fx, trainNotebook({ default: EPOCH_DONE }));
    await triggerCrash(page);
    await expectNoted(fx, key, NO_RUN_SEEN, 'colab-crash');
    let rec = await record(serviceWorker, key);
    expect(rec?.status.kind).toBe('watching');
    expect(historyOf(rec, 'restart-scheduled')).toEqual([]);
    // Colab brings the kernel back by itself; the person runs the notebook, and then a crash is one of its runs.
    await waitForKernel(page, 'idle');
    await runAll(page);
    expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
    expect(await logOf(page, 'menu-item')).toEqual([expect.objectContaining({ command: 'runall', via: 'toolbar' })]);
    await triggerCrash(page);
    await expect.poll(async () => historyOf(await record(serviceWorker, key), 'restarted').length).toBe(1);
    rec = await record(serviceWorker, key);
    expect(historyOf(rec, 'restart-scheduled').map((e) => e.verdict?.category)).toEqual(['colab-crash']);
  });
});
