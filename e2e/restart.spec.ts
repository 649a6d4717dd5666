import { entriesOf, installColabSim, runAll, type Scenario, simLog, waitForKernel, waitForRun } from './colab-sim';
import { expect, test } from './harness/extension';
import { enableGuard, readRecord, resetStorage, setSettings, waitForGuard, waitForWatching } from './harness/guard';

/** Restart and run all through Colab's UI after an OOM: once per failure, verified, in every UI variant. */

let n = 0;
const nextId = () => `restart${Date.now().toString(36)}${++n}`;

function oomOnFirstRun(ui: Scenario['ui'] = {}, place: 'main' | 'frame' = 'frame'): Scenario {
  return {
    title: 'train.ipynb',
    ui,
    cells: [
      { source: 'import torch' },
      {
        source: 'train()',
        runs: { 1: { fail: 'cuda-oom', place }, default: { outputs: [{ type: 'stream', text: 'epoch 1 done\n' }] } },
      },
    ],
  };
}

test.beforeEach(async ({ serviceWorker }) => {
  await resetStorage(serviceWorker);
  await setSettings(serviceWorker, { backoffBaseSec: 1 });
});

for (const place of ['frame', 'main'] as const) {
  test(
    `an OOM in the ${place === 'frame' ? 'output frame' : 'main document'} gives one restart and run all, and ` +
      `the run completes`,
    async ({ context, page, serviceWorker }) => {
      const sim = await installColabSim(context);
      const id = nextId();
      await enableGuard(serviceWorker, `drive:${id}`);
      await page.goto(sim.notebook(`/drive/${id}`, oomOnFirstRun({}, place)));
      await waitForWatching(serviceWorker, await waitForGuard(serviceWorker, page), `drive:${id}`);
      await waitForKernel(page, 'idle');
      await runAll(page);
      expect(await waitForRun(page, 1)).toMatchObject({ ok: false });
      expect(await waitForRun(page, 2)).toMatchObject({ ok: true });
      const log = await simLog(page);
      expect(entriesOf(log, 'menu-item').filter((e) => e.command === 'restart-and-run-all')).toHaveLength(1);
      expect(entriesOf(log, 'restart')).toHaveLength(1);
      expect(entriesOf(log, 'dangerous')).toEqual([]);
      await expect.poll(async () => (await readRecord(serviceWorker, `drive:${id}`))?.totalRestarts).toBe(1);
      await sim.dispose();
    },
  );
}
