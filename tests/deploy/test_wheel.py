"""`pip install . && dominion-server` as a new user runs it: the wheel, built from exactly
the files the Dockerfile copies, installed into a fresh virtual environment outside the
checkout, and its three commands run from there.

The editable install that the other tests use hides a package the wheel leaves out (it
once left out `dominion.server.storage`, and the installed server crashed on start). To
stay fast and offline, the fresh environment gets the wheel's declared dependencies (and
theirs) from this environment, linked one by one: an import of anything undeclared fails.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import sysconfig
import time
import urllib.request
import zipfile
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from dominion.protocol.loader import PURE_PYTHON_ENV

from ..server.test_process import free_port
from .proxy import ROOT
from .test_files import DOCKERFILE, instructions

PACKAGES = {"server": "dominion/server", "protocol": "dominion/protocol",
            "clients": "dominion/clients"}
"""Repository folder -> where it lives in the wheel."""


def build_sources() -> list[str]:
    """What the Dockerfile's build stage copies from the repository."""
    sources: list[str] = []
    for word, args in instructions(DOCKERFILE.read_text()):
        if word == "FROM" and sources:
            break  # the run stage copies only the built wheel
        if word == "COPY" and not args.startswith("--from"):
            sources += args.split()[:-1]
    return sources


def dependency_closure(requirements: list[str]) -> list[metadata.Distribution]:
    """The installed distributions that `requirements` need, recursively (no extras)."""
    found: dict[str, metadata.Distribution] = {}
    todo = [Requirement(text) for text in requirements]
    while todo:
        requirement = todo.pop()
        if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
            continue
        name = canonicalize_name(requirement.name)
        if name in found:
            continue
        dist = found[name] = metadata.distribution(requirement.name)
        todo += [Requirement(text) for text in dist.requires or []]
    return list(found.values())


def link_distributions(dists: list[metadata.Distribution], target: Path) -> None:
    """Symlink each distribution's top-level files and folders (and its metadata) into
    `target`, so that only these can be imported from there."""
    target.mkdir()
    for dist in dists:
        for file in dist.files or []:
            top = file.parts[0]
            if top in ("..", "__pycache__") or (target / top).exists():
                continue
            source = Path(str(dist.locate_file(top)))
            if source.exists():
                (target / top).symlink_to(source)


pytestmark = pytest.mark.timeout(600)  # the first test waits for the engine's compilation
HAS_C_COMPILER = shutil.which((sysconfig.get_config_var("CC") or "cc").split()[0]) is not None
COMPILED = re.compile(r"dominion/.*\.(so|pyd)$")


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of what the Dockerfile's build stage copies, to build wheels from."""
    source = tmp_path_factory.mktemp("wheel") / "src"
    source.mkdir()
    for name in build_sources():
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(path, source / name)
    return source


def build_wheel(source: Path, dist: Path, **settings: str) -> tuple[Path, str]:
    """(the wheel, the build's output), built with these environment variables (and
    without the pure-Python setting unless they have it)."""
    env = {key: value for key, value in os.environ.items() if key != PURE_PYTHON_ENV}
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps",
                            "--no-build-isolation", "--wheel-dir", str(dist), str(source)],
                           check=False, cwd=source.parent, capture_output=True, text=True,
                           env=env | settings)
    assert build.returncode == 0, build.stdout + build.stderr
    (wheel,) = dist.glob("dominion_server-*.whl")
    return wheel, build.stdout + build.stderr


@pytest.fixture(scope="module")
def installed(source: Path) -> Iterator[tuple[Path, Path]]:
    """(the wheel, the fresh environment's bin folder)."""
    base = source.parent
    wheel, output = build_wheel(source, base / "dist")
    if HAS_C_COMPILER:  # and mypyc, installed with mypy by .[dev]
        assert "dominion-server build: engine compiled with mypyc" in output, output
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install",
                    "--quiet", "--no-deps", "--no-index", str(wheel)], check=True, cwd=base)
    requires = metadata.distribution("dominion-server").requires or []
    deps = base / "deps"
    link_distributions(dependency_closure(requires), deps)
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True).stdout.strip()
    (Path(purelib) / "dependencies.pth").write_text(f"{deps}\n")
    yield wheel, venv / "bin"


def shipped(folder: str, pattern: str) -> set[str]:
    """Where the checkout's files under `folder` matching `pattern` belong in the wheel."""
    inside = PACKAGES[folder.split("/", maxsplit=1)[0]]
    return {f"{inside}/{path.relative_to(ROOT / folder.split('/', maxsplit=1)[0]).as_posix()}"
            for path in (ROOT / folder).rglob(pattern) if "__pycache__" not in path.parts}


def test_the_wheel_holds_every_module_and_data_file_of_the_checkout(
        installed: tuple[Path, Path]) -> None:
    wheel, _ = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = set().union(*(shipped(folder, "*.py") for folder in PACKAGES))
    expected |= {"dominion/protocol/schema.json"} | shipped("clients/locale", "*.mo")
    # every file of the web client, whatever folder a new one lands in
    expected |= shipped("clients/web", "*.*")
    assert expected - names == set()


def clean_env() -> dict[str, str]:
    """A new user's environment: no settings of ours, no Python path into the checkout."""
    return {key: value for key, value in os.environ.items()
            if not key.startswith(("DOMINION_", "PYTHON"))}


def run(bin_dir: Path, *command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(bin_dir / command[0]), *command[1:]], cwd=cwd, env=clean_env(),
                          capture_output=True, text=True, timeout=120, check=False)


def test_the_installed_commands_run_outside_the_checkout(
        installed: tuple[Path, Path], tmp_path: Path) -> None:
    _, bin_dir = installed
    where = run(bin_dir, "python", "-c", "import dominion.server.storage as s; print(s.__file__)",
                cwd=tmp_path)
    assert where.returncode == 0, where.stderr
    assert str(bin_dir.parent) in where.stdout  # the wheel's copy, not the checkout
    assert str(ROOT) not in where.stdout
    client = run(bin_dir, "dominion", "--help", cwd=tmp_path)
    assert client.returncode == 0 and "replay" in client.stdout, client.stderr
    sim = run(bin_dir, "dominion-sim", "--games", "5", "--json", cwd=tmp_path)
    assert sim.returncode == 0, sim.stderr
    assert '"games": 5' in sim.stdout


@pytest.mark.skipif(not HAS_C_COMPILER,
                    reason="no C compiler (apt-get install gcc): the engine is not compiled")
def test_the_wheel_runs_the_compiled_engine(installed: tuple[Path, Path],
                                            tmp_path: Path) -> None:
    wheel, bin_dir = installed
    compiled = " ".join(name for name in zipfile.ZipFile(wheel).namelist()
                        if COMPILED.search(name))
    for module in ("server/engine/game", "clients/bots/strategies", "server/play/bots"):
        assert f"dominion/{module}.cpython" in compiled, compiled
    assert "__init__." not in compiled.replace("effects/__init__.", "")
    assert "loader." not in compiled
    check = ("import dominion.server.engine as e, dominion.server.engine.game as g, "
             "dominion.clients.bots.strategies as s; "
             "print(e.COMPILED, e.ENGINE.value, s.__file__.endswith('.py'), g.__file__)")
    engine = run(bin_dir, "python", "-c", check, cwd=tmp_path)
    assert engine.returncode == 0, engine.stderr
    assert engine.stdout.startswith("True compiled False "), engine.stdout
    assert ".py\n" not in engine.stdout  # game.py was not imported from its source
    pure = subprocess.run([str(bin_dir / "python"), "-c", check], cwd=tmp_path,
                          env={**clean_env(), PURE_PYTHON_ENV: "1"}, capture_output=True,
                          text=True, timeout=120, check=False)
    assert pure.stdout.startswith("False pure Python ") and pure.stdout.endswith("game.py\n")


def test_a_forced_pure_python_build_has_no_compiled_module(
        source: Path, installed: tuple[Path, Path]) -> None:
    # after the compiled build (`installed`): its outputs in build/ must not leak in
    wheel, output = build_wheel(source, source.parent / "pure", **{PURE_PYTHON_ENV: "1"})
    assert f"engine left as pure Python: {PURE_PYTHON_ENV} is set" in output, output
    assert_pure(wheel)


def test_without_a_c_compiler_the_build_falls_back_to_pure_python(
        source: Path, installed: tuple[Path, Path]) -> None:
    wheel, output = build_wheel(source, source.parent / "no-cc", CC="/no/such/cc")
    assert "engine left as pure Python: no C compiler (/no/such/cc)" in output, output
    assert_pure(wheel)


def assert_pure(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert "dominion/server/engine/game.py" in names
    assert [name for name in names if name.endswith((".so", ".pyd", "compiled.json"))] == []


def test_the_installed_server_starts_and_answers(installed: tuple[Path, Path],
                                                  tmp_path: Path) -> None:
    _, bin_dir = installed
    port = free_port()
    server = subprocess.Popen([str(bin_dir / "dominion-server"), "--port", str(port)],
                              cwd=tmp_path, env=clean_env(), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        body = b""
        while time.monotonic() < deadline and server.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/server",
                                            timeout=2) as response:
                    body = response.read()
                    break
            except OSError:
                time.sleep(0.1)
        assert b'"protocol_versions"' in body
        assert (tmp_path / "dominion.sqlite3").exists()  # the default database, in the cwd
        check_page_and_a_script(f"http://127.0.0.1:{port}")  # the web client ships too
    finally:
        server.send_signal(signal.SIGINT)
        output = server.communicate(timeout=15)[0].decode()
    assert server.returncode == 0, output
    assert f"http://127.0.0.1:{port}" in output  # it says where it listens



def check_page_and_a_script(url: str) -> None:
    """What a browser fetches first from a server: the page, then a script it names."""
    with urllib.request.urlopen(f"{url}/") as page:
        html = page.read().decode()
        assert page.headers["Content-Type"].startswith("text/html")
        assert "script-src 'self'" in page.headers["Content-Security-Policy"]
        assert page.headers["Cache-Control"] == "no-cache"
    script = re.search(r'<script type="module" src="([^"]+)"', html)
    assert script, html
    with urllib.request.urlopen(f"{url}{script.group(1)}") as main:
        assert main.headers["Content-Type"].startswith("text/javascript")
        assert "immutable" in main.headers["Cache-Control"]
        assert b"import" in main.read()
