"""The engine behaves the same compiled (mypyc) and as pure Python (docs/ENGINE.md,
"Compiled engine"): its values survive pickling and copying (a process pool sends them
between processes), and the loader never runs compiled modules older than their sources."""

from __future__ import annotations

import copy
import os
import pickle
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from dominion.server import engine
from dominion.server.engine import Game, Option, OptionKind, Setup
from dominion.server.engine.cards import catalogue
from dominion.server.engine.loader import PURE_PYTHON_ENV, STAMP, Engine

compiled_only = pytest.mark.skipif(
    not engine.COMPILED,
    reason="the engine runs as pure Python: install it compiled (pip install -e ., "
           "with a C compiler)")


def finished_game() -> Game:
    game = Game(Setup.create(2, kingdom="First Game"), seed=5)
    game.resign(0)
    return game


@pytest.mark.parametrize("value", [
    Setup.create(["Ann", "Bob"], kingdom="First Game"),
    Setup.from_dict({**Setup.create(3).to_dict(), "secret_questions": False}),
    catalogue(2)["cellar"],
    Option(OptionKind.CARD, "copper"),
    finished_game().result,
], ids=type)
def test_the_engine_values_pickle_and_copy(value: object) -> None:
    for twin in (pickle.loads(pickle.dumps(value)), copy.deepcopy(value), copy.copy(value)):
        assert twin == value and type(twin) is type(value)


def test_the_flag_says_which_engine_runs() -> None:
    from_extension = engine.game.__file__.endswith(tuple(EXTENSION_SUFFIXES))
    assert engine.COMPILED is from_extension is (engine.ENGINE is Engine.COMPILED)


def engine_in(root: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """Which engine runs from a copy of the installed package under `root`."""
    check = ("import dominion.server.engine as e, dominion.server.engine.effects.attacks as a; "
             "print(e.ENGINE.name, e.COMPILED, a.__file__.endswith('.py'))")
    environ = {key: value for key, value in os.environ.items()
               if key not in ("PYTHONPATH", PURE_PYTHON_ENV)}
    return subprocess.run([sys.executable, "-c", check], cwd=root, capture_output=True,
                          text=True, env={**environ, "PYTHONPATH": str(root), **env},
                          timeout=60, check=True)


@compiled_only
def test_compiled_modules_older_than_their_sources_are_not_run(tmp_path: Path) -> None:
    package = tmp_path / "dominion" / "server"
    shutil.copytree(Path(engine.__file__).parent, package / "engine",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (package / "__init__.py").write_text("")
    assert engine_in(tmp_path).stdout == "COMPILED True False\n"
    assert engine_in(tmp_path, **{PURE_PYTHON_ENV: "1"}).stdout == "PURE False True\n"
    attacks = package / "engine" / "effects" / "attacks.py"
    attacks.write_text(attacks.read_text() + "\n# edited after the build\n")
    stale = engine_in(tmp_path)
    assert stale.stdout == "STALE False True\n"  # every module from its source, not only this
    assert stale.stderr.count("RuntimeWarning: the compiled engine is older") == 1
    (package / "engine" / STAMP).unlink()  # a build that left no stamp (failed half-way)
    assert engine_in(tmp_path).stdout == "PURE False True\n"
