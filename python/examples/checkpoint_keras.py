"""Keras 3 training that resumes at the step it saved after Colab OOM Guard's restart (any backend).

``keras.callbacks.BackupAndRestore(backup_dir, save_freq=N)`` saves in the middle of an epoch, but its documentation
says that after restoring, ``Model.fit`` redoes any partial work of the unfinished epoch: a long epoch is trained
again from its first batch. This recipe resumes at the batch instead, by the rules of drive_copies.py:

- ``StepCheckpoint`` saves the weights and the optimizer's state (``model.save_weights``, a ``.weights.h5`` file) to
  /content every ``save_every`` optimizer steps, whole or not at all (a temporary name, then a rename), keeps the
  newest two, and copies every ``drive_every``-th one to Drive under a new name (``DriveCopies``);
- ``fit_resumable`` loads the newest checkpoint that loads, local or on Drive, reads the step from the optimizer
  (``optimizer.iterations``), and trains the rest of the interrupted epoch from the batch after it, then the epochs
  after, each in an order of its own that is the same at every run (``EpochBatches``).

Use (save this file and drive_copies.py next to your notebook, or paste them into a cell above the training cell)::

    import keras
    from google.colab import drive
    drive.mount("/content/drive")

    keras.utils.set_random_seed(1234)
    model = keras.Sequential([keras.layers.Input((784,)), keras.layers.Dense(256, activation="relu"),
                              keras.layers.Dense(10)])
    model.compile(optimizer=keras.optimizers.AdamW(3e-4), loss="sparse_categorical_crossentropy")
    fit_resumable(model, x_train, y_train, epochs=20, batch_size=64,
                  local_dir="/content/checkpoints/my-keras-run",
                  drive_dir="/content/drive/MyDrive/checkpoints/my-keras-run", save_every=200)

Do not catch the out of memory yourself: the guard acts on the error that ends the cell.
"""

import math
import os
import re
import time

import keras
import numpy as np
from drive_copies import DriveCopies, restore_file

_NAME = re.compile(r"^step-(\d{9})-(\d{13})\.weights\.h5$")


class EpochBatches(keras.utils.PyDataset):
    """The batches of ``epoch``, in an order of its own (the same at every run), from batch ``first`` on."""

    def __init__(self, x, y, batch_size, epoch, first=0, seed=1234):
        super().__init__()
        self.x, self.y, self.batch_size = x, y, batch_size
        self.order = np.random.default_rng(seed + epoch).permutation(len(x))
        self.first = first

    def __len__(self):
        return math.ceil(len(self.x) / self.batch_size) - self.first

    def __getitem__(self, index):
        start = (self.first + index) * self.batch_size
        picked = self.order[start : start + self.batch_size]
        return self.x[picked], self.y[picked]


class StepCheckpoint(keras.callbacks.Callback):
    """Saves the weights and the optimizer every ``save_every`` steps to ``local_dir``; copies to Drive too."""

    def __init__(self, local_dir, drive_dir=None, save_every=200, drive_every=None, keep=2):
        super().__init__()
        self.local_dir, self.keep = local_dir, keep
        self.save_every, self.drive_every = save_every, drive_every or save_every
        self.drive = DriveCopies(drive_dir, keep) if drive_dir else None
        self.session = f"{int(time.time() * 1000):013d}"
        os.makedirs(local_dir, exist_ok=True)
        for name in os.listdir(local_dir):  # a save an earlier process began and never finished
            if ".partial" in name:
                os.remove(os.path.join(local_dir, name))

    def on_train_batch_end(self, batch, logs=None):
        step = optimizer_step(self.model)
        if step % self.save_every == 0:
            self.save(step, to_drive=step % self.drive_every == 0)

    def save(self, step, to_drive):
        path = os.path.join(self.local_dir, f"step-{step:09d}-{self.session}.weights.h5")
        partial = path.replace(".weights.h5", ".partial.weights.h5")  # Keras wants the .weights.h5 ending
        self.model.save_weights(partial)
        os.replace(partial, path)
        for old in local_checkpoints(self.local_dir)[: -self.keep]:
            os.remove(old)
        if self.drive and to_drive:
            self.drive.copy(path, step)


def optimizer_step(model):
    """The optimizer steps made so far: Keras counts them in ``optimizer.iterations``, saved with the weights."""
    return int(keras.ops.convert_to_numpy(model.optimizer.iterations))


def local_checkpoints(folder):
    """The checkpoints in ``folder``, oldest first."""
    names = sorted(match.group(0) for match in map(_NAME.match, os.listdir(folder)) if match)
    return [os.path.join(folder, name) for name in names]


def load_newest(model, local_dir, drive_dir=None):
    """Loads the newest checkpoint that loads (local first, then Drive's newest whole copy); returns its step or 0."""
    model.optimizer.build(model.trainable_variables)  # its variables must exist to be loaded into
    candidates = list(reversed(local_checkpoints(local_dir)))
    copy = DriveCopies(drive_dir).newest_whole() if drive_dir else None
    if copy:
        candidates.append(_from_drive(copy[1], local_dir))
    for path in candidates:
        try:
            model.load_weights(path)
        except (OSError, ValueError) as error:  # h5py's error for a file cut short
            print(f"Skipping {path}: it does not load ({type(error).__name__})")
            continue
        print(f"Resuming from {path}")
        return optimizer_step(model)
    return 0


def _from_drive(copy, local_dir):
    """Drive's copy back on local disk, where Keras reads it fast and the next saves are kept beside it."""
    target = os.path.join(local_dir, f"{os.path.basename(copy)}.weights.h5")
    restore_file(copy, target)
    return target


def fit_resumable(
    model, x, y, *, epochs, batch_size, local_dir, drive_dir=None, save_every=200, drive_every=None, seed=1234,
    callbacks=(),
):
    """Trains ``model`` (compiled) from its newest checkpoint to the end of ``epochs``; returns the last History.

    ``callbacks`` are your own (TensorBoard, logging…), given to each ``fit``.
    """
    os.makedirs(local_dir, exist_ok=True)
    per_epoch = math.ceil(len(x) / batch_size)
    step = load_newest(model, local_dir, drive_dir)
    if step:
        print(f"Resuming at step {step}: epoch {step // per_epoch + 1}, {step % per_epoch} batches into it")
    saver = StepCheckpoint(local_dir, drive_dir, save_every, drive_every)
    history = None
    for epoch in range(step // per_epoch, epochs):
        first = step % per_epoch if epoch == step // per_epoch else 0
        batches = EpochBatches(x, y, batch_size, epoch, first, seed)
        fit_callbacks = [*callbacks, saver]
        history = model.fit(batches, epochs=epoch + 1, initial_epoch=epoch, callbacks=fit_callbacks, verbose=0)
    last = optimizer_step(model)
    if last != step and last % saver.drive_every:
        saver.save(last, to_drive=True)  # the end, on Drive too: a Run all after it finds the training done
    return history
