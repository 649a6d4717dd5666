"""Stand-in for transformers' Trainer, for python/examples/test_recipes.py only (see ../README.md)."""

import dataclasses
import json
import os
import random
import shutil

import numpy as np
import torch

from .trainer_utils import PREFIX_CHECKPOINT_DIR

__all__ = ["Trainer", "TrainerCallback", "TrainerControl", "TrainerState", "TrainingArguments"]


@dataclasses.dataclass
class TrainingArguments:
    output_dir: str
    save_strategy: str = "steps"  # the only one the stand-in knows
    fp16: bool = False  # mixed precision is the GPU's: the stand-in trains in float32
    save_steps: int = 500
    save_total_limit: int = None
    per_device_train_batch_size: int = 8
    gradient_accumulation_steps: int = 1
    num_train_epochs: int = 3
    learning_rate: float = 5e-5
    seed: int = 42


@dataclasses.dataclass
class TrainerState:
    global_step: int = 0
    max_steps: int = 0
    epoch: float = 0.0
    is_world_process_zero: bool = True
    log_history: list = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class TrainerControl:
    should_save: bool = False


class TrainerCallback:
    """The events a recipe may override; the stand-in Trainer calls on_save only."""

    def on_save(self, args, state, control, **kwargs):
        pass


class Trainer:
    """Trains `model` (its forward takes inputs and labels and returns the loss, as Hugging Face models do)."""

    def __init__(self, model=None, args=None, train_dataset=None, callbacks=None):
        self.model = model
        self.args = args
        self.train_dataset = train_dataset
        self.callbacks = list(callbacks or [])
        self.state = TrainerState()
        self.control = TrainerControl()
        # As the real Trainer's set_seed(args.seed): Python's, NumPy's and PyTorch's generators.
        random.seed(args.seed)
        np.random.seed(args.seed)
        torch.manual_seed(args.seed)

    def train(self, resume_from_checkpoint=None):
        args = self.args
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=args.learning_rate)
        total = self._steps_per_epoch() * args.num_train_epochs
        self.scheduler = torch.optim.lr_scheduler.LambdaLR(self.optimizer, lambda step: 1 - step / total)
        if resume_from_checkpoint is not None:
            self._load(resume_from_checkpoint)
        self.state.max_steps = total
        start_epoch, steps_done = divmod(self.state.global_step, self._steps_per_epoch())
        for epoch in range(start_epoch, args.num_train_epochs):
            skip = steps_done * args.gradient_accumulation_steps if epoch == start_epoch else 0
            self._train_epoch(epoch, skip)
        return self.state.global_step, self.state.log_history[-1]["loss"]

    def _steps_per_epoch(self):
        batches = -(-len(self.train_dataset) // self.args.per_device_train_batch_size)
        return batches // self.args.gradient_accumulation_steps

    def _train_epoch(self, epoch, skip):
        args = self.args
        order = torch.randperm(len(self.train_dataset), generator=torch.Generator().manual_seed(args.seed + epoch))
        size = args.per_device_train_batch_size
        self.model.train()
        for index, start in enumerate(range(0, len(order), size)):
            if index < skip:
                continue
            inputs, labels = self.train_dataset[order[start : start + size]]
            loss = self.model(inputs, labels) / args.gradient_accumulation_steps
            loss.backward()
            if (index + 1) % args.gradient_accumulation_steps == 0:
                self.optimizer.step()
                self.scheduler.step()
                self.optimizer.zero_grad()
                self.state.global_step += 1
                self.state.epoch = epoch + 1
                self.state.log_history.append({"loss": loss.item() * args.gradient_accumulation_steps})
                # Every save_steps, and at the end (DefaultFlowCallback saves there with save_strategy="steps").
                if self.state.global_step % args.save_steps == 0 or self.state.global_step >= self.state.max_steps:
                    self._save_checkpoint()
                    for callback in self.callbacks:
                        callback.on_save(args, self.state, self.control, model=self.model)

    def _save_checkpoint(self):
        folder = os.path.join(self.args.output_dir, f"{PREFIX_CHECKPOINT_DIR}-{self.state.global_step}")
        os.makedirs(folder, exist_ok=True)
        torch.save(self.model.state_dict(), os.path.join(folder, "pytorch_model.bin"))
        torch.save(self.optimizer.state_dict(), os.path.join(folder, "optimizer.pt"))
        torch.save(self.scheduler.state_dict(), os.path.join(folder, "scheduler.pt"))
        rng = {"python": random.getstate(), "numpy": np.random.get_state(), "cpu": torch.get_rng_state()}
        torch.save(rng, os.path.join(folder, "rng_state.pth"))
        # The training arguments go in each folder too; a resume does not read them.
        torch.save(dataclasses.asdict(self.args), os.path.join(folder, "training_args.bin"))
        with open(os.path.join(folder, "trainer_state.json"), "w", encoding="utf-8") as file:
            json.dump(dataclasses.asdict(self.state), file)
        self._rotate_checkpoints()

    def _rotate_checkpoints(self):
        limit = self.args.save_total_limit
        prefix = f"{PREFIX_CHECKPOINT_DIR}-"
        names = [name for name in os.listdir(self.args.output_dir) if name.startswith(prefix)]
        names.sort(key=lambda name: int(name[len(prefix) :]))
        for name in names[:-limit] if limit else []:
            shutil.rmtree(os.path.join(self.args.output_dir, name))

    def _load(self, folder):
        load = lambda name: torch.load(os.path.join(folder, name), weights_only=False)  # noqa: E731
        self.model.load_state_dict(load("pytorch_model.bin"))
        self.optimizer.load_state_dict(load("optimizer.pt"))
        self.scheduler.load_state_dict(load("scheduler.pt"))
        rng = load("rng_state.pth")
        random.setstate(rng["python"])
        np.random.set_state(rng["numpy"])
        torch.set_rng_state(rng["cpu"])
        with open(os.path.join(folder, "trainer_state.json"), encoding="utf-8") as file:
            self.state = TrainerState(**json.load(file))
