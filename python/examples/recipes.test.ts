import { expect, it } from 'vitest';
import { describeWithPython, expectUnittestPasses } from '../python-env';

/**
 * The checkpoint recipes (python/examples/test_recipes.py): each trains a tiny model on the CPU twice, once without a
 * stop and once stopped twice in the middle of an epoch by a simulated out of memory, must resume at the step it
 * saved, and must end identical. PyTorch runs for real; transformers, wandb, Keras 3, Orbax and Lightning through
 * stand-ins of the API the recipes use (python/examples/stand_ins/), none of them installable here. They need NumPy
 * and PyTorch (python3-numpy, python3-torch): in CI their absence fails this; elsewhere it is skipped, saying so.
 */

describeWithPython('the checkpoint recipes in python/examples/', ['numpy', 'torch'], (python) => {
  it('resume at the step they saved, and after two restarts end where a training that never stopped ends', {
    timeout: 900_000,
  }, () => {
    const said = expectUnittestPasses(python, 'test_recipes', import.meta.dirname);
    // Every recipe ran: none was skipped inside Python.
    const recipes = ['PyTorch', 'Wandb', 'HfTrainer', 'Keras', 'JaxOrbax', 'Lightning', 'EndRuntime'];
    for (const recipe of recipes) expect(said).toContain(`${recipe}Recipe`);
  });
});
