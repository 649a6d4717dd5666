"""PyTorch Lightning training that resumes at the step it saved after Colab OOM Guard's restart.

``trainer.fit(model, loader, ckpt_path="last")`` resumes from the newest ``last.ckpt`` of the ModelCheckpoint's
folder (Lightning 2.x): the model, the optimizers, the schedulers, and the loops' progress, the batches of the
interrupted epoch already done included. What it cannot know is which samples those batches were: a plain DataLoader
starts its epoch over (Lightning warns that resuming before the epoch's end "can cause unreliable results"). So, by
the rules of drive_copies.py:

- ``EpochOrder`` is a sampler that gives each epoch an order of its own, the same at every run, and after a resume
  leaves out the samples the interrupted epoch already trained on;
- ``DriveCheckpoint`` is a ModelCheckpoint that saves to /content every ``save_every`` steps (the newest two by step,
  and ``last.ckpt``), records in each checkpoint how far into its epoch it is (for ``EpochOrder``), and copies every
  ``drive_every``-th one, and the one at the end, to Drive under a new name (``DriveCopies``), keeping two there;
- ``prepare_resume`` puts Drive's newest whole copy back as ``last.ckpt`` on a new machine, whose /content is empty.

Use (save this file and drive_copies.py next to your notebook, or paste them into a cell above the training cell)::

    import lightning as L
    import torch
    from google.colab import drive
    drive.mount("/content/drive")

    LOCAL_DIR = "/content/checkpoints/my-lightning-run"
    DRIVE_DIR = "/content/drive/MyDrive/checkpoints/my-lightning-run"
    L.seed_everything(1234)
    order = EpochOrder(train_set)
    loader = torch.utils.data.DataLoader(train_set, batch_size=64, sampler=order, num_workers=2)
    checkpoint = DriveCheckpoint(LOCAL_DIR, DRIVE_DIR, order=order, save_every=200)
    trainer = L.Trainer(max_epochs=20, callbacks=[checkpoint], precision="16-mixed")
    prepare_resume(LOCAL_DIR, DRIVE_DIR)
    trainer.fit(MyLightningModule(), loader, ckpt_path="last")

Do not catch the out of memory yourself: the guard acts on the error that ends the cell.
"""

import math
import os

import torch
from drive_copies import DriveCopies, restore_file
from lightning.pytorch.callbacks import ModelCheckpoint

LAST = "last.ckpt"


class EpochOrder(torch.utils.data.Sampler):
    """Each epoch's samples in an order of its own (the same at every run), without those a resume skips."""

    def __init__(self, dataset, seed=1234):
        super().__init__(None)  # PyTorch before 2.2 wants an argument it does not use
        self.size, self.seed, self.epoch, self.skip = len(dataset), seed, 0, {}

    def set_epoch(self, epoch):
        """Lightning calls this at the start of each epoch, as for PyTorch's DistributedSampler."""
        self.epoch = epoch

    def resume(self, epoch, done):
        """The interrupted epoch already trained on its first ``done`` samples."""
        self.skip = {epoch: done}

    def __iter__(self):
        order = torch.randperm(self.size, generator=torch.Generator().manual_seed(self.seed + self.epoch)).tolist()
        return iter(order[self.skip.pop(self.epoch, 0) :])

    def __len__(self):
        # The whole epoch: Lightning counts the batches it restored as done, and ends the epoch at this length.
        return self.size


class DriveCheckpoint(ModelCheckpoint):
    """Checkpoints every ``save_every`` steps in ``local_dir`` (the newest two, and last.ckpt), copies on Drive."""

    def __init__(self, local_dir, drive_dir=None, *, order, save_every=200, drive_every=None, keep=2):
        super().__init__(
            dirpath=local_dir,
            filename="{step}",
            every_n_train_steps=save_every,
            save_top_k=keep,
            monitor="step",
            mode="max",
            save_last=True,
        )
        self.order = order
        self.drive = DriveCopies(drive_dir, keep) if drive_dir else None
        self.save_every, self.drive_every = save_every, drive_every or save_every

    def on_save_checkpoint(self, trainer, pl_module, checkpoint):
        super().on_save_checkpoint(trainer, pl_module, checkpoint)
        # How far into its epoch the run is, from the steps made (what the loader fetched ahead does not count).
        steps_per_epoch = math.ceil(trainer.num_training_batches / trainer.accumulate_grad_batches)
        batches = (trainer.global_step - trainer.current_epoch * steps_per_epoch) * trainer.accumulate_grad_batches
        done = min(batches, trainer.num_training_batches) * trainer.train_dataloader.batch_size
        checkpoint["epoch_order"] = {"epoch": trainer.current_epoch, "done": done}

    def on_load_checkpoint(self, trainer, pl_module, checkpoint):
        super().on_load_checkpoint(trainer, pl_module, checkpoint)
        where = checkpoint.get("epoch_order")
        if where:
            self.order.resume(where["epoch"], where["done"])
            step, epoch, done = checkpoint["global_step"], where["epoch"] + 1, where["done"]
            print(f"Resuming at step {step}: epoch {epoch}, {done} samples into it")

    def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx):
        super().on_train_batch_end(trainer, pl_module, outputs, batch, batch_idx)
        step = trainer.global_step
        if self.drive and step % self.save_every == 0 and step % self.drive_every == 0:
            self._copy(self.last_model_path, step)

    def on_train_end(self, trainer, pl_module):
        super().on_train_end(trainer, pl_module)
        last = os.path.join(self.dirpath, LAST)
        trainer.save_checkpoint(last)  # the end, whole; on Drive too: a Run all after it finds the training done
        if self.drive:
            self._copy(last, trainer.global_step)

    def _copy(self, path, step):
        copies = self.drive.copies()
        if not (copies and copies[-1][0] == step):
            self.drive.copy(path, step)


def prepare_resume(local_dir, drive_dir=None):
    """On a new machine (no last.ckpt on /content), Drive's newest whole copy becomes last.ckpt for ckpt_path="last"."""
    os.makedirs(local_dir, exist_ok=True)
    if os.path.exists(os.path.join(local_dir, LAST)) or not drive_dir:
        return
    copy = DriveCopies(drive_dir).newest_whole()
    if copy:
        restore_file(copy[1], os.path.join(local_dir, LAST))
        print(f"Resuming from {copy[1]}")
