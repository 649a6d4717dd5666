"""Unit tests of colab_oom_guard with a stubbed google.colab.output.eval_js (run: python3 -m unittest)."""

import json
import sys
import types
import unittest

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


class StubColab:
    """Installs google.colab.output with `eval_js` for the duration of a test, recording its calls."""

    def __init__(self, eval_js):
        self.calls = []
        self.eval_js = eval_js

    def __enter__(self):
        google = types.ModuleType("google")
        colab = types.ModuleType("google.colab")
        output = types.ModuleType("google.colab.output")
        output.eval_js = self.eval_js
        google.colab = colab
        colab.output = output
        self.saved = {name: sys.modules.get(name) for name in ("google", "google.colab", "google.colab.output")}
        sys.modules.update({"google": google, "google.colab": colab, "google.colab.output": output})
        return self

    def __exit__(self, *exc):
        for name, module in self.saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


def answering(answer, calls):
    """An eval_js of current google.colab (with timeout_sec) that answers `answer`."""

    def eval_js(script, ignore_result=False, timeout_sec=None):
        calls.append({"script": script, "ignore_result": ignore_result, "timeout_sec": timeout_sec})
        if isinstance(answer, Exception):
            raise answer
        return answer

    return eval_js


class StatusTest(unittest.TestCase):
    def status_with(self, answer, **kwargs):
        calls = []
        with StubColab(answering(answer, calls)):
            return colab_oom_guard.status(**kwargs), calls

    def test_returns_the_status_the_extension_answered(self):
        status, calls = self.status_with(json.dumps(STATUS))
        self.assertEqual(status, STATUS)
        self.assertEqual(len(calls), 1)
        script = calls[0]["script"]
        self.assertIn("colabOomGuard: 'status?'", script)
        self.assertIn("setTimeout(() => done(null), 2000)", script)
        self.assertEqual(calls[0]["timeout_sec"], 2.0)

    def test_a_status_without_failure_or_restart_reads_as_none_values(self):
        fresh = {**STATUS, "restarts": 0, "totalRestarts": 0, "lastFailure": None, "lastRestartAt": None}
        self.assertEqual(self.status_with(json.dumps(fresh))[0], fresh)

    def test_a_notebook_not_guarded_reads_as_that_and_nothing_else(self):
        self.assertEqual(self.status_with(json.dumps({"v": 1, "guarded": False}))[0], {"v": 1, "guarded": False})

    def test_none_without_an_answer_within_the_timeout(self):
        # eval_js gives None when its timeout passes; the script itself resolves to null after its own timer.
        status, calls = self.status_with(None)
        self.assertIsNone(status)
        status, calls = self.status_with(None, timeout=0.5)
        self.assertIsNone(status)
        self.assertEqual(calls[0]["timeout_sec"], 0.5)
        self.assertIn("setTimeout(() => done(null), 500)", calls[0]["script"])

    def test_none_when_the_frontend_refuses_the_script(self):
        self.assertIsNone(self.status_with(RuntimeError("MessageError: ReferenceError"))[0])

    def test_none_for_an_answer_that_is_not_a_version_1_status(self):
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
                self.assertIsNone(self.status_with(answer)[0])

    def test_an_older_eval_js_without_timeout_sec_is_bounded_by_the_script(self):
        calls = []

        def eval_js(script, ignore_result=False):
            calls.append(script)
            return json.dumps(STATUS)

        with StubColab(eval_js):
            self.assertEqual(colab_oom_guard.status(), STATUS)
        self.assertIn("setTimeout(() => done(null), 2000)", calls[0])

    def test_none_outside_colab(self):
        saved = {name: sys.modules.pop(name, None) for name in ("google", "google.colab", "google.colab.output")}
        sys.modules["google"] = None  # makes `import google...` fail even where another google package exists
        try:
            self.assertIsNone(colab_oom_guard.status())
        finally:
            sys.modules.pop("google", None)
            sys.modules.update({name: module for name, module in saved.items() if module is not None})


if __name__ == "__main__":
    unittest.main()
