"""`pip install . && dominion-server` as a new user runs it: a fresh virtual environment
outside the checkout, with the newest pip, builds the wheel from exactly the files the
Dockerfile copies, in pip's isolated build environment (the pinned build requirements
from PyPI), with no cache; the wheel's dependencies come from PyPI too, so an import of
anything undeclared fails. Its commands then run from there, on the compiled engine.

A warm machine hides drift: an unpinned build requirement once resolved to a mypy that
could not type-check the compiled modules, and pip's quiet output hid that the build had
fallen back to pure Python. The editable install `.ci/run` uses is built the same way
(test_editable_install.py).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from dominion.protocol.loader import PURE_PYTHON_ENV, STAMP
from tests.tiers import Tier, starts

from ..server.test_process import LISTENING
from .proxy import ROOT
from .user_build import (
    assert_says_compiled,
    clean_env,
    copy_sources,
    fresh_venv,
    needs_a_c_compiler,
    pip,
    run,
)

PACKAGES = {"server": "dominion/server", "protocol": "dominion/protocol",
            "bots": "dominion/bots", "clients": "dominion/clients"}
"""Repository folder -> where it lives in the wheel."""
pytestmark = [pytest.mark.integration, pytest.mark.timeout(900)]  # builds and installs wheels
COMPILED = re.compile(r"dominion/.*\.(so|pyd)$")


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of what the Dockerfile's build stage copies, to build wheels from."""
    return copy_sources(tmp_path_factory.mktemp("wheel") / "src")


def build_wheel(source: Path, dist: Path, **settings: str) -> subprocess.CompletedProcess[str]:
    """Build a wheel in this environment (no isolation: the pinned build tools of the dev
    extra), with these environment variables and without the pure-Python setting unless
    they have it; the build's result, its output verbose."""
    env = {key: value for key, value in os.environ.items() if key != PURE_PYTHON_ENV}
    return subprocess.run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps",
                           "--no-build-isolation", "--wheel-dir", str(dist), str(source)],
                          check=False, cwd=source.parent, capture_output=True, text=True,
                          env=env | settings)


@pytest.fixture(scope="module")
@starts(Tier.INTEGRATION)
def installed(source: Path) -> Iterator[tuple[Path, Path]]:
    """(the wheel, the fresh environment's bin folder): built and installed as a user
    does, the way `pip install .` does it (a wheel, then the wheel with its dependencies)."""
    needs_a_c_compiler()
    base = source.parent
    bin_dir = fresh_venv(base / "venv")
    pip(bin_dir, "wheel", "--no-deps", "--wheel-dir", str(base / "dist"), str(source), cwd=base)
    (wheel,) = (base / "dist").glob("dominion_server-*.whl")
    pip(bin_dir, "install", str(wheel), cwd=base)
    yield wheel, bin_dir


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


def test_the_wheel_runs_the_compiled_engine(installed: tuple[Path, Path],
                                            tmp_path: Path) -> None:
    wheel, bin_dir = installed
    compiled = " ".join(name for name in zipfile.ZipFile(wheel).namelist()
                        if COMPILED.search(name))
    for module in ("server/engine/game", "bots/strategies", "server/play/bots"):
        assert f"dominion/{module}.cpython" in compiled, compiled
    assert "__init__." not in compiled.replace("effects/__init__.", "")
    assert "loader." not in compiled
    check = ("import dominion.server.engine as e, dominion.server.engine.game as g, "
             "dominion.bots.strategies as s; "
             "print(e.COMPILED, e.ENGINE.value, s.__file__.endswith('.py'), g.__file__)")
    engine = run(bin_dir, "python", "-c", check, cwd=tmp_path)
    assert engine.returncode == 0, engine.stderr
    assert engine.stdout.startswith("True compiled False "), engine.stdout
    assert ".py\n" not in engine.stdout  # game.py was not imported from its source
    pure = subprocess.run([str(bin_dir / "python"), "-c", check], cwd=tmp_path,
                          env={**clean_env(), PURE_PYTHON_ENV: "1"}, capture_output=True,
                          text=True, timeout=120, check=False)
    assert pure.stdout.startswith("False pure Python ") and pure.stdout.endswith("game.py\n")
    assert_says_compiled(bin_dir, tmp_path)


def test_a_forced_pure_python_build_has_no_compiled_module(
        source: Path, installed: tuple[Path, Path]) -> None:
    # after the compiled build (`installed`): its outputs in build/ must not leak in
    build = build_wheel(source, source.parent / "pure", **{PURE_PYTHON_ENV: "1"})
    output = build.stdout + build.stderr
    assert build.returncode == 0, output
    why = f"{PURE_PYTHON_ENV} was set when it was built"
    assert f"engine left as pure Python: {why}" in output, output
    (wheel,) = (source.parent / "pure").glob("dominion_server-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "dominion/server/engine/game.py" in names
    assert [name for name in names if name.endswith((".so", ".pyd"))] == []
    stamp = zipfile.ZipFile(wheel).read(f"dominion/{STAMP.as_posix()}")
    assert json.loads(stamp) == {"pure": why}  # what --version says of it


def test_without_a_c_compiler_the_build_fails_and_says_what_to_do(source: Path) -> None:
    build = build_wheel(source, source.parent / "no-cc", CC="/no/such/cc")
    output = build.stdout + build.stderr
    assert build.returncode != 0
    assert "cannot compile the engine: no C compiler (/no/such/cc)" in output, output
    assert f"{PURE_PYTHON_ENV}=1" in output  # the other way out
    assert not list((source.parent / "no-cc").glob("*.whl"))


def test_the_installed_server_starts_and_answers(installed: tuple[Path, Path],
                                                  tmp_path: Path) -> None:
    _, bin_dir = installed
    server = subprocess.Popen([str(bin_dir / "dominion-server"), "--port", "0"],
                              cwd=tmp_path, env=clean_env(), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT)
    try:
        assert server.stdout is not None
        said = None
        heard = b""
        while said is None and (line := server.stdout.readline()):  # until it says where
            heard += line
            said = LISTENING.search(line)
        assert said is not None
        port = int(said[1])
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/server",
                                    timeout=10) as response:
            body = response.read()
        assert b'"protocol_versions"' in body
        assert (tmp_path / "dominion.sqlite3").exists()  # the default database, in the cwd
        check_page_and_a_script(f"http://127.0.0.1:{port}")  # the web client ships too
    finally:
        server.send_signal(signal.SIGINT)
        output = (heard + server.communicate(timeout=15)[0]).decode()
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
