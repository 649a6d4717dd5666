import type { Page } from '@playwright/test';
import { runAll, type Scenario, waitForRun } from './colab-sim';
import { expect, test } from './harness/extension';
import { readRecord, resetStorage, setSettings } from './harness/guard';
import { EPOCH_DONE, historyOf, logOf, openNotebook, record } from './harness/matrix';
import { helperScript } from './harness/status-helper';

/**
 * The status API: the notebook's own code reads its status, through the very script python/colab_oom_guard.py sends
 * with `google.colab.output.eval_js`, run by the simulator in the cell's output frame as Colab runs it.
 */

/** The training cell asks for its status first, as a resumable notebook does, and fails with `fail` on run 1. */
function askingNotebook(fail?: 'cuda-oom'): Scenario {
  const ask = { evalJs: helperScript() };
  return {
    title: 'resumable.ipynb',
    cells: [
      { id: 'setup', source: 'import torch, colab_oom_guard' },
      {
        id: 'train',
        source: 'status = colab_oom_guard.status(strict=True)\ntrain(batch_size=64 // 2 ** status["restarts"])',
        runs: { 1: { steps: [ask], ...(fail ? { fail } : EPOCH_DONE) }, default: { steps: [ask], ...EPOCH_DONE } },
      },
    ],
  };
}

/** What each status request of the page answered (the helper's script gives the status as JSON, or 'no-answer'). */
async function answers(page: Page): Promise<unknown[]> {
  return (await logOf(page, 'eval-js')).map((entry) => {
    if (entry.error !== undefined) throw new Error(`the status request failed in the frame: ${entry.error}`);
    return typeof entry.result === 'string' && entry.result !== 'no-answer' ? JSON.parse(entry.result) : entry.result;
  });
}

test.beforeEach(async ({ serviceWorker }) => {
  await resetStorage(serviceWorker);
  await setSettings(serviceWorker, { backoffBaseSec: 1 });
});

test('a guarded notebook reads no restart before any failure, then one, with the OOM that caused it', async ({
  context,
  page,
  serviceWorker,
  sim,
}) => {
  const { key } = await openNotebook({ context, page, serviceWorker, sim }, askingNotebook('cuda-oom'));
  await runAll(page);
  expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 1 });
  // The guard's Restart session and run all: the training cell asks again.
  expect(await waitForRun(page, 2)).toMatchObject({ ok: true });
  const rec = await record(serviceWorker, key);
  const [failure] = historyOf(rec, 'restart-scheduled');
  expect(failure?.verdict?.line).toContain('CUDA out of memory');
  expect(await answers(page)).toEqual([
    {
      v: 1,
      guarded: true,
      restarts: 0,
      maxRestarts: 3,
      totalRestarts: 0,
      lastFailure: null,
      lastRestartAt: null,
    },
    {
      v: 1,
      guarded: true,
      restarts: 1,
      maxRestarts: 3,
      totalRestarts: 1,
      lastFailure: { kind: 'gpu-oom', line: failure?.verdict?.line, at: new Date(failure?.at ?? 0).toISOString() },
      lastRestartAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    },
  ]);
  const lastRestartAt = (rec as { lastRestartAt?: number } | undefined)?.lastRestartAt;
  expect((await answers(page))[1]).toMatchObject({ lastRestartAt: new Date(lastRestartAt ?? 0).toISOString() });
});

test('a notebook the guard is off for reads guarded: false and nothing else, and reading stores nothing', async ({
  context,
  page,
  serviceWorker,
  sim,
}) => {
  // The user's own limit is theirs: a notebook not guarded does not learn it.
  await setSettings(serviceWorker, { backoffBaseSec: 1, maxRestarts: 7 });
  const { key } = await openNotebook({ context, page, serviceWorker, sim }, askingNotebook(), { guard: false });
  await runAll(page);
  expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
  expect(await answers(page)).toEqual([{ v: 1, guarded: false }]);
  expect(await readRecord(serviceWorker, key)).toBeUndefined();
});

test("a request whose id is too long gets no answer; the next one, in the notebook's own frame, does", async ({
  context,
  page,
  serviceWorker,
  sim,
}) => {
  // Both posted at once; answers come in the order of the requests: the long one, had it been taken, comes first.
  const script = `new Promise((resolve) => {
    const seen = [];
    window.addEventListener('message', (event) => {
      if (event.source !== window || event.data?.colabOomGuard !== 'status') return;
      seen.push(event.data.id.length);
      if (event.data.id === 'short') resolve(JSON.stringify(seen));
    });
    window.postMessage({ colabOomGuard: 'status?', id: 'x'.repeat(201) }, '*');
    window.postMessage({ colabOomGuard: 'status?', id: 'short' }, '*');
  })`;
  const scenario: Scenario = {
    title: 'ids.ipynb',
    cells: [{ id: 'ask', source: 'output.eval_js(script)', runs: { default: { steps: [{ evalJs: script }] } } }],
  };
  await openNotebook({ context, page, serviceWorker, sim }, scenario);
  await runAll(page);
  expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
  expect(await answers(page)).toEqual([[5]]);
});

test('with the status API switched off in the options, the notebook gets no answer', async ({
  context,
  page,
  serviceWorker,
  sim,
}) => {
  await setSettings(serviceWorker, { backoffBaseSec: 1, statusApi: false });
  await openNotebook({ context, page, serviceWorker, sim }, askingNotebook());
  await runAll(page);
  // The helper's script waits its own 2 s for an answer, then says 'no-answer' (which Python tells apart from a
  // silent page): that bound is the helper's, not the test's.
  expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
  expect(await answers(page)).toEqual(['no-answer']);
});
