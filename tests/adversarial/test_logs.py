"""Finding 9: what clients do wrong is logged at DEBUG in one line, never at ERROR with a
traceback: ERROR is kept for the server's own faults."""

from __future__ import annotations

import asyncio
import json
import logging
import signal
from pathlib import Path
from typing import Any

import pytest

from dominion.protocol import Join, Resign
from dominion.server.play.room import Room
from tests.server.test_process import start_server
from tests.server.wsplay import ServerFactory, ws_server

__all__ = ["ws_server"]

MALFORMED = [
    b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: localhost\r\n\r\n",  # a URL over 8,190 bytes
    b"GET / HTTP/1.1\r\n" + b"".join(b"X-%d: y\r\n" % i for i in range(200)) + b"\r\n",
    b"GET / HTTP/1.1\r\nHost: localhost\r\nX-A: \x01\x1b[2J\r\n\r\n",  # bytes HTTP does not allow
    b"GET / HTTP/1.1\r\nHo st: x\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: localhost\r\nX: " + b"a" * 9000 + b"\r\n\r\n",
    b"FOO / HTTP/1.1\r\nHost: localhost\r\n\r\n",
]


async def send(port: int, data: bytes, *, drop: bool = False) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(data)
    await writer.drain()
    if drop:
        await asyncio.sleep(0.1)
        writer.transport.abort()
        return
    await asyncio.wait_for(reader.read(), 10)  # the server answers and closes
    writer.close()


@pytest.mark.integration  # a real server or socket
async def test_malformed_requests_and_dropped_clients_are_not_server_errors(
        tmp_path: Path) -> None:
    process, url = start_server(tmp_path / "games.sqlite3", "--log-level", "DEBUG")
    port = int(url.rsplit(":", 1)[1])
    try:
        for data in MALFORMED:
            await send(port, data)
        # a body cut off before its Content-Length
        await send(port, b"POST /api/v1/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: "
                         b"application/json\r\nContent-Length: 1000\r\n\r\n{\"name\":", drop=True)
        await asyncio.sleep(0.5)
    finally:
        process.send_signal(signal.SIGTERM)
        await asyncio.to_thread(process.wait, 30)
    assert process.stdout is not None
    entries = [json.loads(line) for line in process.stdout.read().decode().splitlines()]
    assert [e for e in entries if e["level"] in ("error", "critical", "warning")] == []
    assert [e for e in entries if "exception" in e] == []
    faults = [e for e in entries if e["message"].startswith("a client's fault")]
    assert len(faults) >= len(MALFORMED) - 1  # (an unknown method is refused unlogged)
    assert all(e["level"] == "debug" and "\n" not in e["message"] for e in faults)


async def test_a_bot_answering_a_game_a_resignation_just_ended_is_not_an_error(
        ws_server: ServerFactory, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    real_answer = Room.answer
    raced: list[int] = []

    async def a_resignation_first(self: Room, seat: int, *args: Any, **kwargs: Any) -> None:
        if kwargs.get("by_bot") and not raced:
            # the other player resigns while this bot's answer is on its way
            raced.append(seat)
            await self.resign(1 - seat)
        await real_answer(self, seat, *args, **kwargs)

    monkeypatch.setattr(Room, "answer", a_resignation_first)
    # Ann never connects: her seat goes to a bot at once, so bots start answering
    site = await ws_server(seat_grace_seconds=0.01)
    with caplog.at_level("DEBUG"):
        game, _ = await site.create(seats=2, bots={1: "big_money"})
        room = site.room(game)
        while room.state != "finished":
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)  # the bot's task has ended
    assert raced
    assert [r.getMessage() for r in caplog.records if r.levelname == "ERROR"] == []


async def test_a_client_leaving_an_export_midway_is_not_a_server_error(
        ws_server: ServerFactory, caplog: pytest.LogCaptureFixture) -> None:
    """(Found by the long REST fuzz: the export went on writing to the closed socket.)"""
    site = await ws_server()
    for _ in range(3):  # three finished games to export
        game, token = await site.create(seats=2, bots={1: "big_money"})
        player = await site.connect()
        await player.request(Join, game=game, token=token)
        await player.request(Resign, game=game)
        await player.close()
    port = site.server.port
    assert port is not None
    with caplog.at_level("DEBUG"):
        for method in ("GET", "HEAD"):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(f"{method} /api/v1/replays/export HTTP/1.1\r\nHost: localhost\r\n\r\n"
                         .encode())
            await reader.readuntil(b"\r\n\r\n")  # the headers; then the client leaves
            writer.transport.abort()
            await asyncio.sleep(0.3)  # the export would write its lines meanwhile
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
