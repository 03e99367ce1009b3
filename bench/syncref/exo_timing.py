"""pytest plugin (loaded with -p exo_timing): times every Procedure.sync_check
call of the reference implementation's tests and records its verdict.

Each call appends one JSON line to $SYNCREF_OUT: the pytest node id, the
procedure, the size arguments, the verdict ("accepted" or the exception's
type and first line) and the CPU time of the call (time.process_time, the
whole sync_check: the reference's static backend checks plus its camspork
run; the JIT build of libcamspork is done beforehand and not timed).
"""

import json
import os
import time

import pytest


def _record(entry):
    with open(os.environ["SYNCREF_OUT"], "a") as f:
        f.write(json.dumps(entry) + "\n")


_current = {"node": None}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    _current["node"] = item.nodeid
    yield
    _current["node"] = None


def pytest_configure(config):
    from exo.API import Procedure

    orig = Procedure.sync_check

    def timed(self, **kwargs):
        t0 = time.process_time()
        w0 = time.perf_counter()
        try:
            orig(self, **kwargs)
        except Exception as e:
            msg = str(e).strip().splitlines()
            _record(
                {
                    "node": _current["node"],
                    "proc": self.name(),
                    "args": {k: str(v) for k, v in kwargs.items()},
                    "verdict": type(e).__name__ + ": " + (msg[0] if msg else ""),
                    "cpu_s": time.process_time() - t0,
                    "wall_s": time.perf_counter() - w0,
                }
            )
            raise
        _record(
            {
                "node": _current["node"],
                "proc": self.name(),
                "args": {k: str(v) for k, v in kwargs.items()},
                "verdict": "accepted",
                "cpu_s": time.process_time() - t0,
                "wall_s": time.perf_counter() - w0,
            }
        )

    Procedure.sync_check = timed
