"""The test tiers: `pytest -m "not slow"` is the fast tier for working (every module, in
about a minute); plain `pytest` runs everything, as CI does.

Slow are the folders that start real programs or browsers and the tests below that play
long or drive a pseudo-terminal, listed here in one place; a test of its own may also say
`@pytest.mark.slow`. In the fast tier the property tests (Hypothesis) try a fifth of
their usual examples; the full run tries them all.

The full run (README.md, `.ci/run`) spreads the test files over workers (pytest-xdist,
`-n auto --dist loadfile`): a file's tests stay together on one worker, so its module
fixtures (a built wheel, a browser, a Redis) start once. Every test keeps to its own
folders and free ports, so workers share one machine.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

FAST_TIER = "not slow"
# Hypothesis's clock checks (an example's deadline, slow input generation) fail a test
# for a busy machine, not for the code: the examples themselves are checked in full
settings.register_profile("shared-machine", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("fast", settings.get_profile("shared-machine"), max_examples=20)
settings.load_profile("shared-machine")

TESTS = Path(__file__).resolve().parent
SLOW_FOLDERS = frozenset({"adversarial", "cluster", "deploy"})
"""nginx, Redis, built wheels, attacks through real sockets."""
SLOW_TESTS = (
    "web/test_browser_",  # Chromium
    "test_bench.py",  # each benchmark run for a moment
    "tools/test_mutate.py",  # mutants, each against its tests
    "clients/test_play_interactive.py",  # whole games through a pseudo-terminal
    "engine/test_random_games.py::test_random_games",  # thousands of games
    "engine/test_pure_python.py",  # the engine's tests again, on the pure-Python engine
    "server/test_no_leak_wire.py",  # whole games, every frame checked
    "server/test_restart.py::test_sigkill_loses_no_accepted_answer",  # kills under load
    "clients/test_cli_commands.py::test_every_command_speaks_polish",  # every command, twice
    "clients/test_cli_commands.py::test_a_whole_game_through_the_command",  # a whole game
)
"""Node ids below tests/, or their beginnings."""


WORKERS_PER_CORE = 2
"""Most tests wait on real programs (servers, Chromium, PostgreSQL): a core has time for two."""
MOST_WORKERS = 8
"""Each worker may start a PostgreSQL and browsers of its own: enough, even on a big machine."""


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook: `-p no:xdist` still runs
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """How many workers `-n auto` starts."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return min(MOST_WORKERS, WORKERS_PER_CORE * (cores or 1))


@pytest.fixture(autouse=True)
def own_client_config(tmp_path_factory: pytest.TempPathFactory,
                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The clients' config folder (tokens, the cached card catalogue) of each test, never
    the ~/.config/dominion of the user, which every test and worker would share."""
    monkeypatch.setenv("DOMINION_CONFIG_DIR", str(tmp_path_factory.mktemp("config")))


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("markexpr") == FAST_TIER:
        settings.load_profile("fast")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        where = Path(item.path).resolve().relative_to(TESTS)
        node = "/".join(where.parts) + item.nodeid[len(item.nodeid.split("::")[0]):]
        if where.parts[0] in SLOW_FOLDERS or node.startswith(SLOW_TESTS):
            item.add_marker(pytest.mark.slow)
