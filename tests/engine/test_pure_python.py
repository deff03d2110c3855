"""The engine's and the bots' tests also pass on the pure-Python modules when the suite runs
compiled, so the compiled and the pure code cannot drift apart (docs/ENGINE.md, "Compiled
engine").

What runs again is what differs when compiled: tests/engine (the rules, every card, the
views, the digest of recorded frames, events and replays) and tests/bots (the seat table,
the strategies, and the strong bot's pinned answers, read through the compiled seat
table). The random games run a tenth of their games here (`PURE_RANDOM_GAMES`, every
player count on both editions): they repeat the same engine code over more deals, which
the compiled run covers in full, and at the full count they were four fifths of this
run's CPU."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from dominion.protocol.loader import PURE_PYTHON_ENV
from dominion.server import engine

from .test_random_games import RANDOM_GAMES_ENV

pytestmark = pytest.mark.system  # the engine's tests again, on the pure-Python engine

TESTS = Path(__file__).resolve().parent
PURE_RANDOM_GAMES = 120
"""Games of tests/engine/test_random_games.py in the pure run (ten a batch; among them
every player count on both editions)."""


@pytest.mark.skipif(not engine.COMPILED,
                    reason="the engine runs as pure Python here: this run is the pure run")
@pytest.mark.timeout(900)
def test_the_engine_tests_pass_on_the_pure_python_engine() -> None:
    run = subprocess.run([sys.executable, "-m", "pytest", "-x", "-p", "no:cacheprovider",
                          "-rs", str(TESTS), str(TESTS.parent / "bots")],
                         cwd=TESTS.parent.parent, capture_output=True,
                         text=True, env={**os.environ, PURE_PYTHON_ENV: "1",
                              RANDOM_GAMES_ENV: str(PURE_RANDOM_GAMES)}, check=False)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "this run is the pure run" in run.stdout  # it was, and not recursive
