import { type Place, type RunSpec, resume, runAll, type Scenario, shellRun, simLog, waitForRun } from './colab-sim';
import { expect, test } from './harness/extension';
import { resetStorage, setSettings } from './harness/guard';
import {
  badgeText,
  EPOCH_DONE,
  expectNothingBeforeSentinel,
  type Fixtures,
  historyOf,
  logOf,
  openNotebook,
  record,
} from './harness/matrix';

/**
 * Shell cells on the simulated Colab with the built extension: training launched from a shell cell (`!accelerate
 * launch`, `%%bash`, `!python`) that dies of out-of-memory prints its traceback as stream output, and the cell ends
 * without an error or with only a CalledProcessError. The guard reads the end of the cell's stream when it stops: in
 * the main document, or asked of the cell's output frame (REFERENCE §4.2 and §11.4 disagree on where streams render).
 * Negative cases end with the sentinel (harness/matrix.ts).
 */

test.beforeEach(async ({ serviceWorker }) => {
  await resetStorage(serviceWorker);
  await setSettings(serviceWorker, { backoffBaseSec: 1 });
});

/** A notebook whose second cell runs a shell command (`source`), doing `runs` per execution of that cell. */
function shellNotebook(source: string, runs: NonNullable<Scenario['cells'][number]['runs']>): Scenario {
  return {
    title: 'train.ipynb',
    cells: [
      { id: 'setup', source: '!pip install accelerate' },
      { id: 'train', source, runs },
    ],
  };
}

const placed = (run: RunSpec, place: Place): RunSpec => ({ ...run, place });
/** The run's stream outputs in `place`; its error output where the simulator puts it by default (a frame, §11.4). */
const streamsIn = (run: RunSpec, place: Place): RunSpec => ({
  ...run,
  outputs: (run.outputs ?? []).map((out) => (out.type === 'stream' ? { ...out, place } : out)),
});
const where = (place: Place) => (place === 'main' ? 'the main document' : 'the output frame');

/** One shell failure gave exactly one restart, quoting the line it matched; the run after it completed. */
async function expectOneShellRestart(
  { page, serviceWorker }: Fixtures,
  key: string,
  expected: { category: string; line: RegExp; firstRun: { ok: boolean; failedCell?: number } },
) {
  expect(await waitForRun(page, 1)).toMatchObject(expected.firstRun);
  expect(await waitForRun(page, 2)).toMatchObject({ ok: true });
  await expect.poll(async () => historyOf(await record(serviceWorker, key), 'restarted').length).toBe(1);
  const rec = (await record(serviceWorker, key))!;
  expect(rec.status.kind).toBe('watching');
  expect(rec.loopCount).toBe(1);
  const scheduled = historyOf(rec, 'restart-scheduled');
  expect(scheduled).toHaveLength(1);
  expect(scheduled[0]).toMatchObject({ action: 'restart-and-run-all', verdict: { category: expected.category } });
  expect(scheduled[0]?.verdict?.rule).toMatch(/^shell[:-]/);
  expect(scheduled[0]?.verdict?.line).toMatch(expected.line);
  const log = await simLog(page);
  expect(log.filter((e) => e.type === 'menu-item').map((e) => `${e.command}@${e.via}`)).toEqual([
    'runall@toolbar',
    'restart-and-run-all@runtime-menu',
  ]);
  expect(log.filter((e) => e.type === 'restart')).toHaveLength(1);
  expect(log.filter((e) => e.type === 'dangerous')).toEqual([]);
}

const CUDA_OOM_LINE = /^torch\.OutOfMemoryError: CUDA out of memory\./;

test.describe('acts when a shell-launched process died of out-of-memory', () => {
  for (const place of ['main', 'frame'] as const) {
    test(`!accelerate launch dying of CUDA OOM, its stream in ${where(place)}: one restart, the next run ends`, async ({
      context,
      page,
      serviceWorker,
      sim,
    }) => {
      const fx = { context, page, serviceWorker, sim };
      const runs = { 1: placed(shellRun('accelerate-oom'), place), default: EPOCH_DONE };
      const { key } = await openNotebook(fx, shellNotebook('!accelerate launch train.py', runs));
      await runAll(page);
      await expectOneShellRestart(fx, key, { category: 'gpu-oom', line: CUDA_OOM_LINE, firstRun: { ok: true } });
    });
  }

  for (const place of ['main', 'frame'] as const) {
    test(`\`%%bash\` ending in CalledProcessError after CUDA OOM, its stream in ${where(place)}: one restart`, async ({
      context,
      page,
      serviceWorker,
      sim,
    }) => {
      const fx = { context, page, serviceWorker, sim };
      // Its CalledProcessError renders in the frame, which may show it after the cell stopped.
      const runs = { 1: streamsIn(shellRun('bash-oom'), place), default: EPOCH_DONE };
      const { key } = await openNotebook(fx, shellNotebook('%%bash\npython train.py', runs));
      await runAll(page);
      await expectOneShellRestart(fx, key, {
        category: 'gpu-oom',
        line: CUDA_OOM_LINE,
        firstRun: { ok: false, failedCell: 1 },
      });
    });
  }

  test('`!python train.py` ending `Killed` (the kernel OOM killer): a host-RAM restart', async ({
    context,
    page,
    serviceWorker,
    sim,
  }) => {
    const fx = { context, page, serviceWorker, sim };
    const runs = { 1: shellRun('python-killed'), default: EPOCH_DONE };
    const { key } = await openNotebook(fx, shellNotebook('!python train.py', runs));
    await runAll(page);
    await expectOneShellRestart(fx, key, {
      category: 'host-ram',
      line: /^\/bin\/bash: line 1: {2}2292 Killed {18}python3 train\.py$/,
      firstRun: { ok: true },
    });
  });
});

test.describe('does not act on', () => {
  for (const place of ['main', 'frame'] as const) {
    test(`a run that logged an OOM traceback and went on to finish, its stream in ${where(place)}`, async ({
      context,
      page,
      serviceWorker,
      sim,
    }) => {
      const fx = { context, page, serviceWorker, sim };
      const runs = { default: placed(shellRun('logged-oom-finished'), place) };
      const { key } = await openNotebook(fx, shellNotebook('!python train.py', runs));
      await runAll(page);
      expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
      await expectNothingBeforeSentinel(fx, key);
    });
  }

  test('a Python cell that caught the OOM and printed its traceback as its last output, then ended', async ({
    context,
    page,
    serviceWorker,
    sim,
  }) => {
    const fx = { context, page, serviceWorker, sim };
    // The same stream a dying `!accelerate launch` prints, from a cell that can start no process.
    const source = 'try:\n    train()\nexcept torch.OutOfMemoryError:\n    traceback.print_exc()';
    const { key } = await openNotebook(fx, shellNotebook(source, { default: shellRun('accelerate-oom') }));
    await runAll(page);
    expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
    await expectNothingBeforeSentinel(fx, key);
  });

  test('a shell cell still running with an OOM traceback printed, whose training goes on to the end', async ({
    context,
    page,
    serviceWorker,
    sim,
  }) => {
    const fx = { context, page, serviceWorker, sim };
    const [progress, traceback, ...rest] = shellRun('logged-oom-finished').outputs ?? [];
    const running: RunSpec = {
      steps: [{ output: progress! }, { output: traceback! }, { pause: true }, ...rest.map((output) => ({ output }))],
    };
    const { key } = await openNotebook(fx, shellNotebook('!python train.py', { 1: running, default: EPOCH_DONE }));
    await runAll(page);
    const cell = page.locator('#cell-train');
    await expect(cell.locator('colab-static-output-renderer')).toContainText('torch.OutOfMemoryError');
    await expect(cell.locator('colab-run-button .cell-execution')).toHaveClass(/\brunning\b/);
    await resume(page);
    expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
    await expectNothingBeforeSentinel(fx, key);
  });
});

test('the crash-loop limit holds for shell failures: 3 restarts, then the guard gives up', async ({
  context,
  page,
  serviceWorker,
  sim,
}) => {
  test.setTimeout(90_000);
  const fx = { context, page, serviceWorker, sim };
  const { key, tabId } = await openNotebook(
    fx,
    shellNotebook('!accelerate launch train.py', { default: shellRun('accelerate-oom') }),
  );
  await runAll(page);
  await expect.poll(async () => (await record(serviceWorker, key))?.status.kind, { timeout: 30_000 }).toBe('gave-up');
  // The fourth run failed the same way, and was left alone.
  expect(await waitForRun(page, 4)).toMatchObject({ ok: true });
  const rec = (await record(serviceWorker, key))!;
  expect(rec.loopCount).toBe(3);
  expect(rec.totalRestarts).toBe(3);
  expect(historyOf(rec, 'restart-scheduled').map((e) => e.verdict?.category)).toEqual([
    'gpu-oom',
    'gpu-oom',
    'gpu-oom',
  ]);
  expect(historyOf(rec, 'restarted')).toHaveLength(3);
  expect(historyOf(rec, 'gave-up')).toHaveLength(1);
  await expect.poll(() => badgeText(serviceWorker, tabId)).toBe('!');
  expect(await logOf(page, 'restart')).toHaveLength(3);
  expect(await logOf(page, 'dangerous')).toEqual([]);
});
