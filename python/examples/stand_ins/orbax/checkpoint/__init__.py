"""Stand-in for ``orbax.checkpoint``'s CheckpointManager, for python/examples/test_recipes.py only.

See ../../README.md.

Pytrees of NumPy arrays and numbers (nested dicts and lists) are stored in ``<directory>/<step>/default/``, written
to a temporary folder and renamed when complete, as Orbax does.
"""

import json
import os
import shutil

import numpy as np

__all__ = ["CheckpointManager", "CheckpointManagerOptions", "args"]


class CheckpointManagerOptions:
    def __init__(self, max_to_keep=None, save_interval_steps=1):
        self.max_to_keep, self.save_interval_steps = max_to_keep, save_interval_steps


class _StandardSave:
    def __init__(self, item):
        self.item = item


class _StandardRestore:
    def __init__(self, item=None):
        self.item = item


class args:  # pylint: disable=invalid-name,too-few-public-methods
    StandardSave = _StandardSave
    StandardRestore = _StandardRestore


class CheckpointManager:
    """save(step, args=args.StandardSave(tree), force=False) -> bool; restore(step, args=args.StandardRestore(tree));
    latest_step(); all_steps(); wait_until_finished(); close()."""

    def __init__(self, directory, options=None):
        if not os.path.isabs(directory):
            raise ValueError("Checkpoint path should be absolute.")
        self.directory, self.options = directory, options or CheckpointManagerOptions()
        os.makedirs(directory, exist_ok=True)

    def all_steps(self, read=False):
        return sorted(int(name) for name in os.listdir(self.directory) if name.isdigit())

    def latest_step(self):
        steps = self.all_steps()
        return steps[-1] if steps else None

    def save(self, step, args=None, force=False):  # pylint: disable=redefined-outer-name
        if step in self.all_steps():
            raise ValueError(f"Checkpoint for step {step} already exists.")
        if not force and step % self.options.save_interval_steps:
            return False
        final = os.path.join(self.directory, str(step))
        temporary = f"{final}.orbax-checkpoint-tmp-0"
        os.makedirs(os.path.join(temporary, "default"))
        leaves = _leaves(args.item)
        np.savez(os.path.join(temporary, "default", "leaves.npz"), **{str(i): leaf for i, leaf in enumerate(leaves)})
        with open(os.path.join(temporary, "_CHECKPOINT_METADATA"), "w", encoding="utf-8") as file:
            json.dump({"leaves": len(leaves)}, file)
        os.replace(temporary, final)
        keep = self.options.max_to_keep
        for old in self.all_steps()[:-keep] if keep else []:
            shutil.rmtree(os.path.join(self.directory, str(old)))
        return True

    def restore(self, step, args=None):  # pylint: disable=redefined-outer-name
        with np.load(os.path.join(self.directory, str(step), "default", "leaves.npz")) as stored:
            leaves = [stored[str(i)] for i in range(len(stored.files))]
        return _rebuild(args.item, iter(leaves))

    def wait_until_finished(self):
        pass

    def close(self):
        pass


def _leaves(tree):
    if isinstance(tree, dict):
        return [leaf for key in sorted(tree) for leaf in _leaves(tree[key])]
    if isinstance(tree, (list, tuple)):
        return [leaf for item in tree for leaf in _leaves(item)]
    return [np.asarray(tree)]


def _rebuild(template, leaves):
    if isinstance(template, dict):
        return {key: _rebuild(template[key], leaves) for key in sorted(template)}
    if isinstance(template, (list, tuple)):
        return type(template)(_rebuild(item, leaves) for item in template)
    leaf = next(leaves)
    return leaf if isinstance(template, np.ndarray) else leaf.item()
