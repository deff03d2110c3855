"""How the suite runs: in three tiers (tests/tiers.py says what each may start), the
fast one for working, `python -m pytest -m unit` (every module's in-process tests, in
under a minute); plain `pytest` runs every tier, as CI does. In the unit tier the property
tests (Hypothesis) try a tenth of their usual examples; the full run tries them all.

The full run (README.md, `.ci/run`) spreads the test files over workers (pytest-xdist,
`-n auto --dist loadfile`): a file's tests stay together on one worker, so its module
fixtures (a built wheel, a Redis) start once, and the files of the highest tier go first.
Every test keeps to its own folders and free ports, so workers share one machine.
"""

from __future__ import annotations

import contextlib
import inspect
import os
import time
from collections.abc import Generator, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from dominion.bots import BotPace
from dominion.server.settings import Settings

from .accounts.postgres import PostgresServer
from .accounts.postgres import missing as missing_postgres
from .tiers import SLOW, UNIT_BUDGET_S, Tier, guard, mark, starts

# pytester: tests/test_suite_setup.py runs the tiers on tests of its own; games_file: `storage`;
# timeouts: a test past its time says where it stood, even in a worker
pytest_plugins = ["pytester", "tests.games_file", "tests.timeouts"]

UNIT_TIER_RUNS = frozenset({Tier.UNIT.marker, f"not {SLOW}"})
"""The mark expressions that run the unit tier (the second its former name): they try
fewer examples, and hold each test to its CPU budget."""

# Hypothesis's clock checks (an example's deadline, slow input generation) fail a test
# for a busy machine, not for the code: the examples themselves are checked in full
settings.register_profile("shared-machine", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("fast", settings.get_profile("shared-machine"), max_examples=10)
settings.load_profile("shared-machine")

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


@pytest.fixture(autouse=True, scope="session")
def instant_bots() -> Iterator[None]:
    """The server's bots answer at once in tests, as they did before tables had a pace
    (people watch at `normal`): in the servers a test starts (their environment) and in
    the `Settings` it makes, from the session's start (before any module's server). A
    test of the pace asks for one (`bot_pace=`)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DOMINION_BOT_PACE", BotPace.INSTANT.value)
        init = Settings.__init__
        assert init.__defaults__ is not None  # every setting has a default
        names = list(inspect.signature(init).parameters)[-len(init.__defaults__):]
        defaults = dict(zip(names, init.__defaults__, strict=True)) | {
            "bot_pace": BotPace.INSTANT}
        patch.setattr(init, "__defaults__", tuple(defaults.values()))
        yield


@pytest.fixture(scope="session")
@starts(Tier.INTEGRATION)
def worker_postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL server for the worker's tests (tests/accounts/conftest.py gives each
    test a database of its own on it)."""
    why = missing_postgres()
    if why is not None:
        pytest.skip(f"no PostgreSQL to test against ({why}): apt-get install postgresql")
    server = PostgresServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()
        server.remove()


def unit_tier_run(config: pytest.Config) -> bool:
    return config.getoption("markexpr") in UNIT_TIER_RUNS


def pytest_configure(config: pytest.Config) -> None:
    if unit_tier_run(config):
        settings.load_profile("fast")
    # A worker that dies (pytest-timeout's thread ends a test past its time by ending the
    # worker) is not replaced: under `--dist loadfile` pytest-xdist 3.8's replacement can
    # wait forever for work it was never given (pytest-xdist #1323, #1327; fixed after 3.8),
    # and a run that hangs names nothing. Unreplaced, the run stops at once and names the
    # test the worker died in.
    if hasattr(config.option, MOST_RESTARTS) and getattr(config.option, MOST_RESTARTS) is None:
        setattr(config.option, MOST_RESTARTS, "0")
    # xdist hands out the files with the most tests first unless told not to
    # (`--no-loadscope-reorder`): the longest files (a wheel's build, a browser's bench)
    # have few tests, and came last. The order `pytest_collection_modifyitems` gives holds.
    if hasattr(config.option, XDIST_REORDERS):
        setattr(config.option, XDIST_REORDERS, False)


@pytest.hookimpl(tryfirst=True)  # before `-m` selects by the marks it adds
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    highest: dict[Path, Tier] = {}
    for item in items:
        tier = mark(item)
        highest[item.path] = max(tier, highest.get(item.path, Tier.UNIT))
    # The files that start the most (browsers, clusters, builds) first: `--dist loadfile`
    # hands files out in this order, and a long file handed out last keeps one worker
    # busy after the others are done. Stable: a file's tests keep their order.
    items.sort(key=lambda item: -highest[item.path])


CPU_SPENT = pytest.StashKey[float]()
CPU_PROPERTY = "cpu_seconds"
COSTLIEST = 5
"""How many of the unit tier's costliest tests its run names at the end."""
REFUSED = pytest.StashKey[list[str]]()
MOST_RESTARTS = "maxworkerrestart"
"""pytest-xdist's option `--max-worker-restart`: how many dead workers it replaces."""
XDIST_REORDERS = "loadscopereorder"
"""pytest-xdist's option that orders `--dist loadfile`'s files by their number of tests."""


@contextlib.contextmanager
def phase(item: pytest.Item, *, guarded: bool = True) -> Iterator[None]:
    """A phase of a unit test (set up, call) runs guarded; each phase's refusals are its
    own."""
    refused: list[str] = []
    item.stash[REFUSED] = refused
    if not guarded or item.get_closest_marker(Tier.UNIT.marker) is None:
        yield
        return
    with guard(refused):
        yield


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    with phase(item):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    started = time.process_time()
    try:
        with phase(item):
            return (yield)
    finally:
        item.stash[CPU_SPENT] = time.process_time() - started


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Iterator[None]:
    # not guarded: there the fixtures of earlier tests end too (the last test of a module
    # or a session stops the PostgreSQL or Redis those tests started)
    with phase(item, guarded=False):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]
                              ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Fails a unit test that started something (even if the code under test swallowed
    the refusal), and, in a run of the unit tier, one over its CPU budget."""
    report: pytest.TestReport = yield
    none: list[str] = []
    problems = [*item.stash.get(REFUSED, none)]
    spent = item.stash.get(CPU_SPENT, 0.0)
    budgeted = (call.when == "call" and unit_tier_run(item.config)
                and item.get_closest_marker(Tier.UNIT.marker) is not None)
    if budgeted:
        report.user_properties.append((CPU_PROPERTY, spent))  # crosses from xdist's workers
    if budgeted and spent > UNIT_BUDGET_S:
        problems.append(f"a unit test took {spent:.2f} s of CPU, over the unit tier's "
                        f"{UNIT_BUDGET_S:g} s: make it faster, or mark it integration if "
                        "it plays for long (tests/tiers.py)")
    if problems and report.passed:
        report.outcome = "failed"
        report.longrepr = "\n".join(problems)
    elif problems:
        report.sections.append(("tiers", "\n".join(problems)))
    return report


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter,
                            config: pytest.Config) -> None:
    """After a run of the unit tier: the CPU it took, and its costliest tests."""
    if not unit_tier_run(config):
        return
    spent = sorted(((seconds, report.nodeid)
                    for reports in terminalreporter.stats.values() for report in reports
                    if isinstance(report, pytest.TestReport)
                    for name, seconds in report.user_properties if name == CPU_PROPERTY),
                   reverse=True)
    if not spent:
        return
    terminalreporter.section("unit tier: CPU seconds")
    terminalreporter.line(f"{sum(seconds for seconds, _ in spent):.1f} s in {len(spent)} "
                          f"tests (budget {UNIT_BUDGET_S:g} s each); the costliest:")
    for seconds, nodeid in spent[:COSTLIEST]:
        terminalreporter.line(f"{seconds:6.2f} s  {nodeid}")
