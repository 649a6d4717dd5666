"""JAX training with Orbax checkpoints that resumes at the step it saved after Colab OOM Guard's restart.

Orbax's ``CheckpointManager`` writes each step's checkpoint to a temporary folder and renames it once complete, saves
only every ``save_interval_steps`` steps, and keeps the newest ``max_to_keep``. By the rules of drive_copies.py:

- the manager works on /content (fast, kept by a restart), keeping two, every ``save_every`` steps;
- every ``drive_every``-th checkpoint, once finished (``wait_until_finished``), and the one at the end are copied to
  Drive under a new name (``DriveCopies``), keeping two there;
- at start, the manager's newest step is restored; on a new machine (nothing on /content) Drive's newest whole copy
  is put back into the manager's folder first.

The train state is one pytree (parameters, optimizer state, anything else that moves); the step says where in the
data the run is, each epoch going through its samples in an order of its own that is the same at every run, so a
resume in the middle of an epoch goes on from the batch after the one it saved.

Use (save this file and drive_copies.py next to your notebook, or paste them into a cell above the training cell)::

    import jax, optax
    from google.colab import drive
    drive.mount("/content/drive")

    optimizer = optax.adamw(3e-4)
    state = {"params": params, "opt_state": optimizer.init(params)}

    @jax.jit
    def train_step(state, batch):
        loss, grads = jax.value_and_grad(loss_fn)(state["params"], batch)
        updates, opt_state = optimizer.update(grads, state["opt_state"], state["params"])
        return {"params": optax.apply_updates(state["params"], updates), "opt_state": opt_state}, loss

    checkpoints = Checkpoints("/content/checkpoints/my-jax-run", "/content/drive/MyDrive/checkpoints/my-jax-run",
                              save_every=200)
    state, loss = train(train_step, state, (x_train, y_train), epochs=20, batch_size=64, checkpoints=checkpoints)

Do not catch the out of memory yourself: the guard acts on the error that ends the cell.
"""

import math
import os

import numpy as np
import orbax.checkpoint as ocp
from drive_copies import DriveCopies, restore_folder


class Checkpoints:
    """An Orbax CheckpointManager on ``local_dir`` with copies in ``drive_dir``, the newest ``keep`` in each."""

    def __init__(self, local_dir, drive_dir=None, save_every=200, drive_every=None, keep=2):
        self.local_dir = os.path.abspath(local_dir)  # Orbax wants an absolute path
        self.options = ocp.CheckpointManagerOptions(max_to_keep=keep, save_interval_steps=save_every)
        self.drive = DriveCopies(drive_dir, keep) if drive_dir else None
        self.drive_every = drive_every or save_every
        self.manager = ocp.CheckpointManager(self.local_dir, options=self.options)
        if self.manager.latest_step() is None and self.drive:
            self._restore_from_drive()

    def _restore_from_drive(self):
        """A new machine: Drive's newest whole copy back where the manager looks, then a manager that sees it."""
        copy = self.drive.newest_whole()
        if copy is None:
            return
        step, folder = copy
        restore_folder(folder, os.path.join(self.local_dir, str(step)))
        print(f"Resuming from {folder}")
        self.manager.close()
        self.manager = ocp.CheckpointManager(self.local_dir, options=self.options)

    def restore(self, state):
        """The newest saved state and its step, or ``(state, 0)`` on the first run."""
        step = self.manager.latest_step()
        if step is None:
            return state, 0
        return self.manager.restore(step, args=ocp.args.StandardRestore(state)), step

    def save(self, step, state, final=False):
        """Saves when ``step`` is due (every ``save_every``), or ``final``; copies to Drive when that is due too."""
        saved = self.manager.latest_step() == step  # the end can fall on a step saved already
        if not saved and not self.manager.save(step, args=ocp.args.StandardSave(state), force=final):
            return
        copies = self.drive.copies() if self.drive else []
        if self.drive and (final or step % self.drive_every == 0) and not (copies and copies[-1][0] == step):
            self.manager.wait_until_finished()  # the folder is complete only once the save has finished
            self.drive.copy(os.path.join(self.local_dir, str(step)), step)

    def close(self):
        self.manager.wait_until_finished()
        self.manager.close()


def train(train_step, state, data, *, epochs, batch_size, checkpoints, seed=1234):
    """Trains from the newest checkpoint (or from the start) to the end of ``epochs``; returns (state, last loss).

    ``train_step(state, (x, y))`` returns ``(state, loss)``; ``data`` is ``(x, y)``, arrays of the same length.
    """
    x, y = data
    per_epoch = math.ceil(len(x) / batch_size)
    state, step = checkpoints.restore(state)
    start, loss = step, None
    if step:
        print(f"Resuming at step {step}: epoch {step // per_epoch + 1}, {step % per_epoch} batches into it")
    for epoch in range(step // per_epoch, epochs):
        order = np.random.default_rng(seed + epoch).permutation(len(x))
        for index in range(step - epoch * per_epoch, per_epoch):
            picked = order[index * batch_size : (index + 1) * batch_size]
            state, loss = train_step(state, (x[picked], y[picked]))
            step += 1
            checkpoints.save(step, state)
    if step != start:
        checkpoints.save(step, state, final=True)  # the end, on Drive too: a Run all after it finds the training done
    checkpoints.close()
    return state, loss
