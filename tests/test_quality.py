"""ruff and mypy are part of the test suite, so the README's one test command checks them."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration  # ruff, mypy and biome

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("dominion.server", "dominion.protocol", "dominion.bots", "dominion.clients")


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)


@pytest.mark.skipif(shutil.which("ruff") is None,
                    reason="ruff is not installed (pip install -e '.[dev]')")
def test_ruff_is_clean() -> None:
    result = run("ruff", "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.skipif(shutil.which("biome") is None, reason="biome is installed with .[dev]")
def test_the_web_clients_javascript_is_lint_clean() -> None:
    """Biome's recommended rules (biome.json), warnings included."""
    result = run("biome", "lint", "--error-on-warnings", ".")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("what", [
    [arg for package in PACKAGES for arg in ("-p", package)],
    ["bench", "tools"],  # scripts, not packages: mypy takes them as files
], ids=["packages", "scripts"])
def test_mypy_is_clean(what: list[str]) -> None:
    result = run(sys.executable, "-m", "mypy", *what)
    assert result.returncode == 0, result.stdout + result.stderr
