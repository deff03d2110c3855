"""The installed packages, and the rules engine compiled with mypyc.

Packages: every package folder below `server/`, `protocol/`, `bots/` and `clients/`. The
top-level folders show the architecture; installed, they live under one distinctive import
name (`dominion.server`, `dominion.protocol`, `dominion.bots`, `dominion.clients`). Listing
the packages by hand once lost `dominion.server.storage` (the server crashed on start
after `pip install .`), so they are found here, and a new subpackage cannot be forgotten.

The engine (`server/engine`, docs/ENGINE.md "Compiled engine") and the in-process bots
(protocol/loader.py says which modules) are compiled with mypyc, which the build
requirements pin. A build that cannot compile them fails and says why and what to do,
unless DOMINION_PURE_PYTHON is set, which installs them as pure Python on purpose: pip
shows a build's output only when it fails, and a silent fall-back to an engine half as
fast went unnoticed. Either way the build records what it did (`dominion-server
--version` prints it). It compiles only when a build runs, not for pip's metadata queries.
Everything else is in pyproject.toml.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
import sysconfig
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import ModuleType
from typing import Any

from setuptools import Distribution, Extension, find_namespace_packages, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, CompileError, ExecError, LinkError, PlatformError

ROOTS = {"dominion.server": "server", "dominion.protocol": "protocol",
         "dominion.bots": "bots", "dominion.clients": "clients"}
"""Installed name -> folder in the repository."""
HERE = Path(__file__).resolve().parent
GROUP = "dominion.server.engine.native"
"""mypyc's shared library for the compiled modules, `native__mypyc`, lives in the engine's
folder (found wherever the package is, also from a checkout on PYTHONPATH)."""
BUILD_ERRORS = (CCompilerError, CompileError, ExecError, LinkError, PlatformError)
BUILDING = {"build", "build_ext", "bdist_wheel", "bdist_egg", "editable_wheel", "install",
            "develop"}
"""The commands that build the extensions (pip's egg_info and dist_info only ask for
metadata, yet finalize build_ext too)."""


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


class NotCompiled(Exception):
    """Why the engine cannot be compiled here."""


def cannot_compile(why: str) -> SystemExit:
    """The build's failure, with what a person can do about it."""
    return SystemExit(
        f"dominion-server build: cannot compile the engine: {why}.\n"
        "Install a C compiler and Python's headers (Debian, Ubuntu: apt-get install gcc "
        "python3-dev) and install again, or install the pure-Python engine, which plays "
        f"about half as fast, with {loader.PURE_PYTHON_ENV}=1 set (docs/ENGINE.md, "
        '"Compiled engine").')


def mypyc_version() -> str:
    from mypy.version import __version__

    return __version__


def engine_extensions() -> list[Extension]:
    """The compiled engine's extension modules; NotCompiled says why there are none."""
    try:
        from mypyc.build import mypycify
    except ImportError:
        raise NotCompiled("mypyc (part of mypy) is not installed") from None
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        raise NotCompiled(f"no C compiler ({compiler})")
    headers = Path(sysconfig.get_paths()["include"], "Python.h")
    if not headers.exists():
        raise NotCompiled(f"no Python headers ({headers})")
    # mypyc names a module after its path: give it the installed names' folder layout
    names = HERE / "build" / "mypyc-names" / loader.ROOT_PACKAGE
    try:
        names.mkdir(parents=True, exist_ok=True)
        for folder in ROOTS.values():
            (names / folder).unlink(missing_ok=True)  # it may point to an old checkout
            (names / folder).symlink_to(HERE / folder, target_is_directory=True)
    except OSError as error:
        raise NotCompiled(f"cannot link the sources for mypyc ({error})") from None
    sources = [str(names / path) for path in loader.compiled_sources(HERE)]
    os.environ["MYPYPATH"] = str(names.parent)
    target = HERE / "build" / "mypyc"
    try:
        # only some modules are compiled: the config's other sections are unused here
        extensions = mypycify(["--explicit-package-bases", "--no-warn-unused-configs",
                               *sources], opt_level="3", group_name=GROUP, multi_file=True,
                              target_dir=str(target))
    except SystemExit as error:  # how mypy reports type errors, printed above
        raise NotCompiled(f"mypyc {mypyc_version()} found errors (exit status "
                          f"{error.code}), printed above") from None
    except Exception as error:
        raise NotCompiled(f"mypyc {mypyc_version()} failed ({error})") from None
    # a module's C file (`multi_file`, compiled in parallel) includes the group's header,
    # which mypyc writes into the group's own folder
    for extension in extensions:
        extension.include_dirs.append(str(target.joinpath(*GROUP.split(".")[:-1])))
    return extensions


def remove_compiled(root: Path) -> None:
    """Remove compiled modules, their shared library and their stamp from an earlier build."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    library = (root / loader.ENGINE_FOLDER).glob(f"{GROUP.rpartition('.')[2]}__mypyc*{suffix}")
    for path in [*(root / source.with_suffix(suffix) for source in loader.compiled_sources(root)),
                 *library, root / loader.STAMP]:
        path.unlink(missing_ok=True)


class BuildEngine(build_ext):
    """Compiles the engine and the bots, or leaves them pure Python when asked to, and
    records which."""

    pure = ""
    """Why the modules stay pure Python (empty: they are compiled)."""

    def finalize_options(self) -> None:
        if loader.pure_python_requested():
            self.pure = f"{loader.PURE_PYTHON_ENV} was set when it was built"
        elif BUILDING & set(self.distribution.commands):
            try:
                self.distribution.ext_modules = engine_extensions()
            except NotCompiled as error:
                raise cannot_compile(str(error)) from None
        super().finalize_options()

    def build_extensions(self) -> None:
        self.compiler.compile = compile_in_parallel(self.compiler.compile, os.cpu_count() or 1)
        super().build_extensions()

    def run(self) -> None:
        places = [Path(self.build_lib, loader.ROOT_PACKAGE)]  # where build_py put the sources
        if self.inplace:
            places.append(HERE)
        if not self.pure:
            if not self.extensions:  # finalize_options saw no building command
                raise cannot_compile(f"no build among {self.distribution.commands}")
            try:
                super().run()
            except BUILD_ERRORS as error:
                raise cannot_compile(f"the C build failed ({error})") from None
        for root in places:
            if not (root / loader.ENGINE_FOLDER).is_dir():
                continue  # an editable build's folder that holds no sources: nothing to say
            if self.pure:
                remove_compiled(root)  # an earlier build's: a pure build has none
                loader.write_pure_stamp(root, self.pure)
            else:
                loader.write_stamp(root, HERE, mypyc_version())
        say(f"engine left as pure Python: {self.pure}" if self.pure
            else f"engine compiled with mypyc {mypyc_version()} ({len(self.extensions)} "
                 "extension modules)")


def compile_in_parallel(compile_sources: Any, jobs: int) -> Any:
    """The compiler's `compile`, each source in a thread of its own, `jobs` at a time: mypyc
    writes a C file a module (`multi_file`), and setuptools compiles an extension's files
    one after another (its `--parallel` only builds several extensions at once)."""
    def compile_all(sources: list[str], *args: Any, **kwargs: Any) -> list[str]:
        with ThreadPoolExecutor(jobs) as pool:
            done = pool.map(lambda source: compile_sources([source], *args, **kwargs), sources)
            return [path for objects in done for path in objects]
    return compile_all


class EngineDistribution(Distribution):
    def has_ext_modules(self) -> bool:
        return True  # the engine's are only known once build_ext runs


setup(
    package_dir=ROOTS,
    packages=[f"{name}.{sub}" if sub else name
              for name, folder in ROOTS.items()
              for sub in ["", *find_namespace_packages(folder, exclude=["*__pycache__*"])]],
    cmdclass={"build_ext": BuildEngine},
    distclass=EngineDistribution,
)
