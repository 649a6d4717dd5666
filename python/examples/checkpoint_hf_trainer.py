"""Hugging Face Trainer runs that resume after Colab OOM Guard's restart, by the rule of checkpoint_pytorch.py.

The Trainer writes each checkpoint-N folder with all a resume needs (model, optimizer, scheduler, gradient scaler,
random number generators, and trainer_state.json, last) and, resuming, skips the batches it had trained on. Here:

- `output_dir` is on local disk (/content), where the Trainer writes fast and keeps the newest two
  (`save_total_limit=2`);
- after each save, CopyToDrive copies the new folder to Drive under a new name (checkpoint-N-<ms>, first as
  .partial, with a list of its files and their sizes written last, then renamed), never over an older copy, and keeps
  the newest two there;
- at start, newest_whole_checkpoint() picks the newest folder that is whole, local or on Drive (a copy cut short by a
  lost machine is skipped), for `trainer.train(resume_from_checkpoint=...)`.

Drive keeps deleted files in its Trash for 30 days, and the Trash counts against your storage quota: with large
checkpoints, empty it now and then (drive.google.com, Trash).

Use::

    LOCAL_DIR = "/content/checkpoints/my-hf-run"
    DRIVE_DIR = "/content/drive/MyDrive/checkpoints/my-hf-run"
    args = TrainingArguments(
        output_dir=LOCAL_DIR,
        save_strategy="steps",
        save_steps=200,  # an out of memory loses at most 200 steps
        save_total_limit=2,
        per_device_train_batch_size=16,
        gradient_accumulation_steps=4,  # 64 samples per step; halve the first and double this to use less memory
        fp16=True,
        num_train_epochs=3,
    )
    trainer = Trainer(model=model, args=args, train_dataset=train_set, callbacks=[CopyToDrive(DRIVE_DIR)])
    trainer.train(resume_from_checkpoint=newest_whole_checkpoint(LOCAL_DIR, DRIVE_DIR))  # None: from the start
"""

import json
import os
import re
import shutil
import time

from transformers import TrainerCallback
from transformers.trainer_utils import PREFIX_CHECKPOINT_DIR

MANIFEST = "copied-files.json"
TRAINER_STATE = "trainer_state.json"
# The Trainer's checkpoint-<step>, and Drive's copies checkpoint-<step>-<when the copying process started, in ms>.
_NAME = re.compile(rf"^{PREFIX_CHECKPOINT_DIR}-(\d+)(?:-(\d+))?$")


class CopyToDrive(TrainerCallback):
    """Copies each checkpoint the Trainer saves to `drive_dir`, under a new name, keeping the newest `keep` there."""

    def __init__(self, drive_dir, keep=2):
        self.drive_dir = drive_dir
        self.keep = keep
        self.session = f"{int(time.time() * 1000):013d}"
        os.makedirs(drive_dir, exist_ok=True)
        # Copies an earlier process began and never finished (its machine was lost): one writer per folder.
        for name in os.listdir(drive_dir):
            if name.endswith(".partial"):
                shutil.rmtree(os.path.join(drive_dir, name), ignore_errors=True)

    def on_save(self, args, state, control, **kwargs):
        if not state.is_world_process_zero:
            return
        name = f"{PREFIX_CHECKPOINT_DIR}-{state.global_step}"
        target = os.path.join(self.drive_dir, f"{name}-{self.session}")
        _copy_whole(os.path.join(args.output_dir, name), target)
        for *_, old in _checkpoints(self.drive_dir)[: -self.keep]:
            shutil.rmtree(old)


def newest_whole_checkpoint(*folders):
    """The newest whole checkpoint folder in `folders` (local first at the same step), or None (the first run)."""
    found = []
    for rank, folder in enumerate(folders):
        found += [(-step, rank, -session, path) for step, session, path in _checkpoints(folder)]
    for _, _, session, path in sorted(found):
        if _is_whole(path, copied=session != 0):
            print(f"Resuming from {path}")
            return path
        print(f"Skipping {path}: it is not whole")
    return None


def _copy_whole(source, target):
    partial = target + ".partial"
    shutil.copytree(source, partial)
    sizes = {
        os.path.relpath(os.path.join(root, name), partial): os.path.getsize(os.path.join(root, name))
        for root, _, names in os.walk(partial)
        for name in names
    }
    with open(os.path.join(partial, MANIFEST), "w", encoding="utf-8") as file:
        json.dump(sizes, file)
    os.replace(partial, target)


def _is_whole(path, copied):
    """The Trainer's folders are whole once trainer_state.json (written last) reads; copies once every file of
    their list (written last) is there with its size."""
    try:
        with open(os.path.join(path, TRAINER_STATE), encoding="utf-8") as file:
            json.load(file)
        if not copied:
            return True
        with open(os.path.join(path, MANIFEST), encoding="utf-8") as file:
            sizes = json.load(file)
        return all(os.path.getsize(os.path.join(path, name)) == size for name, size in sizes.items())
    except (OSError, ValueError):
        return False


def _checkpoints(folder):
    if not os.path.isdir(folder):
        return []
    found = []
    for name in os.listdir(folder):
        match = _NAME.match(name)
        if match and os.path.isdir(os.path.join(folder, name)):
            found.append((int(match.group(1)), int(match.group(2) or 0), os.path.join(folder, name)))
    return sorted(found)
