"""How the suite itself runs: CI runs the README's one test command, on workers that share
the machine (tests/conftest.py), each test with a client config folder of its own."""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from dominion.clients import config

from .conftest import MOST_WORKERS, WORKERS_PER_CORE, pytest_xdist_auto_num_workers

ROOT = Path(__file__).resolve().parent.parent


def pytest_arguments(text: str) -> list[list[str]]:
    """The arguments of each line of `text` that runs `python -m pytest` (or python3)."""
    return [shlex.split(line)[3:] for line in
            re.findall(r"^(?:[^\n]*&& )?(python3? -m pytest\b[^\n]*)$", text, re.M)]


def test_ci_runs_the_readmes_test_command_on_workers() -> None:
    readme = pytest_arguments((ROOT / "README.md").read_text())
    assert readme == [["-n", "auto", "--dist", "loadfile"]]
    assert pytest_arguments((ROOT / ".ci" / "run").read_text()) == readme


def test_auto_starts_two_workers_a_core_up_to_a_bound(monkeypatch: pytest.MonkeyPatch,
                                                       pytestconfig: pytest.Config) -> None:
    assert (WORKERS_PER_CORE, MOST_WORKERS) == (2, 8)
    for cores, workers in ((1, 2), (2, 4), (4, 8), (64, 8)):  # CI has 2 cores
        monkeypatch.setattr(os, "sched_getaffinity", lambda _, n=cores: set(range(n)))
        assert pytest_xdist_auto_num_workers(pytestconfig) == workers


def test_each_test_has_a_client_config_folder_of_its_own() -> None:
    folder = config.config_dir()
    assert folder != Path.home() / ".config" / "dominion"
    assert folder.is_dir() and list(folder.iterdir()) == []  # not a folder another test used


def test_hypothesis_checks_no_clock_of_a_busy_machine() -> None:
    assert settings().deadline is None
    assert HealthCheck.too_slow in settings().suppress_health_check
    assert settings.get_profile("fast").deadline is None  # the fast tier's too
