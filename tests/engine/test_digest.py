"""The engine tells the world the same thing after an optimisation: bench/engine_digest.py's
digest of a few seeded games (their frames for every viewer, events, results and replays,
and a seeded `dominion-sim` report) is pinned here. A change that alters frames on purpose
records the new digest (`python bench/engine_digest.py --games 12 --sim-games 20`)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[2] / "bench" / "engine_digest.py"
DIGEST = "a2ecc24b0b1071ca2698f1ab087e46ab1322d0d5f09eda3fbc2a8b2ef9e83ec2"
"""The digest of games 0 to 11 and a 20-game simulation, recorded at 854efea0 (before the
engine's data changed for speed, issue 41)."""


def engine_digest() -> ModuleType:
    spec = importlib.util.spec_from_file_location("engine_digest", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_frames_events_and_replays_are_those_recorded() -> None:
    value, answers = engine_digest().digest(12, 20)
    assert answers > 12 * 20
    assert value == DIGEST
