"""Unit tests of colab_oom_guard with stubbed google.colab and IPython modules (run: python3 -m unittest)."""

import json
import os
import subprocess
import sys
import types
import unittest
import warnings

import colab_oom_guard

STATUS = {
    "v": 1,
    "guarded": True,
    "restarts": 1,
    "maxRestarts": 3,
    "totalRestarts": 4,
    "lastFailure": {
        "kind": "gpu-oom",
        "line": "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
        "at": "2026-03-25T02:14:07.512Z",
    },
    "lastRestartAt": "2026-03-25T02:14:13.020Z",
}

MODULES = ("google", "google.colab", "google.colab.output", "IPython")


class Runtime:
    """Installs stand-ins for google.colab.output (with `eval_js`, or none: not Colab) and IPython (a notebook kernel,
    or a process without one) for the duration of a test."""

    def __init__(self, eval_js=None, kernel=True):
        self.eval_js = eval_js
        self.kernel = kernel

    def __enter__(self):
        self.saved = {name: sys.modules.get(name) for name in MODULES}
        self.saved_env = os.environ.pop(colab_oom_guard.ENV_VAR, None)
        if self.eval_js is None:
            sys.modules["google"] = None  # makes `import google...` fail even where another google package exists
        else:
            google = types.ModuleType("google")
            colab = types.ModuleType("google.colab")
            output = types.ModuleType("google.colab.output")
            output.eval_js = self.eval_js
            google.colab = colab
            colab.output = output
            sys.modules.update({"google": google, "google.colab": colab, "google.colab.output": output})
        ipython = types.ModuleType("IPython")
        shell = types.SimpleNamespace(kernel=object()) if self.kernel else None
        ipython.get_ipython = lambda: shell
        sys.modules["IPython"] = ipython
        return self

    def __exit__(self, *exc):
        for name, module in self.saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
        os.environ.pop(colab_oom_guard.ENV_VAR, None)
        if self.saved_env is not None:
            os.environ[colab_oom_guard.ENV_VAR] = self.saved_env


def answering(answer, calls):
    """An eval_js of current google.colab (with timeout_sec) that answers `answer`, or raises it."""

    def eval_js(script, ignore_result=False, timeout_sec=None):
        calls.append({"script": script, "ignore_result": ignore_result, "timeout_sec": timeout_sec})
        if isinstance(answer, Exception):
            raise answer
        return answer

    return eval_js


class Case(unittest.TestCase):
    def setUp(self):
        colab_oom_guard._warned.clear()

    def read(self, answer, **kwargs):
        """status(**kwargs) in a notebook kernel whose page answers `answer`: (result, eval_js calls, warnings)."""
        calls = []
        with Runtime(answering(answer, calls)), warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = colab_oom_guard.status(**kwargs)
        return result, calls, [w for w in caught if issubclass(w.category, colab_oom_guard.StatusWarning)]

    def assert_unavailable(self, reason, run):
        with self.assertRaises(colab_oom_guard.StatusUnavailable) as raised:
            run()
        self.assertEqual(raised.exception.reason, reason)
        return str(raised.exception)


class InTheNotebook(Case):
    def test_returns_the_status_the_extension_answered(self):
        status, calls, caught = self.read(json.dumps(STATUS))
        self.assertEqual(status, STATUS)
        self.assertEqual(caught, [])
        self.assertEqual(len(calls), 1)
        self.assertIn("colabOomGuard: 'status?'", calls[0]["script"])
        self.assertIn("setTimeout(() => done('no-answer'), 2000)", calls[0]["script"])

    def test_python_waits_longer_than_the_page_so_the_page_has_the_last_word(self):
        _, calls, _ = self.read(json.dumps(STATUS))
        self.assertEqual(calls[0]["timeout_sec"], 7.0)
        _, calls, _ = self.read(json.dumps(STATUS), timeout=0.5)
        self.assertIn("setTimeout(() => done('no-answer'), 500)", calls[0]["script"])
        self.assertEqual(calls[0]["timeout_sec"], 5.5)

    def test_a_status_without_failure_or_restart_reads_as_none_values(self):
        fresh = {**STATUS, "restarts": 0, "totalRestarts": 0, "lastFailure": None, "lastRestartAt": None}
        self.assertEqual(self.read(json.dumps(fresh))[0], fresh)

    def test_a_notebook_not_guarded_reads_as_that_and_nothing_else(self):
        self.assertEqual(self.read(json.dumps({"v": 1, "guarded": False}))[0], {"v": 1, "guarded": False})

    def test_no_answer_from_the_extension_warns_once_and_strict_raises(self):
        status, _, caught = self.read("no-answer")
        self.assertIsNone(status)
        self.assertEqual(len(caught), 1)
        self.assertIn("Colab OOM Guard did not answer within 2 s", str(caught[0].message))
        self.assertIn("status API is switched off", str(caught[0].message))
        # The same reason again: no second warning in this process.
        self.assertEqual(self.read("no-answer")[2], [])
        self.assert_unavailable("no-answer", lambda: self.read("no-answer", strict=True))

    def test_a_silent_page_is_told_apart_from_a_missing_extension(self):
        status, _, caught = self.read(None)
        self.assertIsNone(status)
        self.assertEqual(len(caught), 1)
        self.assertIn("the Colab page did not answer within 7 s", str(caught[0].message))
        self.assert_unavailable("page-silent", lambda: self.read(None, strict=True))

    def test_a_refused_request_says_what_the_page_said(self):
        error = RuntimeError("MessageError: ReferenceError: window is not defined")
        status, _, caught = self.read(error)
        self.assertIsNone(status)
        self.assertIn("ReferenceError: window is not defined", str(caught[0].message))
        self.assert_unavailable("page-error", lambda: self.read(error, strict=True))

    def test_an_answer_that_is_not_a_version_1_status_is_no_status(self):
        invalid = [
            "not json",
            json.dumps([STATUS]),
            json.dumps({**STATUS, "v": 2}),
            json.dumps({**STATUS, "guarded": "yes"}),
            json.dumps({**STATUS, "restarts": True}),
            json.dumps({**STATUS, "maxRestarts": -1}),
            json.dumps({**STATUS, "totalRestarts": 1.5}),
            json.dumps({key: value for key, value in STATUS.items() if key != "restarts"}),
            json.dumps({**STATUS, "lastFailure": {"kind": "gpu-oom", "line": 3, "at": "x"}}),
            json.dumps({**STATUS, "lastFailure": "gpu-oom"}),
            json.dumps({**STATUS, "lastRestartAt": 1774404853020}),
            json.dumps({**STATUS, "guarded": False}),
            json.dumps({"v": 1}),
            {"v": 1},
        ]
        for answer in invalid:
            with self.subTest(answer=answer):
                self.assertIsNone(self.read(answer)[0])
                self.assert_unavailable("invalid-answer", lambda: self.read(answer, strict=True))

    def test_an_older_eval_js_without_timeout_sec_is_bounded_by_the_page(self):
        calls = []

        def eval_js(script, ignore_result=False):
            calls.append(script)
            return json.dumps(STATUS)

        with Runtime(eval_js):
            self.assertEqual(colab_oom_guard.status(), STATUS)
        self.assertIn("setTimeout(() => done('no-answer'), 2000)", calls[0])

    def test_a_jupyter_kernel_outside_colab_says_so(self):
        with Runtime(eval_js=None, kernel=True):
            message = self.assert_unavailable("not-colab", lambda: colab_oom_guard.status(strict=True))
        self.assertIn("does not run in Google Colab", message)


class OutsideTheNotebook(Case):
    def test_outside_colab_it_says_so_once(self):
        with Runtime(eval_js=None, kernel=False), warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            self.assertIsNone(colab_oom_guard.status())
            self.assertIsNone(colab_oom_guard.status())
            message = self.assert_unavailable("not-colab", lambda: colab_oom_guard.status(strict=True))
        self.assertEqual([str(w.message) for w in caught], [message])
        self.assertIn("not running in Google Colab", message)

    def test_a_subprocess_of_the_notebook_says_it_has_no_page_to_ask(self):
        calls = []
        with Runtime(answering(json.dumps(STATUS), calls), kernel=False):
            message = self.assert_unavailable("subprocess", lambda: colab_oom_guard.status(strict=True))
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                self.assertIsNone(colab_oom_guard.status())
        self.assertEqual(calls, [], "a process without a kernel cannot send the page a script")
        self.assertIn("`!python script.py`", message)
        self.assertIn("share_with_subprocesses()", message)
        self.assertEqual(len(caught), 1)


def run_script(code):
    """Runs `code` in a new Python process, as `!python script.py` does: the environment is the notebook's."""
    here = os.path.dirname(os.path.abspath(colab_oom_guard.__file__))
    env = {**os.environ, "PYTHONPATH": here, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False)


class SharedWithSubprocesses(Case):
    def test_a_script_started_after_sharing_reads_what_the_cell_read(self):
        calls = []
        with Runtime(answering(json.dumps(STATUS), calls)):
            self.assertEqual(colab_oom_guard.share_with_subprocesses(), STATUS)
            script = run_script("import json, colab_oom_guard; print(json.dumps(colab_oom_guard.status(strict=True)))")
        self.assertEqual(script.returncode, 0, script.stderr)
        self.assertEqual(json.loads(script.stdout), STATUS)
        self.assertEqual(len(calls), 1)

    def test_a_script_started_after_a_failed_read_is_told_why(self):
        with Runtime(answering("no-answer", [])), warnings.catch_warnings(record=True):
            warnings.simplefilter("always")
            self.assertIsNone(colab_oom_guard.share_with_subprocesses())
            strict = run_script("import colab_oom_guard; colab_oom_guard.status(strict=True)")
            lenient = run_script("import colab_oom_guard; print(colab_oom_guard.status())")
        self.assertNotEqual(strict.returncode, 0)
        told = "StatusUnavailable: In the notebook: colab_oom_guard: Colab OOM Guard did not answer"
        self.assertIn(told, strict.stderr)
        self.assertEqual(lenient.stdout.strip(), "None")
        self.assertIn("StatusWarning: In the notebook:", lenient.stderr)

    def test_a_script_started_without_sharing_cannot_ask_and_says_so(self):
        with Runtime(eval_js=None, kernel=False):
            script = run_script("import colab_oom_guard; print(colab_oom_guard.status())")
        self.assertEqual(script.stdout.strip(), "None")
        self.assertIn("not running in Google Colab", script.stderr)


if __name__ == "__main__":
    unittest.main()
