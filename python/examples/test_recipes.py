"""The checkpoint recipes, run on the CPU (python3 -m unittest test_recipes; needs numpy and torch).

For each recipe, a tiny model is trained once without a stop, and once stopped twice by a simulated out of memory,
each time going on in a new Python process as Colab's restart does. The second restart also plays a new machine:
/content is empty, and the newest copy on Drive was cut short. The stopped training must end with the same step, loss
and weights as the one that never stopped.

checkpoint_pytorch.py runs on the real PyTorch. transformers and wandb cannot be installed here (Debian packages
neither, and no other package index is reachable): checkpoint_hf_trainer.py and checkpoint_wandb.py run against
stand-ins of the documented API they use, in stand_ins/ (see its README), made for this test only.

Run as `python3 test_recipes.py <recipe> <work folder> <forward call to fail at, 0 for none>`, this file is one
process of such a training.
"""

import glob
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
STAND_INS = os.path.join(HERE, "stand_ins")
OOM = "CUDA out of memory. Tried to allocate 20.00 MiB (simulated by the test)"


def tiny_training(fail_at):
    """The notebook's own part: a seeded tiny model (failing at its `fail_at`th forward call) and noisy data."""
    import numpy as np  # pylint: disable=import-outside-toplevel
    import torch  # pylint: disable=import-outside-toplevel

    class NoisyData(torch.utils.data.Dataset):
        def __init__(self):
            inputs = torch.randn(96, 8, generator=torch.Generator().manual_seed(7))
            self.x, self.y = inputs, inputs.sum(dim=1, keepdim=True)

        def __len__(self):
            return len(self.x)

        def __getitem__(self, index):
            x, y = self.x[index], self.y[index]
            # Augmentation from NumPy's and Python's global generators: a resume must restore both to match.
            noise = torch.from_numpy(np.random.normal(0.0, 0.05, size=tuple(x.shape)).astype(np.float32))
            return x + noise * random.random(), y

    class TinyModel(torch.nn.Module):
        def __init__(self):
            super().__init__()
            layers = [torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Dropout(0.2), torch.nn.Linear(16, 1)]
            self.net = torch.nn.Sequential(*layers)  # dropout draws from PyTorch's global generator
            self.calls = 0

        def forward(self, x, labels=None):
            self.calls += 1
            if self.calls == fail_at:
                raise RuntimeError(OOM)
            out = self.net(x)
            return out if labels is None else torch.nn.functional.mse_loss(out.float(), labels)

    torch.set_num_threads(1)
    torch.manual_seed(0)  # as a notebook seeds before building its model
    return TinyModel(), NoisyData()


def run_pytorch(work, fail_at, on_step_factory=None):
    import torch  # pylint: disable=import-outside-toplevel
    from checkpoint_pytorch import Checkpoints, train  # pylint: disable=import-outside-toplevel

    model, data = tiny_training(fail_at)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=3)
    # bfloat16 needs no loss scaling; a CPU has no float16 scaler in every PyTorch release.
    if hasattr(torch.amp, "GradScaler"):
        scaler = torch.amp.GradScaler("cuda", enabled=False)
    else:
        scaler = torch.cuda.amp.GradScaler(enabled=False)
    checkpoints = Checkpoints(os.path.join(work, "content"), os.path.join(work, "drive"))
    on_step = on_step_factory(checkpoints) if on_step_factory else None
    step, loss = train(
        model,
        optimizer,
        scheduler,
        scaler,
        data,
        torch.nn.functional.mse_loss,
        checkpoints,
        epochs=3,
        batch_size=8,
        accum_steps=2,
        seed=5,
        save_every=4,
        amp_dtype=torch.bfloat16,
        on_step=on_step,
    )
    return step, loss, model


def run_wandb(work, fail_at):
    from checkpoint_wandb import log_step, start_run  # pylint: disable=import-outside-toplevel

    runs = []

    def on_step_factory(checkpoints):
        runs.append(start_run(checkpoints, project="colab-oom-guard-test"))
        return log_step(runs[0])

    result = run_pytorch(work, fail_at, on_step_factory)
    runs[0].finish()
    return result


def run_hf_trainer(work, fail_at):
    from checkpoint_hf_trainer import CopyToDrive, newest_whole_checkpoint  # pylint: disable=import-outside-toplevel
    from transformers import Trainer, TrainingArguments  # pylint: disable=import-outside-toplevel

    model, data = tiny_training(fail_at)
    local, drive = os.path.join(work, "content"), os.path.join(work, "drive")
    args = TrainingArguments(
        output_dir=local,
        save_steps=4,
        save_total_limit=2,
        per_device_train_batch_size=8,
        gradient_accumulation_steps=2,
        num_train_epochs=3,
        learning_rate=1e-2,
        seed=5,
    )
    trainer = Trainer(model=model, args=args, train_dataset=data, callbacks=[CopyToDrive(drive)])
    step, loss = trainer.train(resume_from_checkpoint=newest_whole_checkpoint(local, drive))
    return step, loss, model


RECIPES = {"pytorch": run_pytorch, "wandb": run_wandb, "hf_trainer": run_hf_trainer}


def weights_digest(model):
    digest = hashlib.sha256()
    for name, tensor in sorted(model.state_dict().items()):
        digest.update(name.encode())
        digest.update(tensor.detach().contiguous().numpy().tobytes())
    return digest.hexdigest()


def one_process(recipe, work, fail_at):
    step, loss, model = RECIPES[recipe](work, fail_at)
    print("RESULT " + json.dumps({"step": step, "loss": loss, "weights": weights_digest(model)}))


class Run:
    """One process of a training: its exit code, output and result (None when it failed)."""

    def __init__(self, recipe, work, fail_at):
        path = [HERE] + ([STAND_INS] if recipe != "pytorch" else [])
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(path),
            "PYTHONDONTWRITEBYTECODE": "1",
            "WANDB_STAND_IN_LOG": os.path.join(work, "wandb-calls.jsonl"),
        }
        args = [sys.executable, __file__, recipe, work, str(fail_at)]
        done = subprocess.run(args, env=env, capture_output=True, text=True, check=False, timeout=600)
        self.code, self.stdout, self.stderr = done.returncode, done.stdout, done.stderr
        lines = [line for line in self.stdout.splitlines() if line.startswith("RESULT ")]
        self.result = json.loads(lines[-1][len("RESULT ") :]) if lines else None


class RecipeTest:
    """The restarts every recipe must survive; subclasses say where its checkpoints are and how one is cut short."""

    recipe = ""
    # Forward calls (12 an epoch) the first and the second process fail at: both in the middle of an epoch.
    fail_first, fail_second = 17, 15

    def checkpoints(self, folder):
        """The checkpoints in `folder`, oldest first."""
        raise NotImplementedError

    def cut_short(self, checkpoint):
        """Makes `checkpoint` what a copy cut short by a lost machine leaves."""
        raise NotImplementedError

    def setUp(self):
        self.work = tempfile.mkdtemp(prefix=f"oom-guard-{self.recipe}-")
        self.addCleanup(shutil.rmtree, self.work, ignore_errors=True)

    def run_in(self, name, fail_at):
        folder = os.path.join(self.work, name)
        os.makedirs(folder, exist_ok=True)
        return Run(self.recipe, folder, fail_at)

    def assert_stopped_by_oom(self, run):
        self.assertNotEqual(run.code, 0, run.stdout)
        self.assertIn(OOM, run.stderr)
        self.assertIsNone(run.result)

    def test_two_restarts_end_as_a_training_that_never_stopped(self):
        self.restart_twice()

    def restart_twice(self):
        """Both trainings, checked; returns the last process of the stopped one."""
        straight = self.run_in("straight", 0)
        self.assertEqual(straight.code, 0, straight.stderr)
        self.assertEqual(straight.result["step"], 18)  # 3 epochs of 12 batches, 2 batches a step

        first = self.run_in("stopped", self.fail_first)
        self.assert_stopped_by_oom(first)
        local = os.path.join(self.work, "stopped", "content")
        drive = os.path.join(self.work, "stopped", "drive")

        # A session restart: /content is kept, and its newest checkpoint is the one to go on from.
        newest_local = self.checkpoints(local)[-1]
        second = self.run_in("stopped", self.fail_second)
        self.assert_stopped_by_oom(second)
        self.assertIn(f"Resuming from {newest_local}", second.stdout)

        # A new machine: /content is empty, and the newest copy on Drive was cut short.
        shutil.rmtree(local)
        on_drive = self.checkpoints(drive)
        self.assertEqual(len(on_drive), 2, "the newest two are kept on Drive")
        self.cut_short(on_drive[-1])
        third = self.run_in("stopped", 0)
        self.assertEqual(third.code, 0, third.stderr)
        self.assertIn(f"Skipping {on_drive[-1]}", third.stdout)
        self.assertIn(f"Resuming from {on_drive[-2]}", third.stdout)

        self.assertEqual(third.result, straight.result)
        self.assertEqual(len(self.checkpoints(local)), 2, "the newest two are kept on local disk")
        self.assertEqual(len(self.checkpoints(drive)), 2, "the newest two are kept on Drive")
        self.assertNotIn(on_drive[-1], self.checkpoints(drive), "the copy cut short is not kept")
        return third


class CheckpointFiles:
    """checkpoint_pytorch.py's checkpoints: one file each."""

    def checkpoints(self, folder):
        found = glob.glob(os.path.join(folder, "step-*.pt"))
        return sorted(found, key=lambda path: os.path.basename(path).split("-")[1:])

    def cut_short(self, checkpoint):
        with open(checkpoint, "r+b") as file:
            file.truncate(os.path.getsize(checkpoint) // 2)


class PyTorchRecipe(CheckpointFiles, RecipeTest, unittest.TestCase):
    recipe = "pytorch"

    def test_a_copy_to_drive_never_replaces_an_older_one(self):
        import torch  # pylint: disable=import-outside-toplevel
        from checkpoint_pytorch import Checkpoints  # pylint: disable=import-outside-toplevel

        local, drive = os.path.join(self.work, "content"), os.path.join(self.work, "drive")
        before = Checkpoints(local, drive)
        before.save({"weights": torch.zeros(3)}, step=12)
        [older] = self.checkpoints(drive)
        with open(older, "rb") as file:
            older_bytes = file.read()
        # The next process (a restart that replays step 12 from an older checkpoint) starts at a later millisecond.
        after = Checkpoints(local, drive)
        while after.session == before.session:
            after = Checkpoints(local, drive)
        after.save({"weights": torch.ones(3)}, step=12)
        self.assertEqual(len(self.checkpoints(drive)), 2)
        with open(older, "rb") as file:
            self.assertEqual(file.read(), older_bytes)
        self.assertTrue(torch.equal(after.load_newest()["weights"], torch.ones(3)))

    def test_leaves_no_partial_writes_behind(self):
        local, drive = os.path.join(self.work, "content"), os.path.join(self.work, "drive")
        self.assert_stopped_by_oom(Run(self.recipe, self.work, self.fail_first))
        for folder in (local, drive):
            with open(os.path.join(folder, f"step-000000099-{0:013d}.pt.partial"), "wb") as file:
                file.write(b"cut short")
        Run(self.recipe, self.work, self.fail_second)
        self.assertEqual(sorted(name for name in os.listdir(drive) if not name.endswith(".pt")), [])
        self.assertEqual(sorted(name for name in os.listdir(local) if not name.endswith(".pt")), [])


class WandbRecipe(CheckpointFiles, RecipeTest, unittest.TestCase):
    recipe = "wandb"

    def calls(self, name):
        with open(os.path.join(self.work, name, "wandb-calls.jsonl"), encoding="utf-8") as file:
            return [json.loads(line) for line in file]

    def test_two_restarts_end_as_a_training_that_never_stopped(self):
        third = self.restart_twice()
        calls = self.calls("stopped")
        inits = [call for call in calls if call["call"] == "init"]
        self.assertEqual(len(inits), 3)
        self.assertEqual({init["resume"] for init in inits}, {"allow"})
        self.assertEqual(len({init["id"] for init in inits}), 1, "one W&B run, continued after each restart")
        self.assertIn({"call": "define_metric", "name": "train/*", "step_metric": "train/step"}, calls)
        logged = [call["data"] for call in calls if call["call"] == "log"]
        self.assertEqual({data["train/step"] for data in logged}, set(range(1, 19)))
        self.assertEqual(logged[-1], {"train/step": 18, "train/loss": third.result["loss"]})
        straight = [call["data"] for call in self.calls("straight") if call["call"] == "log"]
        self.assertEqual(straight[-1], logged[-1])


class HfTrainerRecipe(RecipeTest, unittest.TestCase):
    recipe = "hf_trainer"

    def checkpoints(self, folder):
        found = [path for path in glob.glob(os.path.join(folder, "checkpoint-*")) if not path.endswith(".partial")]
        return sorted(found, key=lambda path: [int(part) for part in os.path.basename(path).split("-")[1:]])

    def cut_short(self, checkpoint):
        weights = os.path.join(checkpoint, "pytorch_model.bin")
        with open(weights, "r+b") as file:
            file.truncate(os.path.getsize(weights) // 2)


if __name__ == "__main__":
    if len(sys.argv) == 4:
        one_process(sys.argv[1], sys.argv[2], int(sys.argv[3]))
    else:
        unittest.main()
