"""Stand-in for ``lightning.pytorch.callbacks`` (see ../../../README.md)."""

import glob
import os

__all__ = ["Callback", "ModelCheckpoint"]


class Callback:
    """The hooks the recipes override; each does nothing here."""

    def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx):
        pass

    def on_train_end(self, trainer, pl_module):
        pass

    def on_save_checkpoint(self, trainer, pl_module, checkpoint):
        pass

    def on_load_checkpoint(self, trainer, pl_module, checkpoint):
        pass


class ModelCheckpoint(Callback):
    """Saves ``<dirpath>/step=<n>.ckpt`` every ``every_n_train_steps`` steps, keeps the ``save_top_k`` best by
    ``monitor`` ("step" here, ``mode="max"``: the newest), and with ``save_last=True`` also ``last.ckpt``."""

    CHECKPOINT_NAME_LAST = "last"

    def __init__(
        self, dirpath, filename, every_n_train_steps, save_top_k=1, monitor=None, mode="min", save_last=None
    ):
        if (filename, monitor, mode) != ("{step}", "step", "max"):
            raise ValueError("the stand-in knows filename='{step}', monitor='step', mode='max' only")
        self.dirpath, self.every_n_train_steps, self.save_top_k = dirpath, every_n_train_steps, save_top_k
        self.save_last = save_last
        self.last_model_path = ""
        self._last_global_step_saved = -1

    def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx):
        step = trainer.global_step
        if step % self.every_n_train_steps or step == self._last_global_step_saved:
            return
        self._last_global_step_saved = step
        trainer.save_checkpoint(os.path.join(self.dirpath, f"step={step}.ckpt"))
        saved = sorted(glob.glob(os.path.join(self.dirpath, "step=*.ckpt")), key=_step)
        for old in saved[: -self.save_top_k]:
            os.remove(old)
        if self.save_last:
            self.last_model_path = os.path.join(self.dirpath, f"{self.CHECKPOINT_NAME_LAST}.ckpt")
            trainer.save_checkpoint(self.last_model_path)


def _step(path):
    return int(os.path.basename(path)[len("step=") : -len(".ckpt")])
