"""The engine behaves the same compiled (mypyc) and as pure Python (docs/ENGINE.md,
"Compiled engine"): its values survive pickling and copying (a process pool sends them
between processes), and the loader never runs compiled modules older than their sources:
neither the engine's nor the in-process bots' (compiled with it)."""

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

from dominion.protocol.loader import PURE_PYTHON_ENV, ROOT, STAMP, Engine
from dominion.server import engine
from dominion.server.engine import Game, Option, OptionKind, Setup
from dominion.server.engine.cards import catalogue

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


SOURCE_FILES = ("server/engine/effects/attacks.py", "bots/strategies.py",
                "server/play/bots.py", "protocol/codec.py")
"""A compiled module of each package that has them."""


def module_of(path: str) -> str:
    return "dominion." + path.removesuffix(".py").replace("/", ".")


def engine_in(root: Path, first: str = SOURCE_FILES[0],
              **env: str) -> subprocess.CompletedProcess[str]:
    """Which engine runs from a copy of the installed packages under `root`, and whether
    each of SOURCE_FILES' modules was imported from its source, `first`'s module first (its
    package's own check must decide, before anything else has)."""
    names = [module_of(path) for path in SOURCE_FILES]
    check = (f"import sys, {module_of(first)}, {', '.join(names)}, dominion.server.engine as e; "
             f"print(e.ENGINE.name, e.COMPILED, *(sys.modules[name].__file__.endswith('.py') "
             f"for name in {names!r}))")
    environ = {key: value for key, value in os.environ.items()
               if key not in ("PYTHONPATH", PURE_PYTHON_ENV)}
    return subprocess.run([sys.executable, "-c", check], cwd=root, capture_output=True,
                          text=True, env={**environ, "PYTHONPATH": str(root), **env},
                          timeout=60, check=True)


@pytest.fixture
def packages(tmp_path: Path) -> Path:
    """A copy of the installed packages (compiled modules, stamp and sources) under
    `tmp_path`/dominion."""
    for folder in ("server", "protocol", "bots", "clients"):
        shutil.copytree(ROOT / folder, tmp_path / "dominion" / folder,
                        ignore=shutil.ignore_patterns("__pycache__", "web", "locale"))
    return tmp_path / "dominion"


def report(engine: str) -> str:
    """What `engine_in` prints when `engine` runs: every module compiled, or none."""
    compiled = engine == Engine.COMPILED.name
    return " ".join([engine, str(compiled), *[str(not compiled)] * len(SOURCE_FILES)]) + "\n"


@compiled_only
@pytest.mark.integration  # a Python of its own
def test_compiled_modules_older_than_their_sources_are_not_run(packages: Path) -> None:
    root = packages.parent
    assert engine_in(root).stdout == report("COMPILED")
    assert engine_in(root, **{PURE_PYTHON_ENV: "1"}).stdout == report("PURE")
    attacks = packages / SOURCE_FILES[0]
    attacks.write_text(attacks.read_text() + "\n# edited after the build\n")
    stale = engine_in(root)
    assert stale.stdout == report("STALE")  # every module from its source
    assert stale.stderr.count("RuntimeWarning: the compiled engine is older") == 1
    (packages / STAMP).unlink()  # a build that left no stamp (failed half-way)
    assert engine_in(root).stdout == report("PURE")


@compiled_only
@pytest.mark.integration  # a Python of its own
@pytest.mark.parametrize("edited", SOURCE_FILES[1:])
def test_a_compiled_module_besides_the_engine_older_than_its_source_is_not_run(
        packages: Path, edited: str) -> None:
    # the bots and the protocol's codec are compiled with the engine, which they call
    # natively (or which calls them): all stale, or none
    source = packages / edited
    source.write_text(source.read_text() + "\n# edited after the build\n")
    stale = engine_in(packages.parent, first=edited)
    assert stale.stdout == report("STALE")
    assert stale.stderr.count("RuntimeWarning: the compiled engine is older") == 1
