"""The engine's and the bots' tests also pass on the pure-Python modules when the suite runs
compiled, so the compiled and the pure code cannot drift apart (docs/ENGINE.md, "Compiled
engine")."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from dominion.protocol.loader import PURE_PYTHON_ENV
from dominion.server import engine

pytestmark = pytest.mark.system  # the engine's tests again, on the pure-Python engine

TESTS = Path(__file__).resolve().parent


@pytest.mark.skipif(not engine.COMPILED,
                    reason="the engine runs as pure Python here: this run is the pure run")
@pytest.mark.timeout(900)
def test_the_engine_tests_pass_on_the_pure_python_engine() -> None:
    run = subprocess.run([sys.executable, "-m", "pytest", "-x", "-p", "no:cacheprovider",
                          "-rs", str(TESTS), str(TESTS.parent / "bots")],
                         cwd=TESTS.parent.parent, capture_output=True,
                         text=True, env={**os.environ, PURE_PYTHON_ENV: "1"}, check=False)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "this run is the pure run" in run.stdout  # it was, and not recursive
