"""A PyTorch training loop that resumes where it stopped after Colab OOM Guard's restart.

A restart (the guard's "Restart session and run all", or Colab's RAM crash) runs every cell again in a fresh Python
process on the same machine: /content survives it. A new machine (a disconnect, Colab's time limit) starts with an
empty /content, and only Google Drive survives it. So:

- a checkpoint is written to local disk every ``save_every`` optimizer steps, in the middle of an epoch too, whole or
  not at all (a temporary file, then a rename): a restart resumes at the step it saved, not at the epoch;
- every ``drive_every`` steps (by default each save) and at the end, it is also copied to Drive under a new name,
  never over an older checkpoint, with the list of its size written last (drive_copies.py): Drive uploads in the
  background, and a copy cut short by a lost machine is skipped. The optimizer state is about twice the model: with a
  large model, copy to Drive less often than you save locally (a restart resumes from /content; only a new machine
  needs Drive);
- the newest two are kept in each place, older ones are deleted;
- at start, the newest checkpoint that loads is used, from /content or from Drive, loaded on the CPU with
  ``mmap=True`` (PyTorch 2.1 and later): its tensors are read from the file as they are copied into the model, so a
  free-tier machine that just ran out of RAM does not need room for a second copy of everything (loading onto the
  GPU needs memory beside the model's, which a notebook that just ran out of memory does not have either).

Drive keeps deleted files in its Trash for 30 days, and the Trash counts against your storage quota: with large
checkpoints, empty it now and then (drive.google.com, Trash), or keep fewer checkpoints on Drive.

A checkpoint holds everything that moves during training: the model, the optimizer, the learning-rate scheduler, the
gradient scaler (mixed precision), the random number generators (Python, NumPy, PyTorch, CUDA) and the position in
the data (epoch, samples of it done, optimizer steps). A run that restarts twice ends with the same weights, loss and
step as a run that never stopped (python/examples/test_recipes.py checks it on the CPU).

Use (save this file and drive_copies.py next to your notebook, or paste them into a cell above the training cell)::

    from google.colab import drive
    drive.mount("/content/drive")  # asks once per machine; after a restart it is still mounted

    model = MyModel().to("cuda")
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=EPOCHS)
    scaler = torch.amp.GradScaler("cuda")  # for bfloat16: torch.amp.GradScaler("cuda", enabled=False)
    checkpoints = Checkpoints("/content/checkpoints/my-run", "/content/drive/MyDrive/checkpoints/my-run")
    train(model, optimizer, scheduler, scaler, train_set, loss_fn, checkpoints, epochs=EPOCHS, batch_size=64,
          save_every=200, drive_every=1000)

Do not catch the out of memory yourself: the guard acts on the error that ends the cell.
"""

import contextlib
import inspect
import os
import random
import re
import time

import numpy as np
import torch
from drive_copies import DriveCopies, is_whole

# step-<optimizer step>-<when this process started, in ms>.pt: a run that replays steps after resuming from an older
# checkpoint never reuses a name.
_NAME = re.compile(r"^step-(\d{9})-(\d{13})\.pt$")


class Checkpoints:
    """Checkpoints in `local_dir` (fast, kept by a restart) and copies in `drive_dir` (kept by a new machine)."""

    def __init__(self, local_dir, drive_dir=None, keep=2):
        self.local_dir = local_dir
        self.drive_dir = drive_dir
        self.keep = keep
        self.drive = DriveCopies(drive_dir, keep) if drive_dir else None
        self.session = f"{int(time.time() * 1000):013d}"
        os.makedirs(local_dir, exist_ok=True)
        # A save an earlier process began and never finished (a crash): one writer per folder.
        for name in os.listdir(local_dir):
            if name.endswith(".tmp"):
                os.remove(os.path.join(local_dir, name))

    def save(self, state, step, to_drive=True):
        """Writes `state` as the checkpoint of optimizer step `step`; copies it to Drive too when `to_drive`."""
        local = os.path.join(self.local_dir, f"step-{step:09d}-{self.session}.pt")
        torch.save(state, local + ".tmp")  # a crash here leaves only the .tmp file
        os.replace(local + ".tmp", local)  # a rename: the checkpoint is whole or absent
        for *_, name in _checkpoints(self.local_dir)[: -self.keep]:
            os.remove(os.path.join(self.local_dir, name))
        if to_drive and self.drive:
            self.drive.copy(local, step)  # a new name on Drive: no older checkpoint is overwritten

    def load_newest(self):
        """The newest checkpoint that loads, on the CPU, or None when there is none (the first run)."""
        for path in self._newest_first():
            try:
                state = _load(path)
            except MemoryError:
                raise
            except Exception as error:  # pylint: disable=broad-except
                # A file cut short (a crash, a full disk) fails to unpickle in one of many ways.
                print(f"Skipping {path}: it does not load ({type(error).__name__}: {error})")
                continue
            print(f"Resuming from {path}")
            return state
        return None

    def _newest_first(self):
        """Every checkpoint, newest first (by step, then by the process that wrote it); local before Drive."""
        found = [(*local[:2], 0, os.path.join(self.local_dir, local[2])) for local in _checkpoints(self.local_dir)]
        for _, folder in reversed(self.drive.copies() if self.drive else []):
            if is_whole(folder):
                found += [(*copy[:2], 1, os.path.join(folder, copy[2])) for copy in _checkpoints(folder)]
            else:
                print(f"Skipping {folder}: it is not whole")
        return [path for *_, path in sorted(found, key=lambda item: (-item[0], -item[1], item[2]))]


def _load(path):
    """The checkpoint at ``path`` on the CPU, memory-mapped where PyTorch can (2.1 and later, as on Colab)."""
    # weights_only=False: this is your own file, and it holds NumPy's random state, which the safe loader refuses.
    if "mmap" in inspect.signature(torch.load).parameters:
        return torch.load(path, map_location="cpu", weights_only=False, mmap=True)
    return torch.load(path, map_location="cpu", weights_only=False)


def _checkpoints(folder):
    if not os.path.isdir(folder):
        return []
    names = (_NAME.match(name) for name in os.listdir(folder))
    return sorted((int(match.group(1)), int(match.group(2)), match.group(0)) for match in names if match)


def training_state(model, optimizer, scheduler, scaler, position):
    """Everything that moves during training, as it is now; `position` says where in the data."""
    return {
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict(),
        "scheduler": scheduler.state_dict(),
        "scaler": scaler.state_dict(),
        "rng": {
            "python": random.getstate(),
            "numpy": np.random.get_state(),
            "torch": torch.get_rng_state(),
            "cuda": torch.cuda.get_rng_state_all(),
        },
        "position": dict(position),
    }


def restore_training_state(state, model, optimizer, scheduler, scaler):
    """Puts a checkpoint back into the training objects; returns its position in the data."""
    model.load_state_dict(state["model"])  # copies each tensor into the model's own parameters, on their device
    optimizer.load_state_dict(state["optimizer"])  # moves its tensors to the device of their parameters
    scheduler.load_state_dict(state["scheduler"])
    scaler.load_state_dict(state["scaler"])
    random.setstate(state["rng"]["python"])
    np.random.set_state(state["rng"]["numpy"])
    torch.set_rng_state(state["rng"]["torch"])
    torch.cuda.set_rng_state_all(state["rng"]["cuda"])
    return dict(state["position"])


def epoch_loader(train_set, epoch, done, batch_size, seed, **loader_args):
    """The epoch's samples in an order of its own, the same at every run, without the first `done` (trained on)."""
    # Its own generator for the order and for the seeds the loader draws: the global one (dropout...) is untouched.
    order_rng = torch.Generator().manual_seed(seed + epoch)
    order = torch.randperm(len(train_set), generator=order_rng).tolist()
    return torch.utils.data.DataLoader(
        train_set, batch_size=batch_size, sampler=order[done:], generator=order_rng, **loader_args
    )


def train(
    model,
    optimizer,
    scheduler,
    scaler,
    train_set,
    loss_fn,
    checkpoints,
    *,
    epochs,
    batch_size,
    accum_steps=1,
    seed=1234,
    save_every=200,
    drive_every=None,
    amp_dtype=torch.float16,
    loader_args=None,
    on_step=None,
):
    """Trains from the newest checkpoint (or from the start) to the end of `epochs`; returns (steps, last loss).

    `accum_steps` batches make one optimizer step (gradient accumulation: a smaller `batch_size` with more steps
    needs less memory for the same training). A checkpoint goes to local disk every `save_every` optimizer steps, and
    to Drive every `drive_every` steps (a multiple of `save_every`; None: each save) and at the end of training.
    `amp_dtype` is the mixed-precision type (torch.float16 with an enabled
    scaler, torch.bfloat16 with a disabled one), None for none. `on_step(step, loss)` is called after each optimizer
    step (for logging).
    """
    device = next(model.parameters()).device
    state = checkpoints.load_newest()
    if state is None:
        # Seeded only on the first run: a resumed run takes its generators from the checkpoint.
        random.seed(seed)
        np.random.seed(seed)
        torch.manual_seed(seed)
        position = {"epoch": 0, "done": 0, "step": 0}
    else:
        position = restore_training_state(state, model, optimizer, scheduler, scaler)
    epoch, done, step = position["epoch"], position["done"], position["step"]
    last_loss = position.get("loss")
    if state is not None:
        print(f"Resuming at step {step}: epoch {epoch + 1}, {done} samples into it")
    drive_every = drive_every or save_every
    on_drive = step  # the step of the newest checkpoint on Drive, as far as this run knows

    def save(to_drive):
        nonlocal on_drive
        where = {"epoch": epoch, "done": done, "step": step, "loss": last_loss}
        checkpoints.save(training_state(model, optimizer, scheduler, scaler, where), step, to_drive)
        if to_drive:
            on_drive = step

    while epoch < epochs:
        model.train()
        optimizer.zero_grad(set_to_none=True)
        loader = epoch_loader(train_set, epoch, done, batch_size, seed, **(loader_args or {}))
        for i, (x, y) in enumerate(loader):
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            with _autocast(device, amp_dtype):
                loss = loss_fn(model(x), y) / accum_steps
            scaler.scale(loss).backward()
            done += len(x)
            if (i + 1) % accum_steps == 0 or i + 1 == len(loader):
                scaler.step(optimizer)
                scaler.update()
                optimizer.zero_grad(set_to_none=True)
                step += 1
                last_loss = loss.item() * accum_steps
                if on_step:
                    on_step(step, last_loss)
                if step % save_every == 0:
                    save(to_drive=step % drive_every == 0)
        scheduler.step()
        epoch, done = epoch + 1, 0
    if on_drive != step:
        save(to_drive=True)  # the end, on Drive too: a Run all after it finds the training done
    return step, last_loss


def _autocast(device, dtype):
    return torch.autocast(device_type=device.type, dtype=dtype) if dtype else contextlib.nullcontext()
