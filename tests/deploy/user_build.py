"""Installing as a new user does, for tests/deploy/test_wheel.py and
test_editable_install.py: a fresh virtual environment outside the checkout with the
newest pip, no cache, no settings of ours, from exactly the files the Dockerfile copies."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from dominion.protocol.loader import STAMP

from .proxy import ROOT
from .test_files import DOCKERFILE, instructions

BUILD_MYPY = re.search(r'"mypy==([^"]+)"', (ROOT / "pyproject.toml").read_text())


def build_sources() -> list[str]:
    """What the Dockerfile's build stage copies from the repository."""
    sources: list[str] = []
    for word, args in instructions(DOCKERFILE.read_text()):
        if word == "FROM" and sources:
            break  # the run stage copies only the built wheel
        if word == "COPY" and not args.startswith("--from"):
            sources += args.split()[:-1]
    return sources


def copy_sources(target: Path) -> Path:
    target.mkdir(parents=True)
    for name in build_sources():
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, target / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.so",
                                                          STAMP.name))
        else:
            shutil.copy2(path, target / name)
    return target


def clean_env() -> dict[str, str]:
    """A new user's environment: no settings of ours, no Python path into the checkout,
    no pip configuration but the machine's."""
    return {key: value for key, value in os.environ.items()
            if not key.startswith(("DOMINION_", "PYTHON", "PIP_"))}


def fresh_venv(where: Path) -> Path:
    """A new virtual environment with the newest pip; its bin folder. The newest pip is
    installed into it by this environment's pip (`--python`): the one `venv` bundles,
    replaced at once, cost twice as much as the newest's install."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True,
                   env=clean_env())
    run_pip([sys.executable, "-m", "pip", "--python", str(where / "bin" / "python")],
            "install", "pip", cwd=where.parent)
    return where / "bin"


def pip(bin_dir: Path, *args: str, cwd: Path, **settings: str) -> str:
    """Run the environment's pip as a user does (quiet, no cache), with these environment
    variables; its output."""
    return run_pip([str(bin_dir / "pip")], *args, cwd=cwd, **settings)


def run_pip(command: list[str], *args: str, cwd: Path, **settings: str) -> str:
    """Run this pip command with no cache, in a user's environment and these variables;
    its output."""
    done = subprocess.run([*command, "--no-cache-dir", *args], cwd=cwd,
                          env=clean_env() | settings, capture_output=True, text=True,
                          timeout=900, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout + done.stderr


HAS_C_COMPILER = shutil.which((sysconfig.get_config_var("CC") or "cc").split()[0]) is not None


def needs_a_c_compiler() -> None:
    if not HAS_C_COMPILER:
        pytest.skip("no C compiler (apt-get install gcc python3-dev): the install refuses "
                    "to build without one, unless told to build pure Python")


def run(bin_dir: Path, *command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(bin_dir / command[0]), *command[1:]], cwd=cwd, env=clean_env(),
                          capture_output=True, text=True, timeout=120, check=False)


def assert_says_compiled(bin_dir: Path, cwd: Path) -> None:
    """`dominion-server --version` names the version and the compiled engine."""
    assert BUILD_MYPY is not None
    said = run(bin_dir, "dominion-server", "--version", cwd=cwd)
    assert said.returncode == 0, said.stderr
    version = run(bin_dir, "python", "-c", "from importlib.metadata import version; "
                  "print(version('dominion-server'))", cwd=cwd).stdout.strip()
    assert said.stdout.splitlines()[:2] == [
        f"dominion-server {version}", f"engine: compiled (mypyc {BUILD_MYPY.group(1)})"]
