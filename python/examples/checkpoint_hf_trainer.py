"""Hugging Face Trainer runs that resume after Colab OOM Guard's restart, by the rules of drive_copies.py.

The Trainer writes each checkpoint-N folder with all a resume needs (model, optimizer, scheduler, gradient scaler,
random number generators, and trainer_state.json, last) and, resuming, skips the batches it had trained on, in the
middle of an epoch too. Here:

- ``output_dir`` is on local disk (/content), where the Trainer writes fast and keeps the newest two
  (``save_total_limit=2``);
- after a save, ``CopyToDrive`` copies the new folder to Drive under a new name (``DriveCopies``), every
  ``drive_every`` steps (by default each save) and keeps the newest two there. It copies only what a resume reads:
  not the tokenizer, the training arguments or the model card, which the notebook makes again. The optimizer state
  is about twice the model: with a large model, copy to Drive less often than you save (a restart resumes from
  /content; only a new machine needs Drive);
- at start, ``newest_whole_checkpoint()`` picks the newest folder that is whole, local or on Drive (a copy cut short
  by a lost machine is skipped), for ``trainer.train(resume_from_checkpoint=...)``.

Use (save this file and drive_copies.py next to your notebook)::

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
    trainer = Trainer(model=model, args=args, train_dataset=train_set,
                      callbacks=[CopyToDrive(DRIVE_DIR, drive_every=1000)])
    trainer.train(resume_from_checkpoint=newest_whole_checkpoint(LOCAL_DIR, DRIVE_DIR))  # None: from the start
"""

import json
import os
import re

from drive_copies import DriveCopies, is_whole
from transformers import TrainerCallback
from transformers.trainer_utils import PREFIX_CHECKPOINT_DIR

TRAINER_STATE = "trainer_state.json"
# Written by the Trainer for people or for loading the model elsewhere, not read by a resume.
_NOT_FOR_RESUMING = re.compile(
    r"^(training_args\.bin|README\.md|tokenizer.*|special_tokens_map\.json|added_tokens\.json|vocab\..*|"
    r"merges\.txt|spiece\.model|sentencepiece\..*|chat_template\..*|preprocessor_config\.json)$"
)
_LOCAL = re.compile(rf"^{PREFIX_CHECKPOINT_DIR}-(\d+)$")


def resume_needs(relative_path):
    """Whether a resume reads this file of a checkpoint folder (the model, optimizer, scheduler, RNG, state)."""
    return not _NOT_FOR_RESUMING.match(os.path.basename(relative_path))


class CopyToDrive(TrainerCallback):
    """Copies the checkpoints the Trainer saves to ``drive_dir``, every ``drive_every`` steps, the newest ``keep``."""

    def __init__(self, drive_dir, keep=2, drive_every=None):
        self.drive = DriveCopies(drive_dir, keep, wanted=resume_needs)
        self.drive_every = drive_every

    def on_save(self, args, state, control, **kwargs):
        if not state.is_world_process_zero:
            return
        # The Trainer also saves at the end (save_strategy="steps"): that one goes to Drive whatever drive_every says.
        due = not self.drive_every or state.global_step % self.drive_every == 0 or state.global_step >= state.max_steps
        if not due:
            return
        step = state.global_step
        self.drive.copy(os.path.join(args.output_dir, f"{PREFIX_CHECKPOINT_DIR}-{step}"), step)


def newest_whole_checkpoint(local_dir, drive_dir=None):
    """The newest whole checkpoint folder, local first at the same step, or None (the first run)."""
    found = [(int(match.group(1)), 0, os.path.join(local_dir, match.group(0))) for match in _local(local_dir)]
    found += [(step, 1, folder) for step, folder in (DriveCopies(drive_dir).copies() if drive_dir else [])]
    for step, copied, path in sorted(found, key=lambda item: (-item[0], item[1])):
        if _trainer_state_reads(path) and (not copied or is_whole(path)):
            print(f"Resuming from {path} at step {step}")
            return path
        print(f"Skipping {path}: it is not whole")
    return None


def _local(folder):
    return [match for match in map(_LOCAL.match, os.listdir(folder) if os.path.isdir(folder) else []) if match]


def _trainer_state_reads(path):
    """The Trainer writes trainer_state.json last: a folder where it reads is whole."""
    try:
        with open(os.path.join(path, TRAINER_STATE), encoding="utf-8") as file:
            json.load(file)
        return True
    except (OSError, ValueError):
        return False
