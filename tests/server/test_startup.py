"""Starting `dominion-server` as a stranger does (issue 23): a port or a database already
taken is one line and a non-zero exit, never a traceback or a "listening" line; the log
is text on a terminal and JSON for programs."""

from __future__ import annotations

import json
import logging
import signal
import socket
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pexpect
import pytest

from dominion.server.logs import JsonFormatter, LogFormat, TextFormatter, formatter_for

from .test_process import start_server

pytestmark = pytest.mark.integration  # real servers

SERVER = [sys.executable, "-m", "dominion.server.main"]


def refused(*options: str) -> str:
    """Start a server that must refuse to: its one line on standard error."""
    result = subprocess.run([*SERVER, *options], capture_output=True, text=True,
                            timeout=60, check=False)
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert "listening on" not in lines[0] and "server ready" not in lines[0]
    return lines[0]


@pytest.mark.parametrize("log_format", ["json", "text"])
def test_a_port_in_use_is_one_line_naming_it_and_how_to_choose_another(
        tmp_path: Path, log_format: str) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        line = refused("--port", str(port), "--db", str(tmp_path / "games.sqlite3"),
                       "--log-format", log_format)
    message = json.loads(line)["message"] if log_format == "json" else line
    assert f"127.0.0.1:{port}" in message and "in use" in message
    assert "--port" in message and "--host" in message and "DOMINION_PORT" in message


def test_a_second_server_on_one_database_is_refused_until_the_first_dies(
        tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    first, _ = start_server(db)
    try:
        other_path = tmp_path / "link.sqlite3"  # another path to the same file
        other_path.symlink_to(db)
        line = refused("--port", "0", "--db", str(other_path))
        message = json.loads(line)["message"]
        assert f"database {other_path} is in use by another server" in message
        assert f"(process {first.pid})" in message and "--db" in message
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait(15)
    second, _ = start_server(db)  # the lock died with the first server
    second.send_signal(signal.SIGTERM)
    assert second.wait(15) == 0


def test_text_when_asked_even_for_a_program(tmp_path: Path) -> None:
    process, url = start_server(tmp_path / "games.sqlite3",
                                env={"DOMINION_LOG_FORMAT": "text"})
    process.send_signal(signal.SIGTERM)
    assert process.wait(15) == 0
    lines = (process.stdout.read() if process.stdout else b"").decode().splitlines()
    listening = next(line for line in lines if "listening on" in line)
    said = f" info    listening on {url} (WebSocket {url.replace('http', 'ws')}/api/v1/ws)"
    assert said in listening and " engine=" in listening, listening  # which engine runs
    assert not any(line.startswith("{") for line in lines)


@pytest.mark.parametrize(("option", "json_lines"), [((), False),
                                                    (("--log-format", "json"), True)])
def test_a_terminal_gets_text_unless_json_is_asked_for(
        tmp_path: Path, option: tuple[str, ...], json_lines: bool) -> None:
    child = pexpect.spawn(SERVER[0], [*SERVER[1:], "--port", "0", "--db",
                                      str(tmp_path / "games.sqlite3"), *option],
                          timeout=30, encoding="utf-8")
    try:
        child.expect(r"[^\n]*listening on http://127\.0\.0\.1:\d+[^\r\n]*")
        line = child.after.strip()
        assert line.startswith("{") == json_lines, line
        child.kill(signal.SIGTERM)
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0


def test_auto_is_json_for_a_program_and_text_for_a_terminal() -> None:
    class Terminal(StringIO):
        def isatty(self) -> bool:
            return True

    assert isinstance(formatter_for(LogFormat.AUTO, StringIO()), JsonFormatter)
    assert isinstance(formatter_for(LogFormat.AUTO, Terminal()), TextFormatter)
    assert isinstance(formatter_for(LogFormat.TEXT, StringIO()), TextFormatter)
    assert isinstance(formatter_for(LogFormat.JSON, Terminal()), JsonFormatter)


def test_a_text_line_adds_only_the_fields_its_message_does_not_say() -> None:
    record = logging.LogRecord("dominion.server", logging.INFO, "", 0, "listening on %s",
                               ("http://h:1",), None)
    record.__dict__.update(url="http://h:1", public_url=None, game="g-1", port=1)
    line = TextFormatter().format(record)
    assert line.endswith(" info    listening on http://h:1 game=g-1 port=1")
