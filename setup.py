"""The installed packages, and the rules engine compiled with mypyc where that can be done.

Packages: every package folder below `server/`, `protocol/` and `clients/`. The top-level
folders show the architecture; installed, they live under one distinctive import name
(`dominion.server`, `dominion.protocol`, `dominion.clients`). Listing the packages by
hand once lost `dominion.server.storage` (the server crashed on start after `pip install
.`), so they are found here, and a new subpackage cannot be forgotten.

The engine (`server/engine`, docs/ENGINE.md "Compiled engine") and the in-process bots
(protocol/loader.py says which modules): the build compiles them with mypyc when mypyc
and a C compiler are there and DOMINION_PURE_PYTHON is not set, and leaves pure Python
otherwise, saying which in one line of the build output. It compiles only when the build
runs (not for every metadata query pip makes).
Everything else is in pyproject.toml.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
import sysconfig
from pathlib import Path
from types import ModuleType

from setuptools import Distribution, Extension, find_packages, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, CompileError, ExecError, LinkError, PlatformError

ROOTS = {"dominion.server": "server", "dominion.protocol": "protocol",
         "dominion.clients": "clients"}
"""Installed name -> folder in the repository."""
HERE = Path(__file__).resolve().parent
GROUP = "dominion.server.engine.native"
"""mypyc's shared library for the compiled modules, `native__mypyc`, lives in the engine's
folder (found wherever the package is, also from a checkout on PYTHONPATH)."""
BUILD_ERRORS = (CCompilerError, CompileError, ExecError, LinkError, PlatformError)


def engine_loader() -> ModuleType:
    """protocol/loader.py, by path: it defines what is compiled and the source hash."""
    spec = importlib.util.spec_from_file_location("dominion_loader",
                                                  HERE / "protocol" / "loader.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


loader = engine_loader()


def say(message: str) -> None:
    print(f"dominion-server build: {message}", file=sys.stderr, flush=True)


def engine_extensions() -> tuple[list[Extension], str]:
    """The compiled engine's extension modules, or none and why."""
    if loader.pure_python_requested():
        return [], f"{loader.PURE_PYTHON_ENV} is set"
    try:
        from mypyc.build import mypycify
    except ImportError:
        return [], "mypyc (part of mypy) is not installed"
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return [], f"no C compiler ({compiler})"
    # mypyc names a module after its path: give it the installed names' folder layout
    names = HERE / "build" / "mypyc-names" / loader.ROOT_PACKAGE
    try:
        names.mkdir(parents=True, exist_ok=True)
        for folder in ROOTS.values():
            (names / folder).unlink(missing_ok=True)  # it may point to an old checkout
            (names / folder).symlink_to(HERE / folder, target_is_directory=True)
    except OSError as error:
        return [], f"cannot link the sources for mypyc ({error})"
    sources = [str(names / path) for path in loader.compiled_sources(HERE)]
    os.environ["MYPYPATH"] = str(names.parent)
    try:
        # only some modules are compiled: the config's other sections are unused here
        extensions = mypycify(["--explicit-package-bases", "--no-warn-unused-configs",
                               *sources], opt_level="3", group_name=GROUP,
                              target_dir=str(HERE / "build" / "mypyc"))
    except SystemExit as error:  # how mypy reports type errors, printed above
        return [], f"mypyc found errors (exit status {error.code})"
    except Exception as error:
        return [], f"mypyc failed ({error})"
    return extensions, f"{len(sources)} modules"


def remove_compiled(root: Path) -> None:
    """Remove compiled modules, their shared library and their stamp from an earlier build."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    library = (root / loader.ENGINE_FOLDER).glob(f"{GROUP.rpartition('.')[2]}__mypyc*{suffix}")
    for path in [*(root / source.with_suffix(suffix) for source in loader.compiled_sources(root)),
                 *library, root / loader.STAMP]:
        path.unlink(missing_ok=True)


class BuildEngine(build_ext):
    """Compiles the engine and the bots, or leaves them pure Python, and says which."""

    detail = ""

    def finalize_options(self) -> None:
        self.distribution.ext_modules, self.detail = engine_extensions()
        super().finalize_options()

    def run(self) -> None:
        places = [Path(self.build_lib, loader.ROOT_PACKAGE)]  # where build_py put the sources
        if self.inplace:
            places.append(HERE)
        compiled = bool(self.extensions)
        if compiled:
            try:
                super().run()
            except BUILD_ERRORS as error:
                self.detail, compiled = f"the C build failed ({error})", False
        for root in places:
            if compiled:
                loader.write_stamp(root, HERE)
            else:
                remove_compiled(root)
        say(f"engine compiled with mypyc ({self.detail})" if compiled
            else f"engine left as pure Python: {self.detail}")


class EngineDistribution(Distribution):
    def has_ext_modules(self) -> bool:
        return True  # the engine's are only known once build_ext runs


setup(
    package_dir=ROOTS,
    packages=[f"{name}.{sub}" if sub else name
              for name, folder in ROOTS.items()
              for sub in ["", *find_packages(folder)]],
    cmdclass={"build_ext": BuildEngine},
    distclass=EngineDistribution,
)
