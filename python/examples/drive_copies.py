"""Checkpoint copies on Google Drive that a lost machine cannot leave half-written, for the recipes in this folder.

A restart (Colab OOM Guard's "Restart session and run all", or Colab's RAM crash) keeps the machine, and /content
with it: the framework's own checkpoints there are the ones to resume from. A new machine (a disconnect, Colab's time
limit) starts with an empty /content, and only Drive survives it. But Drive uploads in the background, and a machine
lost during an upload leaves a copy cut short. So:

- each checkpoint (a file or a folder) is copied to Drive under a name of its own, first as ``.partial``, with the
  list of its files and their sizes written last, then renamed: never over an older copy;
- only the files a resume reads are copied (``wanted``): not, for example, a tokenizer the notebook builds again;
- the newest ``keep`` copies stay, older ones are deleted (Drive keeps deleted files in its Trash for 30 days, and the
  Trash counts against your storage: with large checkpoints, empty it now and then);
- a copy is whole when every file of its list is there with its size; a copy cut short is skipped.

Save this file next to the recipe you use (or paste both into a cell).
"""

import json
import os
import re
import shutil
import time

MANIFEST = "copied-files.json"
# step-<training step>-<when the copying process started, in ms>: a run that replays steps after resuming from an
# older checkpoint never reuses a name.
_NAME = re.compile(r"^step-(\d{9})-(\d{13})$")


class DriveCopies:
    """The copies in ``drive_dir``, newest ``keep`` kept; ``wanted(relative_path)`` says which files a copy takes."""

    def __init__(self, drive_dir, keep=2, wanted=None):
        self.drive_dir = drive_dir
        self.keep = keep
        self.wanted = wanted or (lambda relative: True)
        self.session = f"{int(time.time() * 1000):013d}"
        os.makedirs(drive_dir, exist_ok=True)
        # Copies an earlier process began and never finished (its machine was lost): one writer per folder.
        for name in os.listdir(drive_dir):
            if name.endswith(".partial"):
                shutil.rmtree(os.path.join(drive_dir, name), ignore_errors=True)

    def copy(self, source, step):
        """Copies ``source`` (a file or a folder) as the checkpoint of ``step``; returns the copy's folder."""
        target = os.path.join(self.drive_dir, f"step-{step:09d}-{self.session}")
        partial = target + ".partial"
        os.makedirs(partial)
        sizes = {}
        for relative in _files(source):
            if not self.wanted(relative):
                continue
            destination = os.path.join(partial, relative)
            os.makedirs(os.path.dirname(destination), exist_ok=True)
            shutil.copyfile(os.path.join(source, relative) if os.path.isdir(source) else source, destination)
            sizes[relative] = os.path.getsize(destination)
        with open(os.path.join(partial, MANIFEST), "w", encoding="utf-8") as file:
            json.dump(sizes, file)  # written last: a copy without it, or short of a file, is not whole
        os.replace(partial, target)
        for _, old in self.copies()[: -self.keep]:
            shutil.rmtree(old)
        return target

    def copies(self):
        """Every copy, whole or not, oldest first, as (step, folder)."""
        if not os.path.isdir(self.drive_dir):
            return []
        found = sorted(
            (int(match.group(1)), int(match.group(2)), match.group(0))
            for match in map(_NAME.match, os.listdir(self.drive_dir))
            if match
        )
        return [(step, os.path.join(self.drive_dir, name)) for step, _, name in found]

    def newest_whole(self):
        """The newest whole copy as (step, folder), or None; says which copies it skips."""
        for step, folder in reversed(self.copies()):
            if is_whole(folder):
                return step, folder
            print(f"Skipping {folder}: it is not whole")
        return None


def is_whole(folder):
    """Whether every file the copy's list names is there, with its size."""
    try:
        with open(os.path.join(folder, MANIFEST), encoding="utf-8") as file:
            sizes = json.load(file)
        return all(os.path.getsize(os.path.join(folder, name)) == size for name, size in sizes.items())
    except (OSError, ValueError):
        return False


def restore_file(copy, target):
    """Puts a whole one-file copy back at ``target`` (whole or not at all: a temporary name, then a rename)."""
    [name] = [name for name in os.listdir(copy) if name != MANIFEST]
    shutil.copyfile(os.path.join(copy, name), target + ".partial")
    os.replace(target + ".partial", target)


def restore_folder(copy, target):
    """Puts a whole copy of a folder back as ``target`` (whole or not at all)."""
    shutil.copytree(copy, target + ".partial", ignore=shutil.ignore_patterns(MANIFEST))
    os.replace(target + ".partial", target)


def _files(source):
    """The files of ``source`` relative to it (a file is its own name)."""
    if not os.path.isdir(source):
        return [os.path.basename(source)]
    return sorted(
        os.path.relpath(os.path.join(root, name), source) for root, _, names in os.walk(source) for name in names
    )
