import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { describeWithPython } from '../python-env';

/**
 * The checkpoint recipes (python/examples/test_recipes.py): each trains a tiny model on the CPU twice, once without a
 * stop and once stopped twice by a simulated out of memory, and must end identical. They need NumPy and PyTorch
 * (python3-numpy, python3-torch): in CI their absence fails this; elsewhere it is skipped, saying so.
 */

describeWithPython('the checkpoint recipes in python/examples/', ['numpy', 'torch'], (python) => {
  it('resume after two restarts exactly where a training that never stopped ends', { timeout: 600_000 }, () => {
    const run = spawnSync(python, ['-m', 'unittest', '-v', 'test_recipes'], {
      cwd: import.meta.dirname,
      encoding: 'utf8',
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
    });
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    expect(run.stderr).toMatch(/Ran [1-9]\d* tests?/);
    // Every recipe ran: none was skipped inside Python.
    expect(run.stderr).not.toMatch(/skipped/);
    for (const recipe of ['PyTorchRecipe', 'WandbRecipe', 'HfTrainerRecipe']) expect(run.stderr).toContain(recipe);
  });
});
