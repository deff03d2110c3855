"""`dominion-server` as people run it: a real process, its settings, and a graceful stop."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from dominion.protocol import CloseCode, Join, Resign, Watch
from dominion.protocol.limits import MAX_UPDATE_EVENTS
from dominion.protocol.loader import describe
from dominion.server.settings import Settings
from dominion.server.version import package_version
from tests.process_cpu import WALL_LIMIT_S, cpu_seconds, run
from tests.tiers import Tier, starts

from .wsclient import TestClient

pytestmark = pytest.mark.integration  # real servers


def free_port() -> int:
    """A port free now, for a program that cannot choose its own (postgres, redis, nginx):
    another process may take it before the program binds it. A dominion server chooses
    its own (`start_server`)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


SERVER = (sys.executable, "-m", "dominion.server.main")
LISTENING = re.compile(rb"listening on http://\S+:(\d+) \(WebSocket")
TAKEN = b"cannot listen on"
START_CPU_S = 30
"""How much CPU a server may spend before it says it listens: a second or two. Counted in
CPU, not wall time: on a machine loaded many times over a server waits its turn for a core,
and took over 60 s to say anything."""

PortArgument = Callable[[int], str]
"""An argument that names the server's own port (a public URL on it)."""


def start_server(db: Path, *args: str | PortArgument, env: dict[str, str] | None = None,
                 port: int | None = None, command: Sequence[str] = SERVER,
                 ) -> tuple[subprocess.Popen[bytes], str]:
    """Start a dominion server on `db` and return it once it listens, with its URL. Its
    port is the one its `listening on` log line says, never one another process took:
    `port` if given (a restart where the last one listened); otherwise the system's
    choice (`--port 0`), or, when an argument names the port (a function of it), a free
    one, tried again while another process takes it first. `command`: the server's
    program, logging at INFO or below. Its output goes to a log file beside `db`, which
    `process.stdout` reads."""
    for _ in range(10):
        chosen = port or (free_port() if any(callable(arg) for arg in args) else 0)
        process, log = run_server(db, [arg(chosen) if callable(arg) else arg for arg in args],
                                  env, chosen, command)
        if (said := LISTENING.search(log)) is not None:
            return process, f"http://127.0.0.1:{int(said[1])}"
        if port or not chosen or TAKEN not in log:
            break
    raise AssertionError(f"the server did not start:\n{log.decode()}")


def run_server(db: Path, args: list[str], env: dict[str, str] | None, port: int,
               command: Sequence[str]) -> tuple[subprocess.Popen[bytes], bytes]:
    """Start a server and wait until it says it listens or stops; the process, and its log
    so far."""
    handle, name = tempfile.mkstemp(prefix="server-", suffix=".log", dir=db.parent)
    with os.fdopen(handle, "wb") as log:
        process = subprocess.Popen(
            [*command, "--port", str(port), "--db", str(db), *args],
            env={**os.environ, **(env or {})}, stdout=log, stderr=subprocess.STDOUT)
    process.stdout = open(name, "rb")  # noqa: SIM115 (the process's own, read by its user)
    deadline = time.monotonic() + WALL_LIMIT_S
    while cpu_seconds(process.pid) < START_CPU_S and time.monotonic() < deadline:
        said = Path(name).read_bytes()
        if LISTENING.search(said) or process.poll() is not None:
            return process, Path(name).read_bytes()
        time.sleep(0.05)
    process.kill()
    process.wait()
    return process, Path(name).read_bytes()


@pytest.fixture
@starts(Tier.INTEGRATION)
def server(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], str, Path]]:
    db = tmp_path / "games.sqlite3"
    process, url = start_server(db)
    yield process, url, db
    if process.poll() is None:
        process.kill()
        process.wait()


async def test_health_metrics_and_a_graceful_stop(
        server: tuple[subprocess.Popen[bytes], str, Path]) -> None:
    process, url, db = server
    async with aiohttp.ClientSession() as session:
        health = await session.get(f"{url}/healthz")
        assert health.status == 200 and (await health.json())["status"] == "ok"
        created = await session.post(f"{url}/api/v1/games", json={
            "name": "Ann", "seats": 2, "kingdom": "First Game", "bots": {"1": "big_money"}})
        body = await created.json()
        game = body["game"]["id"]
        player = await TestClient.connect(session, url + "/api/v1/ws")
        await player.request(Join, game=game, token=body["token"])
        await player.request(Resign, game=game)  # two players: the game ends
        watcher = await TestClient.connect(session, url + "/api/v1/ws")
        await watcher.request(Watch, game=game)
        metrics = await (await session.get(f"{url}/metrics")).text()
        assert "dominion_connections 2.0" in metrics
        assert "dominion_games_created_total 1.0" in metrics
        process.send_signal(signal.SIGTERM)
        assert await watcher.close_code() == CloseCode.GOING_AWAY
    assert await asyncio.to_thread(process.wait, 15) == 0
    assert db.exists()
    log = process.stdout.read().decode() if process.stdout else ""
    assert '"message": "server ready"' in log  # structured (JSON) log lines
    port = url.rsplit(":", 1)[1]
    assert f'"message": "listening on {url} (WebSocket ws://127.0.0.1:{port}/api/v1/ws)"' in log
    assert f'"engine": "{describe()}"' in log  # whether the engine runs compiled, and why
    assert f'"version": "{package_version()}"' in log
    for happened in ("game created", "game started", "game finished"):
        assert f'"message": "{happened}", "game": "{game}"' in log


def test_settings_come_from_the_environment(tmp_path: Path) -> None:
    db = tmp_path / "env.sqlite3"
    # DOMINION_NAME is the client's player name: the two may share an environment
    process, url = start_server(db, env={"DOMINION_SERVER_NAME": "env-named",
                                         "DOMINION_NAME": "a player"})
    try:
        async def read_name() -> str:
            async with aiohttp.ClientSession() as session:
                info = await (await session.get(f"{url}/api/v1/server")).json()
                return str(info["name"])
        assert asyncio.run(read_name()) == "env-named"
    finally:
        process.send_signal(signal.SIGINT)
        assert process.wait(15) == 0


def test_port_0_listens_where_the_system_chose_and_the_log_says(tmp_path: Path) -> None:
    """Tests start their servers so (`start_server`): a port probed free and closed
    before the server binds it may be taken by another process in between."""
    started = [start_server(tmp_path / f"{name}.sqlite3", "--server-name", name)
               for name in ("one", "two")]
    try:
        async def names() -> list[str]:
            async with aiohttp.ClientSession() as session:
                return [(await (await session.get(f"{url}/api/v1/server")).json())["name"]
                        for _, url in started]
        assert asyncio.run(names()) == ["one", "two"]
        ports = {url.rsplit(":", 1)[1] for _, url in started}
        assert len(ports) == 2 and "0" not in ports
    finally:
        for process, _ in started:
            process.send_signal(signal.SIGTERM)
            assert process.wait(15) == 0


def fake_server(code: str) -> tuple[str, ...]:
    """A program in place of the server: Python running `code` (it ignores the options)."""
    return (sys.executable, "-c", code)


def test_a_server_waiting_for_a_core_is_waited_for_by_its_cpu_not_the_wall(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a loaded machine: the server's turn on a core comes late, its work is the same
    monkeypatch.setattr(sys.modules[__name__], "START_CPU_S", 0.5)
    slow = fake_server("import time; time.sleep(2); "
                       "print('listening on http://127.0.0.1:1234 (WebSocket', flush=True)")
    process, url = start_server(tmp_path / "slow.sqlite3", command=slow)
    process.wait(15)
    assert url == "http://127.0.0.1:1234"  # 2 s on the wall, no CPU: waited for
    busy = fake_server("while True: pass")  # spends its CPU and never listens
    began = time.monotonic()
    with pytest.raises(AssertionError, match="the server did not start"):
        start_server(tmp_path / "busy.sqlite3", command=busy)
    assert time.monotonic() - began < WALL_LIMIT_S / 2  # given up for its CPU spent


def test_a_command_is_given_cpu_seconds_not_wall_seconds() -> None:
    slept = run(fake_server("import time; time.sleep(1.5); print('done')"), cpu_limit=0.5)
    assert slept.stdout == "done\n"  # 1.5 s on the wall, no CPU: waited for
    began = time.monotonic()
    with pytest.raises(subprocess.TimeoutExpired):
        run(fake_server("while True: pass"), cpu_limit=0.5)
    assert time.monotonic() - began < WALL_LIMIT_S / 2  # ended for its CPU spent


def test_a_bad_setting_is_refused_with_a_message() -> None:
    result = subprocess.run([sys.executable, "-m", "dominion.server.main", "--absent-seat",
                             "explode"], capture_output=True, text=True, check=False)
    assert result.returncode == 2
    assert "--absent-seat" in result.stderr


def test_a_resume_window_beyond_one_update_is_refused() -> None:
    """A version 2 resume sends the missed events in one update, which holds at most
    MAX_UPDATE_EVENTS; a larger window would promise frames no client may accept."""
    assert Settings(resume_window=MAX_UPDATE_EVENTS).problem() is None
    problem = Settings(resume_window=MAX_UPDATE_EVENTS + 1).problem()
    assert problem is not None and "--resume-window" in problem


def test_automatch_apart_settings_out_of_range_are_refused() -> None:
    assert Settings(automatch_apart_strikes=1, automatch_apart_seconds=1).problem() is None
    for wrong in ({"automatch_apart_strikes": 0}, {"automatch_apart_seconds": 0}):
        problem = Settings(**wrong).problem()  # type: ignore[arg-type]
        assert problem is not None and "--automatch-apart" in problem


@pytest.mark.parametrize(("settings", "named"), [
    ({"rated_time_control": "none"}, "--rated-time-control"),
    ({"rated_time_control": "10"}, "--rated-time-control"),
    ({"unrated_time_control": "0.1+0"}, "--unrated-time-control"),
    ({"unrated_time_control": "10+999"}, "--unrated-time-control")])
def test_a_bad_time_control_setting_is_refused(settings: dict[str, Any], named: str) -> None:
    assert Settings(rated_time_control="3+2", unrated_time_control="none").problem() is None
    problem = Settings(**settings).problem()
    assert problem is not None and named in problem


def test_a_database_that_is_not_ours_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "garbage.sqlite3"
    db.write_bytes(b"this is not a database" * 100)
    result = subprocess.run(
        [sys.executable, "-m", "dominion.server.main", "--db", str(db), "--port",
         "0"], capture_output=True, text=True, check=False, timeout=30)
    assert result.returncode == 2
    assert "cannot open the database" in result.stdout + result.stderr
