"""Compiled or pure Python: which engine modules run (docs/ENGINE.md, "Compiled engine").

`pip install` compiles the engine's modules with mypyc where it can; the compiled
modules sit beside their `.py` sources, and Python's import system prefers them. This
module (never compiled itself, like the package's `__init__.py`) makes sure they are
used only when they were built from exactly the sources beside them: the build records
a hash of those sources in `STAMP`; if it does not match (a source edited since the
build), or `PURE_PYTHON_ENV` is set, a finder loads every engine module from its `.py`.
setup.py imports this file by path, so the build and the check share one definition.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from enum import StrEnum
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

PURE_PYTHON_ENV = "DOMINION_PURE_PYTHON"
"""Set to 1 (at install time: build nothing; at run time: load the `.py` sources)."""
STAMP = "compiled.json"
"""Written by the build beside the compiled modules: {"sources": hash}."""
UNCOMPILED = frozenset({"__init__.py", "loader.py"})
"""The package's own files that always run as Python: they choose for the others."""
PACKAGE = "dominion.server.engine"


class Engine(StrEnum):
    """Which engine runs, and why."""

    COMPILED = "compiled"
    PURE = "pure Python"
    """No compiled modules (none were built, or the pure-Python setting is on)."""
    STALE = "pure Python (compiled modules are stale)"
    """Compiled modules exist, but the sources beside them changed since the build."""


def pure_python_requested() -> bool:
    return os.environ.get(PURE_PYTHON_ENV, "") not in ("", "0")


def compiled_sources(folder: Path) -> list[Path]:
    """The engine modules that the build compiles, in a stable order."""
    return sorted(path for path in folder.rglob("*.py")
                  if "__pycache__" not in path.parts
                  and not (path.parent == folder and path.name in UNCOMPILED))


def source_hash(folder: Path) -> str:
    """A hash of the compiled modules' sources (names and contents)."""
    digest = hashlib.sha256()
    for path in compiled_sources(folder):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def write_stamp(folder: Path, sources: Path) -> None:
    """Record, in `folder` (where the compiled modules went), the hash of `sources`."""
    (folder / STAMP).write_text(json.dumps({"sources": source_hash(sources)}) + "\n")


def built_hash(folder: Path) -> str | None:
    try:
        recorded = json.loads((folder / STAMP).read_text())
    except (OSError, ValueError):
        return None
    return recorded.get("sources") if isinstance(recorded, dict) else None


class PureSourceFinder:
    """Finds `dominion.server.engine.*` as the `.py` files in the engine's folder, ahead
    of the compiled extension modules that the normal path finder would prefer."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if not fullname.startswith(PACKAGE + "."):
            return None
        where = self.folder.joinpath(*fullname[len(PACKAGE) + 1:].split("."))
        if (where / "__init__.py").is_file():
            return importlib.util.spec_from_file_location(
                fullname, where / "__init__.py", submodule_search_locations=[str(where)])
        if where.with_suffix(".py").is_file():
            return importlib.util.spec_from_file_location(fullname, where.with_suffix(".py"))
        return None


def choose(folder: Path) -> Engine:
    """Decide before any engine module is imported; install the finder unless the compiled
    modules are current."""
    recorded = built_hash(folder)
    if recorded is not None and not pure_python_requested():
        if recorded == source_hash(folder):
            return Engine.COMPILED
        engine = Engine.STALE
    else:
        engine = Engine.PURE
    if not any(isinstance(finder, PureSourceFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, PureSourceFinder(folder))
    return engine


def is_compiled(module: ModuleType) -> bool:
    """True if `module` was loaded from a compiled extension, not from Python source."""
    return not (module.__file__ or "").endswith(".py")
