"""The benches of the bot workers' cost to the server: bench/strong_load.py's CPU per
answer (what the measured seconds' answers cost the server's event loop, all its threads
and its child processes, the bot workers) and bench/worker_round_trip.py's transports."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bench import worker_round_trip
from bench.strong_load import cost_per_answer, spent, stops
from tests.eventually import eventually


def test_cost_per_answer_divides_each_cpu_reading_by_the_answers_between() -> None:
    before = {"answers": 10, "loop": 1.0, "server": 2.0, "workers": 0.5}
    after = {"answers": 1010, "loop": 1.5, "server": 3.0, "workers": 0.7}
    assert cost_per_answer(before, after) == {
        "answers": 1000,
        "loop_cpu_us": 500.0,
        "server_cpu_us": 1000.0,
        "workers_cpu_us": 200.0,
    }


@pytest.mark.integration  # a child process, as the server's bot workers are
async def test_spent_reads_the_answers_and_a_child_process_cpu(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with contextlib.closing(sqlite3.connect(db)) as writer:
        writer.execute("CREATE TABLE answers (id INTEGER)")
        writer.executemany("INSERT INTO answers VALUES (?)", [(n,) for n in range(7)])
        writer.commit()
    busy = "import time\nend = time.process_time() + 0.1\nwhile time.process_time() < end: pass\n"
    with subprocess.Popen([sys.executable, "-c", busy + "time.sleep(600)"]) as child:
        try:
            # the child's CPU counts once it has spent it (a loaded machine only delays it)
            await eventually(lambda: spent(os.getpid(), db)["workers"] >= 0.1, seconds=120)
            reading = spent(os.getpid(), db)
        finally:
            child.kill()
    assert reading["answers"] == 7
    assert 0 < reading["loop"] <= reading["server"]


@pytest.mark.integration  # worker processes
def test_the_round_trip_bench_times_both_transports() -> None:
    result = worker_round_trip.main(worker_round_trip.parse(["--calls", "20", "--rounds", "1"]))
    for transport in ("pool", "pipe"):
        [run] = result[transport]
        assert run["cpu_us"] > 0 and run["wall_us"] > 0


class _HungServer:
    """A server that does not exit at SIGTERM within the wait."""

    killed = False

    def stop(self) -> int:
        raise subprocess.TimeoutExpired("dominion-server", 30)

    def kill(self) -> None:
        self.killed = True


def test_a_server_hung_at_its_stop_is_killed_and_said_so() -> None:
    server = _HungServer()
    assert stops(server) is False  # type: ignore[arg-type]
    assert server.killed
