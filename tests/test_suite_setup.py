"""How the suite itself runs: CI runs the README's one test command, on workers that share
the machine (tests/conftest.py), each test with a client config folder of its own, and
each in the tier of what it starts (tests/tiers.py)."""

from __future__ import annotations

import multiprocessing
import os
import re
import shlex
import socket
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from dominion.clients import config

from .conftest import MOST_WORKERS, WORKERS_PER_CORE, pytest_xdist_auto_num_workers
from .tiers import StartedInUnitTier, guard

ROOT = Path(__file__).resolve().parent.parent


def pytest_arguments(text: str) -> list[list[str]]:
    """The arguments of each line of `text` that runs `python -m pytest` (or python3),
    alone or after the steps that set it up (`... && python -m pytest ...`)."""
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


def test_the_unit_guard_refuses_programs_and_network_sockets_then_restores_them() -> None:
    before = (subprocess.Popen._execute_child, os.fork, socket.socket.bind)  # type: ignore[attr-defined]
    refused: list[str] = []
    with guard(refused):
        with pytest.raises(StartedInUnitTier, match="mark this test integration or system"):
            subprocess.run(["true"], check=False)
        with pytest.raises(StartedInUnitTier):  # a worker, as the server's bots have
            multiprocessing.get_context("spawn").Process(target=print).start()
        with socket.socket() as probe, pytest.raises(StartedInUnitTier):
            probe.bind(("127.0.0.1", 0))
        with socket.socket() as probe, pytest.raises(StartedInUnitTier):
            probe.connect_ex(("127.0.0.1", 9))
        for end in socket.socketpair():  # the event loop's own wake-up pair stays allowed
            end.close()
    assert len(refused) == 4 and "started a program" in refused[0]
    assert (subprocess.Popen._execute_child, os.fork, socket.socket.bind) == before  # type: ignore[attr-defined]


TIERED = """
import socket
import subprocess
import time

import pytest

from tests.tiers import Tier, starts


@pytest.fixture
@starts(Tier.INTEGRATION)
def program():
    return "a program"


@pytest.fixture
def built_on_it(program):
    return program


def test_plain(): pass
def test_through_a_fixture(built_on_it): pass
@pytest.mark.system
def test_marked(): pass
@pytest.mark.slow
def test_marked_slow(): pass
def test_starts_a_program(): subprocess.run(["true"])
def test_swallows_the_refusal():
    try:
        socket.create_connection(("127.0.0.1", 9))
    except Exception:
        pass
def test_burns_cpu():
    end = time.process_time() + 1.2
    while time.process_time() < end:
        pass
"""
TIERS_SEEN = """
pytest_plugins = ["tests.conftest"]


def pytest_collection_finish(session):
    for item in session.items:
        marks = sorted({mark.name for mark in item.iter_markers()})
        print("tiers:", item.name, ",".join(marks))
"""


@pytest.mark.integration  # runs pytest in a process of its own
def test_a_test_is_in_the_tier_of_what_its_fixtures_start(pytester: pytest.Pytester,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    pytester.makeconftest(TIERS_SEEN)
    pytester.makeini("[pytest]\nasyncio_default_fixture_loop_scope = function\n"
                     "markers =\n    unit\n    integration\n    system\n    slow\n")
    pytester.makepyfile(test_tiered=TIERED)
    seen = dict(line.split()[1:] for line in
                pytester.runpytest_subprocess("--co", "-p", "no:randomly").outlines
                if line.startswith("tiers:"))
    assert seen == {"test_plain": "unit", "test_through_a_fixture": "integration,slow",
                    "test_marked": "slow,system", "test_marked_slow": "integration,slow",
                    "test_starts_a_program": "unit", "test_swallows_the_refusal": "unit",
                    "test_burns_cpu": "unit"}

    unit = pytester.runpytest_subprocess("-m", "unit", "-p", "no:randomly", "-rf")
    unit.assert_outcomes(passed=1, failed=3, deselected=3)
    said = unit.stdout.str()
    assert "FAILED test_tiered.py::test_starts_a_program - tests.tiers.StartedInUnitTier" in said
    assert "a unit test connected a network socket" in said  # though it swallowed the error
    assert "a unit test took 1." in said and "of CPU, over the unit tier's 1 s" in said
    former = pytester.runpytest_subprocess("-m", "not slow", "--co", "-p", "no:randomly")
    assert former.stdout.str().count("tiers:") == 4  # the unit tier's four

    pytester.makepyfile(test_wrongly="""
import pytest
from test_tiered import program
@pytest.mark.unit
def test_says_unit(program): pass
""")
    wrong = pytester.runpytest_subprocess("--co", "-p", "no:randomly", "test_wrongly.py")
    assert wrong.ret == pytest.ExitCode.USAGE_ERROR
    assert "test_says_unit is marked unit, yet it is integration" in wrong.stderr.str()


@pytest.mark.integration  # runs pytest in a process of its own
def test_the_files_of_the_highest_tiers_run_first(pytester: pytest.Pytester,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # so that `--dist loadfile` never hands out a long file last
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    pytester.makeconftest(TIERS_SEEN)
    pytester.makeini("[pytest]\nmarkers =\n    unit\n    integration\n    system\n    slow\n")
    pytester.makepyfile(test_a_unit="def test_one(): pass\ndef test_two(): pass\n",
                        test_b_integration="import pytest\n"
                                           "def test_first(): pass\n"
                                           "@pytest.mark.integration\n"
                                           "def test_second(): pass\n",
                        test_c_system="import pytest\n"
                                      "@pytest.mark.system\n"
                                      "def test_browser(): pass\n")
    seen = [line.split()[1] for line in
            pytester.runpytest_subprocess("--co", "-p", "no:randomly").outlines
            if line.startswith("tiers:")]
    assert seen == ["test_browser", "test_first", "test_second", "test_one", "test_two"]


def test_xdist_hands_out_the_files_in_the_order_collected(pytestconfig: pytest.Config) -> None:
    # not the files with the most tests first, its default: those are not the long ones
    assert getattr(pytestconfig.option, "loadscopereorder", False) is False


HANGING = """
import asyncio

async def test_waits_for_ever():
    async def waiting_for_a_reply():
        await asyncio.Event().wait()
    await asyncio.ensure_future(waiting_for_a_reply())
"""


@pytest.mark.integration  # runs pytest, on a worker, in a process of its own
def test_a_worker_past_its_time_says_where_its_test_stood(pytester: pytest.Pytester,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    # CI saw only "worker crashed while running": pytest-timeout wrote to the worker's
    # terminal, which is /dev/null, and an asyncio test waits in `select` whatever it awaits
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    pytester.makeini("[pytest]\nasyncio_mode = auto\ntimeout_method = thread\n"
                     "asyncio_default_fixture_loop_scope = function\n")
    pytester.makepyfile(test_hanging=HANGING)
    run = pytester.runpytest_subprocess("-p", "tests.timeouts", "--timeout", "2",
                                        "-n", "1", "-p", "no:randomly")
    said = run.stderr.str() + run.stdout.str()
    assert "crashed while running 'test_hanging.py::test_waits_for_ever'" in said
    assert "Timeout: test_hanging.py::test_waits_for_ever after 2 s" in said
    assert "in waiting_for_a_reply\n    await asyncio.Event().wait()" in said
