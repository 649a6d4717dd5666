"""Stand-in for wandb, for python/examples/test_recipes.py only (see ../README.md): records each call."""

import json
import os

from . import util

__all__ = ["Run", "init", "util"]


def _record(call, **fields):
    with open(os.environ["WANDB_STAND_IN_LOG"], "a", encoding="utf-8") as file:
        file.write(json.dumps({"call": call, **fields}) + "\n")


class Run:
    def __init__(self, run_id):
        self.id = run_id

    def define_metric(self, name, step_metric=None, **kwargs):
        _record("define_metric", name=name, step_metric=step_metric)

    def log(self, data, step=None, commit=None):
        _record("log", data=data, step=step)

    def finish(self, exit_code=None, quiet=None):
        _record("finish")


def init(id=None, resume=None, **kwargs):  # pylint: disable=redefined-builtin
    _record("init", id=id, resume=resume, args=sorted(kwargs))
    return Run(id)
