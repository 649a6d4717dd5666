"""Stand-in for PyTorch Lightning 2.x (``import lightning as L``), for python/examples/test_recipes.py only."""

from .pytorch import LightningModule, Trainer, seed_everything

__all__ = ["LightningModule", "Trainer", "seed_everything"]
