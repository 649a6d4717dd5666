"""Every Python snippet of README.md and docs/ runs, as the cells of a notebook (python3 -m unittest test_doc_snippets).

Each page's ```python blocks run in order in one namespace, in a process of their own, with:

- google.colab faked (drive.mount, drive.flush_and_unmount, userdata.get, runtime.unassign, and output.eval_js
  answering as the extension would) and IPython faked as a notebook kernel, so python/colab_oom_guard.py asks the page;
- /content turned into a temporary folder; IPython's %magics and !shell lines left out (they need a notebook);
- python/ and python/examples/ importable, and python/examples/stand_ins/ for the frameworks that cannot be
  installed here (transformers, wandb, Keras, Orbax, Lightning; see its README);
- what a page asks the reader to bring defined by the test (`MyModel`, `train_set`, `loss_fn`, `x_train`...), tiny,
  on the CPU: "cuda" means the CPU here, and PyTorch 1.13 (Debian's) gets torch.amp.GradScaler as Colab's has it.

A page whose snippets read the guard's status runs once per answer the extension can give: a guarded notebook after a
restart, a notebook the guard is off for, and no answer at all. A snippet that raises (a KeyError on a status without
the field, a strict call that stops when the extension does not answer) fails the test.

Run as `python3 test_doc_snippets.py <page> <work folder> <answer>`, this file is one such notebook.
"""

import json
import os
import re
import subprocess
import sys
import types
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
EXAMPLES = os.path.join(HERE, "examples")
STAND_INS = os.path.join(EXAMPLES, "stand_ins")
BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)

GUARDED = {
    "v": 1,
    "guarded": True,
    "restarts": 1,
    "maxRestarts": 3,
    "totalRestarts": 4,
    "lastFailure": {"kind": "gpu-oom", "line": "torch.OutOfMemoryError: CUDA out of memory.", "at": "2026-03-25T02:14:07Z"},
    "lastRestartAt": "2026-03-25T02:14:13Z",
}
ANSWERS = {"guarded": json.dumps(GUARDED), "off": json.dumps({"v": 1, "guarded": False}), "none": "no-answer"}


def pages():
    """README.md and docs/*.md with at least one python block, as paths relative to the repository."""
    found = ["README.md"] + sorted(os.path.join("docs", name) for name in os.listdir(os.path.join(ROOT, "docs")))
    return [page for page in found if page.endswith(".md") and BLOCK.search(read(page))]


def read(page):
    with open(os.path.join(ROOT, page), encoding="utf-8") as file:
        return file.read()


def cells(page, content):
    """The page's python blocks as cells: /content moved to `content`, magics and shell lines left out."""
    out = []
    for match in BLOCK.finditer(read(page)):
        lines = [
            re.sub(r"^(\s*)[%!].*$", r"\1pass  # a notebook command", line) for line in match.group(1).splitlines()
        ]
        out.append("\n".join(lines).replace("/content", content))
    return out


def fake_colab(work, answer):
    """google.colab and IPython as a notebook in Colab has them; what they were asked is appended to work/calls."""

    def record(*call):
        with open(os.path.join(work, "calls.jsonl"), "a", encoding="utf-8") as file:
            file.write(json.dumps(call) + "\n")

    google = types.ModuleType("google")
    colab = types.ModuleType("google.colab")
    output = types.ModuleType("google.colab.output")
    output.eval_js = lambda script, ignore_result=False, timeout_sec=None: ANSWERS[answer]
    colab.output = output
    colab.drive = types.SimpleNamespace(
        mount=lambda path, **kwargs: os.makedirs(os.path.join(path, "MyDrive"), exist_ok=True),
        flush_and_unmount=lambda: record("drive.flush_and_unmount"),
    )
    colab.userdata = types.SimpleNamespace(get=lambda name: f"secret {name}")
    colab.runtime = types.SimpleNamespace(unassign=lambda: record("runtime.unassign"))
    google.colab = colab
    sys.modules.update({"google": google, "google.colab": colab, "google.colab.output": output})
    ipython = types.ModuleType("IPython")
    shell = types.SimpleNamespace(kernel=object())
    ipython.get_ipython = lambda: shell
    sys.modules["IPython"] = ipython


def readers_part():
    """What the pages ask the reader to bring, tiny and on the CPU."""
    import numpy as np  # pylint: disable=import-outside-toplevel
    import torch  # pylint: disable=import-outside-toplevel

    cuda = torch.nn.Module.to

    def to(module, *args, **kwargs):  # no GPU here: "cuda" is the CPU
        args = tuple("cpu" if arg == "cuda" else arg for arg in args)
        return cuda(module, *args, **kwargs)

    if not torch.cuda.is_available():
        torch.nn.Module.to = to
        autocast = torch.autocast

        def cpu_autocast(device_type, dtype=None, **kwargs):  # float16 autocast is the GPU's: off on the CPU
            if device_type == "cpu" and dtype == torch.float16:
                dtype, kwargs["enabled"] = torch.bfloat16, False
            return autocast(device_type, dtype=dtype, **kwargs)

        torch.autocast = cpu_autocast
    if not hasattr(torch.amp, "GradScaler"):  # PyTorch before 2.3; it disables itself without CUDA
        torch.amp.GradScaler = lambda device="cuda", enabled=True, **kwargs: torch.cuda.amp.GradScaler(enabled=enabled)

    class TrainSet(torch.utils.data.Dataset):
        def __init__(self):
            self.x = torch.randn(128, 8, generator=torch.Generator().manual_seed(7))
            self.y = self.x.sum(dim=1, keepdim=True)

        def __len__(self):
            return len(self.x)

        def __getitem__(self, index):
            return self.x[index], self.y[index]

    class MyModel(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.net = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 1))

        def forward(self, x, labels=None):  # with labels, the loss: as Hugging Face models do
            out = self.net(x)
            return out if labels is None else torch.nn.functional.mse_loss(out, labels)

    import lightning as L  # pylint: disable=import-outside-toplevel

    class MyLightningModule(L.LightningModule):
        def __init__(self):
            super().__init__()
            self.model = MyModel()

        def training_step(self, batch, batch_idx):
            return self.model(*batch)

        def configure_optimizers(self):
            return torch.optim.AdamW(self.parameters(), lr=1e-3)

    def train_step(state, batch):
        """A NumPy linear regression step in the shape of a jitted JAX one: (state, (x, y)) -> (state, loss)."""
        x, y = batch
        error = x @ state["w"] - y
        return {"w": state["w"] - 0.01 * x.T @ error / len(x)}, float((error**2).mean())

    train_set = TrainSet()
    return {
        "MyModel": MyModel,
        "MyLightningModule": MyLightningModule,
        "train_set": train_set,
        "loss_fn": torch.nn.functional.mse_loss,
        "x_train": train_set.x.numpy(),
        "y_train": train_set.y.numpy(),
        "train_step": train_step,
        "state": {"w": np.zeros((8, 1), dtype=np.float32)},
    }


def one_notebook(page, work, answer):
    content = os.path.join(work, "content")
    os.makedirs(content, exist_ok=True)
    os.environ["WANDB_STAND_IN_LOG"] = os.path.join(work, "wandb-calls.jsonl")
    sys.path[:0] = [HERE, EXAMPLES, STAND_INS]
    fake_colab(work, answer)
    namespace = {"__name__": "__main__", **readers_part()}
    for number, cell in enumerate(cells(page, content), start=1):
        print(f"--- {page}, snippet {number} ---", flush=True)
        exec(compile(cell, f"{page} snippet {number}", "exec"), namespace)  # pylint: disable=exec-used


class Notebook:
    """One page run as a notebook in its own process."""

    def __init__(self, page, work, answer):
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
        args = [sys.executable, __file__, page, work, answer]
        done = subprocess.run(args, env=env, capture_output=True, text=True, check=False, timeout=600)
        self.code, self.stdout, self.stderr = done.returncode, done.stdout, done.stderr
        calls = os.path.join(work, "calls.jsonl")
        with open(calls, encoding="utf-8") if os.path.exists(calls) else open(os.devnull, encoding="utf-8") as file:
            self.calls = [json.loads(line)[0] for line in file]


class DocSnippets(unittest.TestCase):
    def run_page(self, page, answer="guarded"):
        import tempfile  # pylint: disable=import-outside-toplevel

        work = tempfile.mkdtemp(prefix="oom-guard-docs-")
        self.addCleanup(__import__("shutil").rmtree, work, ignore_errors=True)
        notebook = Notebook(page, work, answer)
        self.assertEqual(notebook.code, 0, f"{page} with the answer {answer!r}:\n{notebook.stdout}\n{notebook.stderr}")
        return notebook

    def test_every_snippet_runs(self):
        found = pages()
        self.assertIn(os.path.join("docs", "status-api.md"), found)
        self.assertIn(os.path.join("docs", "resumable-training.md"), found)
        for page in found:
            with self.subTest(page=page):
                snippets = len(BLOCK.findall(read(page)))
                notebook = self.run_page(page)
                self.assertEqual(notebook.stdout.count(f"--- {page}, snippet"), snippets, "every snippet ran")

    def test_the_status_snippets_go_on_whatever_the_extension_answers(self):
        page = os.path.join("docs", "status-api.md")
        for answer in ANSWERS:
            with self.subTest(answer=answer):
                notebook = self.run_page(page, answer)
                if answer == "guarded":
                    self.assertIn("Restart 1 after gpu-oom: batches of 32", notebook.stdout)
                if answer == "none":
                    self.assertIn("did not answer", notebook.stderr, "it says why there is no status")

    def test_the_runtime_ends_only_after_drive_is_flushed(self):
        notebook = self.run_page(os.path.join("docs", "resumable-training.md"))
        self.assertEqual(notebook.calls[-2:], ["drive.flush_and_unmount", "runtime.unassign"])


if __name__ == "__main__":
    if len(sys.argv) == 4:
        one_notebook(sys.argv[1], sys.argv[2], sys.argv[3])
    else:
        unittest.main()
