"""tools/mutate.py finds the test that is missing, and leaves the module as it was."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from dominion.server import engine

pytestmark = pytest.mark.system  # mutants, each against its tests

TOOL = Path(__file__).resolve().parent.parent.parent / "tools" / "mutate.py"
MODULE = '''def sign(number):
    if number > 0:
        return 1
    return -1
'''
QUICK_PYTEST = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
"""The tool's environment: it passes it on to each mutant's pytest run, which the tiny
tests need no plugin for (loading the suite's plugins was most of each run's time)."""
# the boundary is never tried, so `number >= 0` and `number > 1` pass these tests
TESTS = '''from tiny import sign


def test_sign():
    assert sign(5) == 1
    assert sign(-5) == -1
'''


def mutate_tiny(tmp_path: Path, tests: str) -> str:
    """tools/mutate.py's output for `MODULE` and these tests."""
    (tmp_path / "tiny.py").write_text(MODULE)
    (tmp_path / "test_tiny.py").write_text(tests)
    for command in (["init", "-q"], ["add", "."],
                    ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "tiny"]):
        subprocess.run(["git", *command], cwd=tmp_path, check=True)
    run = subprocess.run([sys.executable, str(TOOL), "--root", str(tmp_path), "tiny.py",
                          "test_tiny.py"], capture_output=True, text=True, check=True,
                         env=QUICK_PYTEST)
    return run.stdout


def test_a_missing_test_shows_as_a_survivor(tmp_path: Path) -> None:
    stdout = mutate_tiny(tmp_path, TESTS)
    assert "5 mutants of tiny.py" in stdout
    assert stdout.endswith("2 survived:\n  line 2 (compare): if number > 0:\n"
                               "  line 2 (constant): if number > 0:\n")
    assert stdout.count(" killed ") == 3
    assert (tmp_path / "tiny.py").read_text() == MODULE


@pytest.mark.skipif(not engine.COMPILED,
                    reason="the engine runs as pure Python here: its mutants run anyway")
def test_the_mutants_run_on_the_pure_python_engine(tmp_path: Path) -> None:
    # compiled, an engine module's mutant would not run: the tests get the .py sources
    tests = TESTS.replace("def test_sign():\n", "def test_sign():\n"
                          "    assert not engine.COMPILED\n")
    tests = "from dominion.server import engine\n" + tests
    assert mutate_tiny(tmp_path, tests).count(" SURVIVED ") == 2


def test_a_module_with_uncommitted_changes_is_refused(tmp_path: Path) -> None:
    (tmp_path / "tiny.py").write_text(MODULE)
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run(["git", "add", "."], cwd=tmp_path, check=True)
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "t"],
                   cwd=tmp_path, check=True)
    (tmp_path / "tiny.py").write_text(MODULE + "# edited\n")
    run = subprocess.run([sys.executable, str(TOOL), "--root", str(tmp_path), "tiny.py",
                          "test_tiny.py"], capture_output=True, text=True, check=False)
    assert run.returncode == 2 and "uncommitted changes" in run.stderr
