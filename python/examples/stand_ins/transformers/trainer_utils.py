"""Stand-in for transformers.trainer_utils (see ../README.md)."""

PREFIX_CHECKPOINT_DIR = "checkpoint"
