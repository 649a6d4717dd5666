"""Read Colab OOM Guard's status from inside the notebook it guards.

Colab OOM Guard is a browser extension that restarts a Colab session and runs
all cells again when a training run dies of out-of-memory. It keeps its restart
count outside the runtime, so the count survives the restart that wipes every
Python variable. This module asks the extension for it, so that training code
can adapt after an OOM restart: a smaller batch size, gradient checkpointing, a
resume from the last checkpoint, or its own limit on how often to try.

Only the Python standard library and ``google.colab`` are used. Copy this file
next to your notebook (or into your Drive) and import it.

Example::

    from colab_oom_guard import status

    guard = status() or {}  # None without the extension, or with its status API off
    restarts = guard.get("restarts", 0)  # 0 too when the guard is off for this notebook
    if restarts >= 3:
        raise SystemExit(f"Out of memory {restarts} times in a row: giving up.")
    batch_size = max(8, 64 // 2**restarts)  # 64, then 32, 16, 8 after each restart
    if guard.get("lastFailure"):
        print("Restarted after", guard["lastFailure"]["kind"], "at", guard["lastFailure"]["at"])

The status (version 1 of the extension's page API) is a dict. For a notebook the guard is not on for, it says only
that: ``{"v": 1, "guarded": False}``. For a guarded notebook::

    {
        "v": 1,
        "guarded": True,          # the guard is on for this notebook
        "restarts": 1,            # restarts in the current crash loop
        "maxRestarts": 3,         # the guard stops after this many in a row
        "totalRestarts": 4,       # every restart the guard made for this notebook
        "lastFailure": {          # or None: the last failure the guard acted on
            "kind": "gpu-oom",    # its category, as the extension's options name it
            "line": "torch.OutOfMemoryError: CUDA out of memory. ...",
            "at": "2026-03-25T02:14:07.512Z",
        },
        "lastRestartAt": "2026-03-25T02:14:13.020Z",  # or None
    }
"""

import inspect
import json

__all__ = ["API_VERSION", "TIMEOUT_SEC", "status"]

API_VERSION = 1
TIMEOUT_SEC = 2.0

# Runs in the cell's output frame (google.colab.output.eval_js): asks the extension on this frame's own window and
# waits for the answer carrying the same id, or gives null after the timeout. BEGIN/END mark it for the extension's
# own end-to-end test, which runs this very script in a simulated output frame.
# BEGIN status request
_REQUEST_JS = """
new Promise((resolve) => {
  const id = 'colab-oom-guard-' + Date.now() + '-' + Math.random().toString(36).slice(2);
  const done = (value) => {
    clearTimeout(timer);
    window.removeEventListener('message', onMessage);
    resolve(value);
  };
  const onMessage = (event) => {
    const data = event.data;
    if (event.source !== window || !data || data.colabOomGuard !== 'status' || data.id !== id) return;
    done(JSON.stringify(data.status));
  };
  const timer = setTimeout(() => done(null), __TIMEOUT_MS__);
  window.addEventListener('message', onMessage);
  window.postMessage({ colabOomGuard: 'status?', id }, '*');
})
"""
# END status request


def status(timeout=TIMEOUT_SEC):
    """Returns Colab OOM Guard's status for this notebook, or None.

    None means no answer within ``timeout`` seconds: the extension is not
    installed, its status API is switched off in its options, or this is not
    a Colab notebook. The call never raises and blocks at most ``timeout``
    seconds. The dict's keys are listed in this module's docstring.

    Example::

        guard = status() or {}
        batch_size = 64 // 2 ** guard.get("restarts", 0)
    """
    try:
        from google.colab import output  # pylint: disable=import-outside-toplevel
    except ImportError:
        return None
    script = _REQUEST_JS.replace("__TIMEOUT_MS__", str(int(timeout * 1000)))
    try:
        # Older google.colab releases have no timeout_sec; the script's own timer bounds the wait then.
        if "timeout_sec" in inspect.signature(output.eval_js).parameters:
            answer = output.eval_js(script, timeout_sec=timeout)
        else:
            answer = output.eval_js(script)
    except Exception:  # pylint: disable=broad-except
        # The frontend refused the script (google.colab's MessageError) or is gone: same as no answer.
        return None
    return _parse(answer)


def _parse(answer):
    """The status in ``answer`` (the JSON text the script resolved to), or None unless it is a valid status."""
    if not isinstance(answer, str):
        return None
    try:
        data = json.loads(answer)
    except ValueError:
        return None
    return data if _is_status(data) else None


def _is_status(data):
    if not isinstance(data, dict) or data.get("v") != API_VERSION:
        return False
    if data.get("guarded") is False:
        return set(data) == {"v", "guarded"}
    if data.get("guarded") is not True:
        return False
    if not all(_is_count(data.get(name)) for name in ("restarts", "maxRestarts", "totalRestarts")):
        return False
    last = data.get("lastFailure")
    if last is not None and not (
        isinstance(last, dict) and all(isinstance(last.get(name), str) for name in ("kind", "line", "at"))
    ):
        return False
    return data.get("lastRestartAt") is None or isinstance(data["lastRestartAt"], str)


def _is_count(value):
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0
