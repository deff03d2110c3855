"""Compiled or pure Python: which of our modules run (docs/ENGINE.md, "Compiled engine").

`pip install` compiles the engine's modules, the in-process bots, the server's frames and
the protocol's codec (`COMPILED_FILES`) with mypyc where it can; the compiled modules sit
beside their `.py` sources, and Python's import system prefers them. This module (never
compiled itself) makes sure they are used only when they were built from exactly the
sources beside them, and all of them or none (compiled code calls the other compiled
modules natively, so a mix cannot run): the build records a hash of those sources in
`STAMP`; if it does not match (a source edited since the build), or `PURE_PYTHON_ENV` is
set, a finder loads every compiled module from its `.py`. The package of each compiled
module calls `choose()` before it imports one. It lives in the protocol because that is
the one package the engine, the server's play and the bots may all import; it
imports none of them.
setup.py imports this file by path, so the build and the check share one definition.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from enum import StrEnum
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import Final

PURE_PYTHON_ENV: Final = "DOMINION_PURE_PYTHON"
"""Set to 1 (at install time: build nothing; at run time: load the `.py` sources)."""
ROOT: Final = Path(__file__).parent.parent
"""The folder holding `server/`, `protocol/`, `bots/` and `clients/` (installed: `dominion/`)."""
ROOT_PACKAGE: Final = "dominion"
ENGINE_FOLDER: Final = Path("server", "engine")
COMPILED_FILES: Final = (Path("bots", "strategies.py"), Path("bots", "seat.py"),
                         Path("protocol", "buy_menu.py"), Path("protocol", "codec.py"),
                         Path("protocol", "spec.py"),
                         Path("server", "play", "bots.py"), Path("server", "play", "frames.py"),
                         Path("server", "play", "subscribers.py"),
                         Path("server", "edge", "transport", "outbox.py"))
"""Compiled besides the engine: the bots that play through it in-process (and the Buy
menus the engine hands them), and the rest of the server's per-answer path (the frames
each viewer gets of a change, their delivery to the room's connections, each
connection's outbox, and the codec and field specs that read and write every frame)."""
STAMP: Final = ENGINE_FOLDER / "build.json"
"""Written by the build beside the compiled modules' shared library: `{"sources": hash,
"mypyc": version}` when it compiled them, `{"pure": why}` when it left them pure Python."""


class Engine(StrEnum):
    """Which modules run, and why."""

    COMPILED = "compiled"
    PURE = "pure Python"
    """No compiled modules (none were built, or the pure-Python setting is on)."""
    STALE = "pure Python (compiled modules are stale)"
    """Compiled modules exist, but the sources beside them changed since the build."""


def pure_python_requested() -> bool:
    return os.environ.get(PURE_PYTHON_ENV, "") not in ("", "0")


def compiled_sources(root: Path) -> list[Path]:
    """The modules that the build compiles, relative to `root`, in a stable order: the
    engine's but its `__init__.py` (which chooses for the others), and COMPILED_FILES."""
    engine = [path.relative_to(root) for path in (root / ENGINE_FOLDER).rglob("*.py")
              if "__pycache__" not in path.parts and path != root / ENGINE_FOLDER / "__init__.py"]
    return sorted([*engine, *COMPILED_FILES])


def module_name(source: Path) -> str:
    """The import name of a source relative to the root: server/engine/effects/__init__.py
    is dominion.server.engine.effects."""
    parts = source.with_suffix("").parts
    return ".".join((ROOT_PACKAGE, *(parts[:-1] if parts[-1] == "__init__" else parts)))


def source_hash(root: Path) -> str:
    """A hash of the compiled modules' sources (names and contents)."""
    digest = hashlib.sha256()
    for source in compiled_sources(root):
        digest.update(source.as_posix().encode() + b"\0")
        digest.update((root / source).read_bytes() + b"\0")
    return digest.hexdigest()


def write_stamp(root: Path, sources: Path, mypyc: str) -> None:
    """Record, under `root` (where the compiled modules went), the hash of `sources`."""
    (root / STAMP).write_text(json.dumps({"sources": source_hash(sources), "mypyc": mypyc})
                              + "\n")


def write_pure_stamp(root: Path, why: str) -> None:
    """Record, under `root`, that the build left the modules pure Python, and why."""
    (root / STAMP).write_text(json.dumps({"pure": why}) + "\n")


def _stamp(root: Path) -> dict[str, str]:
    try:
        recorded = json.loads((root / STAMP).read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(recorded, dict):
        return {}
    return {key: value for key, value in recorded.items() if isinstance(value, str)}


def built_hash(root: Path) -> str | None:
    return _stamp(root).get("sources")


class PureSourceFinder:
    """Finds each compiled module as its `.py` file, ahead of the compiled extension
    module that the normal path finder would prefer."""

    def __init__(self, root: Path) -> None:
        self.sources = {module_name(source): root / source
                        for source in compiled_sources(root)}

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        source = self.sources.get(fullname)
        if source is None:
            return None
        if source.name == "__init__.py":
            return importlib.util.spec_from_file_location(
                fullname, source, submodule_search_locations=[str(source.parent)])
        return importlib.util.spec_from_file_location(fullname, source)


_chosen: dict[Path, Engine] = {}


def choose(root: Path = ROOT) -> Engine:
    """Decide, once, before any compiled module is imported; install the finder unless
    the compiled modules are current (and warn once if they are stale)."""
    engine = _chosen.get(root)
    if engine is not None:
        return engine
    recorded = built_hash(root)
    if recorded is not None and not pure_python_requested():
        engine = Engine.COMPILED if recorded == source_hash(root) else Engine.STALE
    else:
        engine = Engine.PURE
    if engine is not Engine.COMPILED:
        sys.meta_path.insert(0, PureSourceFinder(root))
    if engine is Engine.STALE:
        warnings.warn("the compiled engine is older than its sources (server/engine, or a "
                      "module compiled with it, changed since it was built): running the "
                      "pure-Python sources; rebuild it with `pip install -e .`", RuntimeWarning,
                      stacklevel=3)
    _chosen[root] = engine
    return engine


def is_compiled(module: ModuleType) -> bool:
    """True if `module` was loaded from a compiled extension, not from Python source."""
    return not (module.__file__ or "").endswith(".py")


def describe(root: Path = ROOT) -> str:
    """Which modules run and why, for people: `compiled (mypyc 1.2)`, `pure Python
    (DOMINION_PURE_PYTHON is set)`, ... (`dominion-server --version`)."""
    engine = choose(root)
    recorded = _stamp(root)
    if engine is Engine.COMPILED:
        return f"{engine.value} (mypyc {recorded.get('mypyc', 'of unknown version')})"
    if engine is Engine.STALE:
        why = "the compiled modules are older than their sources: `pip install .` again"
    elif pure_python_requested():
        why = f"{PURE_PYTHON_ENV} is set"
    else:
        why = recorded.get("pure", "not built: running from the sources")
    return f"{Engine.PURE.value} ({why})"
