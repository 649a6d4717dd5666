"""End the Colab runtime once training is done and its last checkpoint is on Drive, so compute units stop burning.

Put the last cell of the notebook after the training cell: Run all reaches it only when training finished (a cell
that fails stops Run all, and Colab OOM Guard restarts the run instead)::

    from google.colab import runtime
    from end_runtime import last_checkpoint_on_drive

    last_checkpoint_on_drive(DRIVE_DIR)  # checks the newest copy is whole, then writes Drive's pending uploads out
    runtime.unassign()  # gives the runtime back: the guard leaves an end the notebook asked for alone

Keep ``runtime.unassign()`` in the cell itself: the guard recognises the disconnect that follows it as one the
notebook meant (it reads the source of the cells it saw run), and leaves it alone whatever its settings.
"""

import os

from drive_copies import DriveCopies

__all__ = ["last_checkpoint_on_drive"]


def last_checkpoint_on_drive(drive_dir, step=None):
    """Raises unless ``drive_dir``'s newest copy (of ``step``, when given) is whole; then flushes Drive.

    ``google.colab.drive.flush_and_unmount()`` returns once everything written to Drive is uploaded: only then is the
    copy safe from the end of the machine. Returns the copy's folder.
    """
    newest = DriveCopies(drive_dir).newest_whole()
    if newest is None or (step is not None and newest[0] != step):
        raise RuntimeError(f"The last checkpoint is not whole on Drive ({drive_dir}): the runtime stays, for you.")
    from google.colab import drive  # pylint: disable=import-outside-toplevel

    drive.flush_and_unmount()
    print(f"On Drive: {os.path.basename(newest[1])} (step {newest[0]}); ending the runtime")
    return newest[1]
