"""A new user's install, built once (the engine's compile is the suite's costliest step):
the checks of what was installed run on one compiled build, and the builds that compile
nothing (a forced pure-Python one, one without a C compiler) build beside it.

On Debian 12 (CI) the build is the README's first command as written, `python3 -m venv
.venv && . .venv/bin/activate && pip install . && dominion-server`: Debian's own Python
(which refuses `pip install` outside a virtual environment) and its pip, in a copy of the
repository as a clone has it, until the server says where it listens and answers there.
Elsewhere, where that test skips, a fresh virtual environment outside the checkout with
the newest pip builds from exactly the files the Dockerfile copies
(tests/deploy/user_build.py). Either way the build is pip's isolated one, the pinned build
requirements and the dependencies from the package index, so an import of anything
undeclared fails; the installed commands then run from there, on the compiled engine.
On Debian the newest pip still builds it once, in isolation and pure Python, in
test_editable_install.py (pip's drift is what a warm machine hides).

A warm machine hides drift: an unpinned build requirement once resolved to a mypy that
could not type-check the compiled modules, and pip's quiet output hid that the build had
fallen back to pure Python. The editable install `.ci/run` uses is built the same way
(test_editable_install.py).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
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
DEBIAN_PYTHON = Path("/usr/bin/python3")
MANAGED = Path("/usr/lib/python3.11/EXTERNALLY-MANAGED")
"""Debian 12's mark on its Python: `pip install` outside a venv is refused."""
README_BOUND_S = 840
"""How long the README's command may take to listen: a bound for a stuck build."""


@dataclass(frozen=True)
class ReadmeRun:
    """The README's first command, run in a copy of the repository: what it printed, and
    the port it said it listens on (None: it never did)."""

    checkout: Path
    output: str
    port: int | None


def readme_first_command() -> str:
    blocks: list[str] = re.findall(r"```sh\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    (line,) = [line for block in blocks for line in block.splitlines()
               if line.endswith("&& dominion-server")]
    return line


def clone(checkout: Path) -> Path:
    """The repository's files, as a clone has them."""
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                           check=True).stdout.decode().split("\0")
    for name in filter(None, files):
        source, target = ROOT / name, checkout / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_symlink():
            target.symlink_to(os.readlink(source))
        else:
            target.write_bytes(source.read_bytes())
    return checkout


@pytest.fixture(scope="module")
@starts(Tier.SYSTEM)  # a build of its own and a server
def readme_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ReadmeRun]:
    """The README's first command on Debian's Python, its server listening until the
    module's tests are done."""
    if not MANAGED.exists():
        pytest.skip("not Debian 12's Python (apt-get install python3-venv python3-dev gcc "
                    "on Debian 12 runs this test)")
    checkout = clone(tmp_path_factory.mktemp("readme") / "dominion")
    # Debian's python3 first on the PATH, as on a fresh machine; no settings of ours
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("DOMINION_", "PYTHON", "PIP_", "VIRTUAL_ENV"))}
    env |= {"PATH": f"{DEBIAN_PYTHON.parent}:/bin", "DOMINION_PORT": "0"}  # where it says
    server = subprocess.Popen(["bash", "-c", readme_first_command()], cwd=checkout, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              start_new_session=True)
    try:
        output = b""
        deadline = time.monotonic() + README_BOUND_S
        assert server.stdout is not None
        while b"listening on" not in output and time.monotonic() < deadline:
            line = server.stdout.readline()
            if not line:
                break  # it ended
            output += line
        said = LISTENING.search(output)
        yield ReadmeRun(checkout, output.decode(errors="replace"),
                        None if said is None else int(said[1]))
    finally:
        os.killpg(server.pid, signal.SIGINT)
        server.wait(timeout=30)


def test_the_readmes_first_command_works_as_written_on_debians_python(
        readme_run: ReadmeRun) -> None:
    assert readme_run.port is not None, readme_run.output[-3000:]
    with urllib.request.urlopen(f"http://127.0.0.1:{readme_run.port}/api/v1/server",
                                timeout=10) as answer:
        assert "protocol_versions" in json.load(answer)
    listening = json.loads(next(line for line in readme_run.output.splitlines()
                                if "listening on" in line))
    assert listening["engine"].startswith("compiled (mypyc "), listening
    assert (readme_run.checkout / "dominion.sqlite3").exists()  # its default file


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


@dataclass(frozen=True)
class Install:
    """A user's compiled install: its environment's bin folder, the files the install put
    there (its RECORD: every file of the wheel) and the folder the build ran in."""

    bin_dir: Path
    files: frozenset[str]
    built_in: Path


@pytest.fixture(scope="module")
@starts(Tier.SYSTEM)  # the engine's compile
def installed(request: pytest.FixtureRequest, source: Path) -> Install:
    """The README's install where its test runs (one compile for both), else a fresh
    environment's `pip install` of the Dockerfile's files with the newest pip."""
    needs_a_c_compiler()
    if MANAGED.exists():
        done: ReadmeRun = request.getfixturevalue("readme_run")
        assert done.port is not None, done.output[-3000:]
        bin_dir, built_in = done.checkout / ".venv" / "bin", done.checkout
    else:
        bin_dir, built_in = fresh_venv(source.parent / "venv"), source
        pip(bin_dir, "install", str(source), cwd=source.parent)
    listed = run(bin_dir, "python", "-c", "from importlib.metadata import files; "
                 "print('\\n'.join(str(path) for path in files('dominion-server')))",
                 cwd=source.parent)
    assert listed.returncode == 0, listed.stderr
    return Install(bin_dir, frozenset(listed.stdout.split()), built_in)


def shipped(folder: str, pattern: str) -> set[str]:
    """Where the checkout's files under `folder` matching `pattern` belong in the wheel."""
    inside = PACKAGES[folder.split("/", maxsplit=1)[0]]
    return {f"{inside}/{path.relative_to(ROOT / folder.split('/', maxsplit=1)[0]).as_posix()}"
            for path in (ROOT / folder).rglob(pattern) if "__pycache__" not in path.parts}


def test_the_wheel_holds_every_module_and_data_file_of_the_checkout(
        installed: Install) -> None:
    names = installed.files
    expected = set().union(*(shipped(folder, "*.py") for folder in PACKAGES))
    expected |= {"dominion/protocol/schema.json"} | shipped("clients/locale", "*.mo")
    # every file of the web client, whatever folder a new one lands in
    expected |= shipped("clients/web", "*.*")
    assert expected - names == set()


def test_the_installed_commands_run_outside_the_checkout(
        installed: Install, tmp_path: Path) -> None:
    bin_dir = installed.bin_dir
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


def test_the_wheel_runs_the_compiled_engine(installed: Install, tmp_path: Path) -> None:
    bin_dir = installed.bin_dir
    compiled = " ".join(name for name in sorted(installed.files) if COMPILED.search(name))
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
        source: Path, installed: Install) -> None:
    # beside the compiled build's outputs in build/ (`installed`'s): they must not leak in
    if installed.built_in != source:
        shutil.copytree(installed.built_in / "build", source / "build", dirs_exist_ok=True)
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


def test_the_installed_server_starts_and_answers(installed: Install, tmp_path: Path) -> None:
    bin_dir = installed.bin_dir
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
