"""The checkpoint recipes, run on the CPU (python3 -m unittest test_recipes; needs numpy and torch).

For each recipe, a tiny model is trained once without a stop, and once stopped twice by a simulated out of memory in
the middle of an epoch, each time going on in a new Python process as Colab's restart does. The first restart must
resume at the step its newest checkpoint saved, not at the start of the epoch. The second restart also plays a new
machine: /content is empty, and the newest copy on Drive was cut short, so it resumes from the copy before. The
stopped training must end with the same step, loss and weights as the one that never stopped.

checkpoint_pytorch.py runs on the real PyTorch. transformers, wandb, Keras 3, Orbax and Lightning cannot be installed
here (Debian packages none of them, and no other package index is reachable): their recipes run against stand-ins of
the documented API they use, in stand_ins/ (see its README), made for this test only and computed with PyTorch or
NumPy, so that the recipes' own logic (what is saved when, copied where, skipped, and resumed from) really runs.

Run as `python3 test_recipes.py <recipe> <work folder> <training call to fail at, 0 for none>`, this file is one
process of such a training.
"""

import glob
import hashlib
import inspect
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import types
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
STAND_INS = os.path.join(HERE, "stand_ins")
OOM = "CUDA out of memory. Tried to allocate 20.00 MiB (simulated by the test)"


class FailAt:
    """Raises the out of memory at the ``fail_at``th call of a training step in this process (0: never)."""

    def __init__(self, fail_at):
        self.fail_at, self.calls = fail_at, 0

    def __call__(self):
        self.calls += 1
        if self.calls == self.fail_at:
            raise RuntimeError(OOM)


def tiny_data(noisy):
    """96 samples of 8 features; with ``noisy``, augmented from NumPy's and Python's global generators."""
    import numpy as np  # pylint: disable=import-outside-toplevel
    import torch  # pylint: disable=import-outside-toplevel

    class Data(torch.utils.data.Dataset):
        def __init__(self):
            inputs = torch.randn(96, 8, generator=torch.Generator().manual_seed(7))
            self.x, self.y = inputs, inputs.sum(dim=1, keepdim=True)

        def __len__(self):
            return len(self.x)

        def __getitem__(self, index):
            x, y = self.x[index], self.y[index]
            if not noisy:
                return x, y
            # A resume must restore both generators to match.
            noise = torch.from_numpy(np.random.normal(0.0, 0.05, size=tuple(x.shape)).astype(np.float32))
            return x + noise * random.random(), y

    return Data()


def tiny_training(fail_at, random_draws=True):
    """The notebook's own part: a seeded tiny model (failing at its `fail_at`th forward call) and data.

    With `random_draws`, dropout and the data's augmentation draw from the global generators, which a recipe that
    saves them (PyTorch, Hugging Face) must restore; Lightning's checkpoints hold no generators, so its run has none.
    """
    import torch  # pylint: disable=import-outside-toplevel

    fail = FailAt(fail_at)

    class TinyModel(torch.nn.Module):
        def __init__(self):
            super().__init__()
            dropout = [torch.nn.Dropout(0.2)] if random_draws else []
            layers = [torch.nn.Linear(8, 16), torch.nn.ReLU(), *dropout, torch.nn.Linear(16, 1)]
            self.net = torch.nn.Sequential(*layers)  # dropout draws from PyTorch's global generator

        def forward(self, x, labels=None):
            fail()
            out = self.net(x)
            return out if labels is None else torch.nn.functional.mse_loss(out.float(), labels)

    torch.set_num_threads(1)
    torch.manual_seed(0)  # as a notebook seeds before building its model
    return TinyModel(), tiny_data(noisy=random_draws)


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
    return step, loss, torch_digest(model)


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
    return step, loss, torch_digest(model)


def run_keras(work, fail_at):
    import keras  # pylint: disable=import-outside-toplevel
    from checkpoint_keras import fit_resumable  # pylint: disable=import-outside-toplevel

    class Fail(keras.callbacks.Callback):
        def __init__(self):
            super().__init__()
            self.fail = FailAt(fail_at)

        def on_train_batch_begin(self, batch, logs=None):
            self.fail()

    data = tiny_data(noisy=False)
    x, y = data.x.numpy(), data.y.numpy()
    keras.utils.set_random_seed(0)
    layers = [keras.layers.Input((8,)), keras.layers.Dense(16, activation="relu"), keras.layers.Dense(1)]
    model = keras.Sequential(layers)
    model.compile(optimizer=keras.optimizers.AdamW(1e-2), loss="mse")
    local, drive = os.path.join(work, "content"), os.path.join(work, "drive")
    history = fit_resumable(
        model, x, y, epochs=3, batch_size=8, local_dir=local, drive_dir=drive, save_every=4, callbacks=[Fail()]
    )
    step = int(keras.ops.convert_to_numpy(model.optimizer.iterations))
    return step, history.history["loss"][-1], torch_digest(model.net)


def run_jax_orbax(work, fail_at):
    import numpy as np  # pylint: disable=import-outside-toplevel
    from checkpoint_jax_orbax import Checkpoints, train  # pylint: disable=import-outside-toplevel

    fail = FailAt(fail_at)

    def train_step(state, batch):
        """Linear regression with momentum, in NumPy: what a jitted JAX step computes, deterministically."""
        fail()
        x, y = batch
        error = x @ state["params"]["w"] + state["params"]["b"] - y
        grads = {"w": 2 * x.T @ error / len(x), "b": 2 * error.mean(axis=0)}
        momentum = {name: 0.9 * state["opt_state"][name] + grads[name] for name in grads}
        params = {name: state["params"][name] - 0.05 * momentum[name] for name in grads}
        return {"params": params, "opt_state": momentum}, float((error**2).mean())

    data = tiny_data(noisy=False)
    x, y = data.x.numpy().astype(np.float64), data.y.numpy().astype(np.float64)
    zeros = {"w": np.zeros((8, 1)), "b": np.zeros(1)}
    state = {"params": dict(zeros), "opt_state": dict(zeros)}
    local, drive = os.path.join(work, "content"), os.path.join(work, "drive")
    checkpoints = Checkpoints(local, drive, save_every=4)
    state, loss = train(train_step, state, (x, y), epochs=3, batch_size=8, checkpoints=checkpoints)
    digest = hashlib.sha256(b"".join(np.ascontiguousarray(state["params"][k]).tobytes() for k in ("b", "w")))
    return checkpoints.manager.latest_step(), loss, digest.hexdigest()


def run_lightning(work, fail_at):
    import lightning as L  # pylint: disable=import-outside-toplevel
    import torch  # pylint: disable=import-outside-toplevel
    from checkpoint_lightning import (  # pylint: disable=import-outside-toplevel
        DriveCheckpoint,
        EpochOrder,
        prepare_resume,
    )

    model, data = tiny_training(fail_at, random_draws=False)

    class TinyLightning(L.LightningModule):
        def __init__(self):
            super().__init__()
            self.model = model

        def training_step(self, batch, batch_idx):
            x, y = batch
            return self.model(x, y)

        def configure_optimizers(self):
            return torch.optim.AdamW(self.parameters(), lr=1e-2)

    local, drive = os.path.join(work, "content"), os.path.join(work, "drive")
    L.seed_everything(5)
    order = EpochOrder(data, seed=5)
    loader = torch.utils.data.DataLoader(data, batch_size=8, sampler=order)
    checkpoint = DriveCheckpoint(local, drive, order=order, save_every=4)
    trainer = L.Trainer(max_epochs=3, callbacks=[checkpoint], accumulate_grad_batches=2)
    prepare_resume(local, drive)
    module = TinyLightning()
    trainer.fit(module, loader, ckpt_path="last")
    return trainer.global_step, trainer.last_loss, torch_digest(model)


RECIPES = {
    "pytorch": run_pytorch,
    "wandb": run_wandb,
    "hf_trainer": run_hf_trainer,
    "keras": run_keras,
    "jax_orbax": run_jax_orbax,
    "lightning": run_lightning,
}


def torch_digest(model):
    digest = hashlib.sha256()
    for name, tensor in sorted(model.state_dict().items()):
        digest.update(name.encode())
        digest.update(tensor.detach().contiguous().numpy().tobytes())
    return digest.hexdigest()


def one_process(recipe, work, fail_at):
    step, loss, weights = RECIPES[recipe](work, fail_at)
    print("RESULT " + json.dumps({"step": step, "loss": loss, "weights": weights}))


class Run:
    """One process of a training: its exit code, output, result (None when it failed) and the step it resumed at."""

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
        resumed = re.findall(r"^Resuming.* at step (\d+)", self.stdout, re.MULTILINE)
        self.resumed_at = int(resumed[-1]) if resumed else None


class RecipeTest:
    """The restarts every recipe must survive; subclasses say where its local checkpoints are and how it counts."""

    recipe = ""
    # Training calls (forward passes or steps) the first and the second process fail at: both mid-epoch.
    fail_first, fail_second = 17, 15
    # Optimizer steps: in all, in an epoch, and where the two restarts resume (the newest save; the copy before the
    # one cut short).
    steps, per_epoch, first_resume, new_machine_resume = 18, 6, 8, 8

    def local_checkpoints(self, folder):
        """The recipe's own checkpoints in `folder`."""
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
        from drive_copies import DriveCopies  # pylint: disable=import-outside-toplevel

        straight = self.run_in("straight", 0)
        self.assertEqual(straight.code, 0, straight.stderr)
        self.assertEqual(straight.result["step"], self.steps)

        first = self.run_in("stopped", self.fail_first)
        self.assert_stopped_by_oom(first)
        local = os.path.join(self.work, "stopped", "content")
        drive = DriveCopies(os.path.join(self.work, "stopped", "drive"))

        # A session restart: /content is kept, and the run goes on at the step it saved, in the middle of the epoch.
        second = self.run_in("stopped", self.fail_second)
        self.assert_stopped_by_oom(second)
        self.assertEqual(second.resumed_at, self.first_resume, second.stdout)
        self.assertNotEqual(second.resumed_at % self.per_epoch, 0, "resumed at the step, not at the epoch")

        # A new machine: /content is empty, and the newest copy on Drive was cut short.
        shutil.rmtree(local)
        on_drive = drive.copies()
        self.assertEqual(len(on_drive), 2, "the newest two are kept on Drive")
        cut_short(on_drive[-1][1])
        third = self.run_in("stopped", 0)
        self.assertEqual(third.code, 0, third.stderr)
        self.assertIn(f"Skipping {on_drive[-1][1]}", third.stdout)
        self.assertEqual(third.resumed_at, on_drive[-2][0], third.stdout)
        self.assertEqual(third.resumed_at, self.new_machine_resume)
        self.assertNotEqual(third.resumed_at % self.per_epoch, 0, "resumed at the step, not at the epoch")

        self.assertEqual(third.result, straight.result)
        self.assertEqual(len(self.local_checkpoints(local)), 2, "the newest two are kept on local disk")
        self.assertEqual(len(drive.copies()), 2, "the newest two are kept on Drive")
        self.assertNotIn(on_drive[-1], drive.copies(), "the copy cut short is not kept")
        self.assertEqual(drive.copies()[-1][0], self.steps, "the end is on Drive")
        return third


def cut_short(copy):
    """What a lost machine leaves of a copy on Drive: its largest file half written."""
    files = [path for path in glob.glob(os.path.join(copy, "**", "*"), recursive=True) if os.path.isfile(path)]
    largest = max(files, key=os.path.getsize)
    with open(largest, "r+b") as file:
        file.truncate(os.path.getsize(largest) // 2)


class PyTorchFiles:
    """checkpoint_pytorch.py's checkpoints: one file each."""

    def local_checkpoints(self, folder):
        return glob.glob(os.path.join(folder, "step-*.pt"))


class PyTorchRecipe(PyTorchFiles, RecipeTest, unittest.TestCase):
    recipe = "pytorch"

    def test_a_copy_to_drive_never_replaces_an_older_one(self):
        import torch  # pylint: disable=import-outside-toplevel
        from checkpoint_pytorch import Checkpoints  # pylint: disable=import-outside-toplevel

        local, drive = os.path.join(self.work, "content"), os.path.join(self.work, "drive")
        before = Checkpoints(local, drive)
        before.save({"weights": torch.zeros(3)}, step=12)
        [(_, older)] = before.drive.copies()
        older_bytes = open_bytes(older)
        # The next process (a restart that replays step 12 from an older checkpoint) starts at a later millisecond.
        after = Checkpoints(local, drive)
        while after.session == before.session:
            after = Checkpoints(local, drive)
        after.save({"weights": torch.ones(3)}, step=12)
        self.assertEqual(len(after.drive.copies()), 2)
        self.assertEqual(open_bytes(older), older_bytes)
        self.assertTrue(torch.equal(after.load_newest()["weights"], torch.ones(3)))

    def test_leaves_no_partial_writes_behind(self):
        local, drive = os.path.join(self.work, "content"), os.path.join(self.work, "drive")
        self.assert_stopped_by_oom(Run(self.recipe, self.work, self.fail_first))
        with open(os.path.join(local, f"step-000000099-{0:013d}.pt.tmp"), "wb") as file:
            file.write(b"cut short")
        os.makedirs(os.path.join(drive, f"step-000000099-{0:013d}.partial"))
        Run(self.recipe, self.work, self.fail_second)
        self.assertEqual([name for name in os.listdir(drive) if not re.match(r"^step-\d{9}-\d{13}$", name)], [])
        self.assertEqual([name for name in os.listdir(local) if not name.endswith(".pt")], [])

    def test_loads_memory_mapped_where_pytorch_can(self):
        """PyTorch 2.1 and later (Colab's) take torch.load(mmap=True); Debian's 1.13 does not, and is not asked."""
        import torch  # pylint: disable=import-outside-toplevel
        import checkpoint_pytorch  # pylint: disable=import-outside-toplevel

        local = os.path.join(self.work, "content")
        checkpoint_pytorch.Checkpoints(local).save({"weights": torch.ones(2)}, step=4)
        calls = []
        real_load = torch.load

        def load_with_mmap(f, map_location=None, weights_only=None, mmap=None):
            calls.append({"map_location": map_location, "mmap": mmap})
            return real_load(f, map_location=map_location)

        checkpoint_pytorch.torch.load = load_with_mmap
        self.addCleanup(setattr, checkpoint_pytorch.torch, "load", real_load)
        state = checkpoint_pytorch.Checkpoints(local).load_newest()
        self.assertTrue(torch.equal(state["weights"], torch.ones(2)))
        self.assertEqual(calls, [{"map_location": "cpu", "mmap": True}])
        self.assertEqual("mmap" in inspect.signature(real_load).parameters, torch.__version__ >= "2.1")


class WandbRecipe(PyTorchFiles, RecipeTest, unittest.TestCase):
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

    def local_checkpoints(self, folder):
        return glob.glob(os.path.join(folder, "checkpoint-*"))

    def test_two_restarts_end_as_a_training_that_never_stopped(self):
        self.restart_twice()
        # Only what a resume reads goes to Drive: the training arguments stay on /content.
        drive = os.path.join(self.work, "stopped", "drive")
        copied = {os.path.basename(path) for path in glob.glob(os.path.join(drive, "*", "*"))}
        self.assertIn("optimizer.pt", copied)
        self.assertNotIn("training_args.bin", copied)
        local = os.path.join(self.work, "stopped", "content")
        self.assertTrue(glob.glob(os.path.join(local, "*", "training_args.bin")))


class OneStepABatch:
    """Keras, JAX and Lightning here make one optimizer step a batch: 12 an epoch, 36 in all."""

    fail_first, fail_second = 17, 11
    steps, per_epoch, first_resume, new_machine_resume = 36, 12, 16, 20


class KerasRecipe(OneStepABatch, RecipeTest, unittest.TestCase):
    recipe = "keras"

    def local_checkpoints(self, folder):
        return glob.glob(os.path.join(folder, "*.weights.h5"))


class JaxOrbaxRecipe(OneStepABatch, RecipeTest, unittest.TestCase):
    recipe = "jax_orbax"

    def local_checkpoints(self, folder):
        return [name for name in os.listdir(folder) if name.isdigit()]


class LightningRecipe(RecipeTest, unittest.TestCase):
    recipe = "lightning"

    def local_checkpoints(self, folder):
        return glob.glob(os.path.join(folder, "step=*.ckpt"))


class EndRuntimeRecipe(unittest.TestCase):
    """end_runtime.py: the runtime ends only once the last checkpoint is whole on Drive, and Drive was flushed."""

    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="oom-guard-end-")
        self.addCleanup(shutil.rmtree, self.work, ignore_errors=True)
        self.calls = []
        google = types.ModuleType("google")
        colab = types.ModuleType("google.colab")
        colab.drive = types.SimpleNamespace(flush_and_unmount=lambda: self.calls.append("flush_and_unmount"))
        colab.runtime = types.SimpleNamespace(unassign=lambda: self.calls.append("unassign"))
        google.colab = colab
        for name, module in (("google", google), ("google.colab", colab)):
            self.addCleanup(restore_module, name, sys.modules.get(name))
            sys.modules[name] = module

    def last_cell(self, drive):
        """The notebook's last cell, as end_runtime.py's docstring writes it."""
        from end_runtime import last_checkpoint_on_drive  # pylint: disable=import-outside-toplevel
        from google.colab import runtime  # pylint: disable=import-outside-toplevel

        last_checkpoint_on_drive(drive)
        runtime.unassign()

    def test_ends_the_runtime_after_the_training_finished_and_its_end_is_on_drive(self):
        self.assertEqual(Run("pytorch", self.work, 0).code, 0)
        drive = os.path.join(self.work, "drive")
        self.last_cell(drive)
        self.assertEqual(self.calls, ["flush_and_unmount", "unassign"])
        from drive_copies import DriveCopies  # pylint: disable=import-outside-toplevel

        self.assertEqual(DriveCopies(drive).newest_whole()[0], 18)

    def test_keeps_the_runtime_when_the_last_copy_is_not_whole(self):
        self.assertEqual(Run("pytorch", self.work, 0).code, 0)
        drive = os.path.join(self.work, "drive")
        from drive_copies import DriveCopies  # pylint: disable=import-outside-toplevel
        from end_runtime import last_checkpoint_on_drive  # pylint: disable=import-outside-toplevel

        for _, copy in DriveCopies(drive).copies():
            cut_short(copy)
        with self.assertRaisesRegex(RuntimeError, "not whole on Drive"):
            self.last_cell(drive)
        self.assertEqual(self.calls, [])
        with self.assertRaisesRegex(RuntimeError, "not whole on Drive"):
            last_checkpoint_on_drive(os.path.join(self.work, "no-such-folder"))


def restore_module(name, module):
    if module is None:
        sys.modules.pop(name, None)
    else:
        sys.modules[name] = module


def open_bytes(folder):
    read = {}
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), "rb") as file:
            read[name] = file.read()
    return read


if __name__ == "__main__":
    if len(sys.argv) == 4:
        one_process(sys.argv[1], sys.argv[2], int(sys.argv[3]))
    else:
        unittest.main()
