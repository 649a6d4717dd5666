"""Stand-in for wandb.util (see ../README.md)."""

import uuid


def generate_id(length=8):
    return uuid.uuid4().hex[:length]
