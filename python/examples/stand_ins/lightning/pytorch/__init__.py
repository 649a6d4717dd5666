"""Stand-in for ``lightning.pytorch``'s Trainer and LightningModule, on PyTorch (see ../../README.md)."""

import glob
import os
import random

import numpy as np
import torch

from .callbacks import ModelCheckpoint

__all__ = ["LightningModule", "Trainer", "seed_everything"]


def seed_everything(seed):
    """Python's, NumPy's and PyTorch's generators."""
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    return seed


class LightningModule(torch.nn.Module):
    """``training_step(batch, batch_idx)`` returns the loss; ``configure_optimizers()`` returns one optimizer."""

    trainer = None

    def log(self, *args, **kwargs):
        pass


class Trainer:
    """``Trainer(max_epochs, callbacks, accumulate_grad_batches).fit(model, train_dataloaders, ckpt_path)``."""

    def __init__(self, max_epochs, callbacks=None, accumulate_grad_batches=1, **ignored):
        self.max_epochs, self.callbacks = max_epochs, list(callbacks or [])
        self.accumulate_grad_batches = accumulate_grad_batches
        self.global_step = self.current_epoch = 0
        self.num_training_batches = 0
        self.train_dataloader = self.model = self.optimizer = None
        self._batches_done = 0  # in the current epoch: the loop's progress, saved and restored

    def fit(self, model, train_dataloaders, ckpt_path=None):
        self.model, self.train_dataloader = model, train_dataloaders
        model.trainer = self
        self.optimizer = model.configure_optimizers()
        path = self._last_checkpoint() if ckpt_path == "last" else ckpt_path
        if ckpt_path == "last" and path is None:
            print('ckpt_path="last" is set, but there is no last checkpoint available. No checkpoint will be loaded.')
        if path:
            self._restore(path)
        self.num_training_batches = len(train_dataloaders)
        while self.current_epoch < self.max_epochs:
            self._train_epoch()
            self.current_epoch, self._batches_done = self.current_epoch + 1, 0
        for callback in self.callbacks:
            callback.on_train_end(self, model)

    def _train_epoch(self):
        sampler = self.train_dataloader.sampler
        if hasattr(sampler, "set_epoch"):
            sampler.set_epoch(self.current_epoch)
        self.model.train()
        for batch in self.train_dataloader:
            if self._batches_done >= self.num_training_batches:
                break
            loss = self.model.training_step(batch, self._batches_done) / self.accumulate_grad_batches
            loss.backward()
            self._batches_done += 1
            last = self._batches_done == self.num_training_batches
            if self._batches_done % self.accumulate_grad_batches == 0 or last:
                self.optimizer.step()
                self.optimizer.zero_grad()
                self.global_step += 1
                self.last_loss = loss.item() * self.accumulate_grad_batches
            for callback in self.callbacks:
                callback.on_train_batch_end(self, self.model, loss, batch, self._batches_done - 1)

    def save_checkpoint(self, filepath):
        """Everything a resume reads, written whole: a temporary file, then a rename."""
        checkpoint = {
            "state_dict": self.model.state_dict(),
            "optimizer_states": [self.optimizer.state_dict()],
            "global_step": self.global_step,
            "epoch": self.current_epoch,
            "loops": {"fit_loop": {"batches_done_in_epoch": self._batches_done}},
            "last_loss": getattr(self, "last_loss", None),
        }
        for callback in self.callbacks:
            callback.on_save_checkpoint(self, self.model, checkpoint)
        os.makedirs(os.path.dirname(filepath), exist_ok=True)
        torch.save(checkpoint, filepath + ".tmp")
        os.replace(filepath + ".tmp", filepath)

    def _restore(self, path):
        checkpoint = torch.load(path)
        self.model.load_state_dict(checkpoint["state_dict"])
        self.optimizer.load_state_dict(checkpoint["optimizer_states"][0])
        self.global_step, self.current_epoch = checkpoint["global_step"], checkpoint["epoch"]
        self._batches_done = checkpoint["loops"]["fit_loop"]["batches_done_in_epoch"]
        self.last_loss = checkpoint["last_loss"]
        for callback in self.callbacks:
            callback.on_load_checkpoint(self, self.model, checkpoint)

    def _last_checkpoint(self):
        """The newest ``last*.ckpt`` in the ModelCheckpoint's folder, as ``ckpt_path="last"`` finds it."""
        found = [
            path
            for callback in self.callbacks
            if isinstance(callback, ModelCheckpoint)
            for path in glob.glob(os.path.join(callback.dirpath, "last*.ckpt"))
        ]
        return max(found, key=os.path.getmtime) if found else None
