"""Read Colab OOM Guard's status from inside the notebook it guards.

Colab OOM Guard is a browser extension that restarts a Colab session and runs
all cells again when a training run dies of out-of-memory. It keeps its restart
count outside the runtime, so the count survives the restart that wipes every
Python variable. This module asks the extension for it, so that training code
can adapt after an OOM restart: a smaller batch size, gradient checkpointing, a
resume from the last checkpoint, or its own limit on how often to try.

Install it in the notebook's first cell (a restart keeps it installed)::

    %pip install -q "git+https://github.com/colab-oom-guard/colab-oom-guard.git#subdirectory=python"

It uses only the Python standard library and ``google.colab``, so copying this
one file next to the notebook works too.

Example::

    from colab_oom_guard import status

    guard = status() or {}  # None (and a warning saying why) when no status can be read: train as on a first run
    restarts = guard.get("restarts", 0)  # a notebook the guard is off for reads {"v": 1, "guarded": False}
    if restarts >= 3:
        raise SystemExit(f"Out of memory {restarts} times in a row: giving up.")
    batch_size = max(8, 64 // 2**restarts)  # 64, then 32, 16, 8 after each restart
    last = guard.get("lastFailure")  # absent when the guard is off, None before its first failure

``status()`` returns None when it gets no status and warns once, saying why.
None means "unknown", never "no restarts": the extension may be missing, its
status API switched off, or the code may not run in a notebook cell. With
``strict=True`` it raises ``StatusUnavailable`` instead, which stops the cell:
only for code that must not run without the guard's count.

Scripts started from a cell (``!python train.py``) run in a process of their
own, with no Colab page to ask. Call ``share_with_subprocesses()`` in a cell
before starting them; ``status()`` in the script then returns what the cell
read (through the ``COLAB_OOM_GUARD_STATUS`` environment variable), and without
it raises or warns that it cannot ask.

The status (version 1 of the extension's page API) is a dict. For a notebook the guard is not on for, it says only
that: ``{"v": 1, "guarded": False}``. For a guarded notebook::

    {
        "v": 1,
        "guarded": True,          # the guard is on for this notebook
        "restarts": 1,            # restarts in a row (0 again after a healthy run)
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
import os
import warnings

__all__ = [
    "API_VERSION",
    "ENV_VAR",
    "FRONTEND_GRACE_SEC",
    "TIMEOUT_SEC",
    "StatusUnavailable",
    "StatusWarning",
    "share_with_subprocesses",
    "status",
]

__version__ = "0.1.0"

API_VERSION = 1
# How long the page (the request script in the cell's output frame) waits for the extension's answer.
TIMEOUT_SEC = 2.0
# How much longer Python waits for the page than the page waits for the extension: the page's own word ("no answer")
# always arrives first, so a silent page means the page itself is gone, not that the extension is missing.
FRONTEND_GRACE_SEC = 5.0
# Where share_with_subprocesses() leaves the status for the processes a notebook starts.
ENV_VAR = "COLAB_OOM_GUARD_STATUS"

# What the request script resolves to when its own timer runs out.
_NO_ANSWER = "no-answer"

# Runs in the cell's output frame (google.colab.output.eval_js): asks the extension on this frame's own window and
# waits for the answer carrying the same id, or gives "no-answer" after the timeout. BEGIN/END mark it for the
# extension's own end-to-end test, which runs this very script in a simulated output frame.
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
  const timer = setTimeout(() => done('no-answer'), __TIMEOUT_MS__);
  window.addEventListener('message', onMessage);
  window.postMessage({ colabOomGuard: 'status?', id }, '*');
})
"""
# END status request


class StatusUnavailable(RuntimeError):
    """No status could be read. ``reason`` names the case, the message says what to do:

    - ``"not-colab"``: not running in a Colab runtime;
    - ``"subprocess"``: a process with no Colab page to ask, and no status shared with it;
    - ``"no-answer"``: the page asked, and Colab OOM Guard did not answer;
    - ``"page-silent"``: the Colab page itself did not answer;
    - ``"page-error"``: the Colab page refused the request;
    - ``"invalid-answer"``: an answer that is not a version 1 status.
    """

    def __init__(self, reason, message):
        super().__init__(message)
        self.reason = reason


class StatusWarning(UserWarning):
    """Warned (once per reason and process) when ``status()`` returns None."""


_warned = set()


def status(timeout=TIMEOUT_SEC, strict=False):
    """Returns Colab OOM Guard's status for this notebook (a dict, see the module's docstring).

    When no status can be read it returns None and warns once per reason
    (``StatusWarning``), or with ``strict=True`` raises ``StatusUnavailable``
    saying why. None means unknown, not zero restarts.

    ``timeout`` is how long the page waits for the extension; Python waits
    ``FRONTEND_GRACE_SEC`` longer for the page. A call blocks at most that long.
    """
    try:
        return _read(timeout)
    except StatusUnavailable as error:
        if strict:
            raise
        _warn_once(error)
        return None


def share_with_subprocesses(timeout=TIMEOUT_SEC, strict=False):
    """Reads the status in a notebook cell and hands it to the processes the notebook starts afterwards.

    Call it in a cell before ``!python train.py``: the status (or why there is
    none) goes into the ``COLAB_OOM_GUARD_STATUS`` environment variable, which
    every process started from the notebook inherits, and ``status()`` in those
    processes returns it. Returns what ``status()`` would.
    """
    try:
        found = _read(timeout)
    except StatusUnavailable as error:
        os.environ[ENV_VAR] = json.dumps({"unavailable": error.reason, "message": str(error)})
        if strict:
            raise
        _warn_once(error)
        return None
    os.environ[ENV_VAR] = json.dumps(found)
    return found


def _read(timeout):
    if _notebook_kernel() is not None:
        return _ask_page(timeout)
    shared = os.environ.get(ENV_VAR)
    if shared is not None:
        return _from_shared(shared)
    if _colab_output() is None:
        raise StatusUnavailable(
            "not-colab",
            "colab_oom_guard: not running in Google Colab (google.colab cannot be imported), so there is no guard "
            "to ask.",
        )
    raise StatusUnavailable(
        "subprocess",
        "colab_oom_guard: this process has no Colab page to ask: it is not the notebook's own kernel (a "
        "`!python script.py` subprocess, or a terminal). Call colab_oom_guard.share_with_subprocesses() in a "
        "notebook cell before starting it, and status() here returns what that cell read.",
    )


def _notebook_kernel():
    """The IPython kernel this code runs in, or None: only a notebook's kernel can send a cell's output a script."""
    try:
        from IPython import get_ipython  # pylint: disable=import-outside-toplevel
    except ImportError:
        return None
    return getattr(get_ipython(), "kernel", None)


def _colab_output():
    try:
        from google.colab import output  # pylint: disable=import-outside-toplevel
    except ImportError:
        return None
    return output


def _ask_page(timeout):
    output = _colab_output()
    if output is None:
        raise StatusUnavailable(
            "not-colab",
            "colab_oom_guard: this notebook does not run in Google Colab (google.colab cannot be imported), so "
            "there is no guard to ask.",
        )
    script = _REQUEST_JS.replace("__TIMEOUT_MS__", str(int(timeout * 1000)))
    wait = timeout + FRONTEND_GRACE_SEC
    try:
        # Older google.colab releases have no timeout_sec: they wait for the page, whose own timer answers.
        if "timeout_sec" in inspect.signature(output.eval_js).parameters:
            answer = output.eval_js(script, timeout_sec=wait)
        else:
            answer = output.eval_js(script)
    except Exception as error:  # pylint: disable=broad-except
        # google.colab's MessageError (the page refused the script), or anything of a broken frontend connection.
        raise StatusUnavailable(
            "page-error", f"colab_oom_guard: the Colab page refused the status request: {error}"
        ) from error
    if answer == _NO_ANSWER:
        raise StatusUnavailable(
            "no-answer",
            f"colab_oom_guard: Colab OOM Guard did not answer within {timeout:g} s. The extension is not installed "
            "or not enabled in the browser showing this notebook, its status API is switched off in its options "
            "(Your notebook's own code), or this browser has not loaded it into the page yet (reload the tab).",
        )
    if answer is None:
        raise StatusUnavailable(
            "page-silent",
            f"colab_oom_guard: the Colab page did not answer within {wait:g} s: is the notebook's tab open and "
            "connected?",
        )
    return _parse(answer, "the page")


def _from_shared(text):
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if isinstance(data, dict) and isinstance(data.get("unavailable"), str):
        raise StatusUnavailable(data["unavailable"], f"In the notebook: {data.get('message', '')}")
    return _parse(text, f"the {ENV_VAR} environment variable")


def _parse(answer, source):
    """The status in ``answer`` (JSON text); raises unless it is a version 1 status."""
    data = None
    if isinstance(answer, str):
        try:
            data = json.loads(answer)
        except ValueError:
            pass
    if not _is_status(data):
        raise StatusUnavailable(
            "invalid-answer",
            f"colab_oom_guard: {source} gave something that is not a version {API_VERSION} status "
            f"({str(answer)[:200]!r}); a newer extension may need a newer colab_oom_guard.",
        )
    return data


def _warn_once(error):
    if error.reason in _warned:
        return
    _warned.add(error.reason)
    warnings.warn(str(error), StatusWarning, stacklevel=3)


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
