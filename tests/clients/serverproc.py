"""A real `dominion-server` process for the client tests, with limits raised for speed."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.test_process import start_server

FAST = ("--messages-per-second", "100000", "--burst", "100000")


@pytest.fixture(scope="module")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("server") / "games.sqlite3"
    process, url = start_server(db, *FAST)
    yield url
    stop(process)


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.kill()
        process.wait()


__all__ = ["FAST", "Path", "server_url", "stop"]
