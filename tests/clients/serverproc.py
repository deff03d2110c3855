"""A real `dominion-server` process for the client tests, with its default settings (a
correct client never meets the rate limit, however fast it plays), and a relay in front
of it whose connections a test can cut."""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from tests.server.test_process import start_server
from tests.tiers import Tier, starts


@pytest.fixture(scope="module")
@starts(Tier.INTEGRATION)
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("server") / "games.sqlite3"
    # the pages' rated games are resigned at once (tests/web/rated.py): rated all the same
    process, url = start_server(db, "--rated-min-turns", "0")
    yield url
    stop(process)


async def refused_for_rate(url: str) -> float:
    """How many `rate_limited` errors the server has sent (its /metrics)."""
    async with aiohttp.ClientSession() as session:
        text = await (await session.get(f"{url}/metrics")).text()
    for line in text.splitlines():
        if line.startswith('dominion_errors_total{code="rate_limited"}'):
            return float(line.split()[-1])
    return 0.0


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.kill()
        process.wait()


class Proxy:
    """A TCP relay in front of the server whose connections the test can cut."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.writers: list[asyncio.StreamWriter] = []
        self.server: asyncio.base_events.Server | None = None

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        port: int = self.server.sockets[0].getsockname()[1]
        return port

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        self.writers += [writer, up_writer]

        async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            try:
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                sink.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    def cut(self) -> None:
        for writer in self.writers:
            writer.transport.abort()
        self.writers.clear()

    async def stop(self) -> None:
        self.cut()
        if self.server is not None:
            self.server.close()


__all__ = ["Path", "Proxy", "refused_for_rate", "server_url", "stop"]
