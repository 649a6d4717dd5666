"""Weights & Biases logging for the resumable PyTorch loop (checkpoint_pytorch.py), by the same rule.

One training is one W&B run, however many times Colab OOM Guard restarts it: its id is made on the first run and
kept beside the checkpoints, on local disk and on Drive (each written whole, then never again), and every restart
calls ``wandb.init(id=..., resume="allow")``, which continues that run (or starts it, the first time).

After a restart the loop goes on from the newest checkpoint, so the steps trained between that checkpoint and the
out of memory are trained, and logged, again. W&B's own step only goes forward (a value logged at an earlier step is
dropped), so the metrics are plotted against the training step, logged as ``train/step``: the replayed steps land on
the same place of the chart.

Use (after the cell with checkpoint_pytorch.py)::

    import wandb
    from google.colab import userdata
    os.environ["WANDB_API_KEY"] = userdata.get("WANDB_API_KEY")  # a Colab secret: no login prompt on a new machine

    run = start_run(checkpoints, project="my-project", config={"lr": 3e-4, "batch_size": 64})
    train(model, optimizer, scheduler, scaler, train_set, loss_fn, checkpoints, epochs=EPOCHS, batch_size=64,
          on_step=log_step(run))
    run.finish()
"""

import os

import wandb

RUN_ID_FILE = "wandb-run-id.txt"


def run_id(*folders):
    """This training's W&B run id: the one kept in `folders` (local disk first), or a new one kept there (first run).

    With the Hugging Face Trainer (report_to="wandb"), hand it to the Trainer's own wandb.init through W&B's
    environment variables: WANDB_RUN_ID = run_id(LOCAL_DIR, DRIVE_DIR), WANDB_RESUME = "allow".
    """
    folders = [folder for folder in folders if folder]
    for folder in folders:
        path = os.path.join(folder, RUN_ID_FILE)
        if os.path.exists(path):
            with open(path, encoding="utf-8") as file:
                kept = file.read().strip()
            if kept:  # an empty file is a write cut short: try the next folder
                return kept
    new = wandb.util.generate_id()
    for folder in folders:
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, RUN_ID_FILE)
        with open(path + ".tmp", "w", encoding="utf-8") as file:
            file.write(new)
        os.replace(path + ".tmp", path)
    return new


def start_run(checkpoints, **init_args):
    """The W&B run of this training, continued after a restart; `init_args` go to wandb.init (project, config...)."""
    run = wandb.init(id=run_id(checkpoints.local_dir, checkpoints.drive_dir), resume="allow", **init_args)
    run.define_metric("train/step")
    run.define_metric("train/*", step_metric="train/step")
    return run


def log_step(run):
    """An `on_step` for train(): logs the loss against the training step."""
    return lambda step, loss: run.log({"train/step": step, "train/loss": loss})
