"""Issue 23, item 2: plain HTTP connections cannot be held open at will. A body declared
larger than the server reads is refused at once (413); a body that stops arriving is
answered 408 and closed after --body-timeout-seconds, and logged; an address prefix
holding --http-connections-per-address connections has the next one refused at once.
Raw sockets against a real `dominion-server` process."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.eventually import eventually
from tests.tiers import Tier, starts

from .attacks import ServerProcess

Streams = tuple[asyncio.StreamReader, asyncio.StreamWriter]
HUGE = (b"POST /api/v1/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        b"Content-Length: 1000000000000\r\n\r\n{")


@pytest.fixture
@starts(Tier.INTEGRATION)
async def server(tmp_path: Path) -> AsyncIterator[ServerProcess]:
    process = ServerProcess.start(tmp_path, "--body-timeout-seconds", "1",
                                  "--http-connections-per-address", "3")
    yield process
    assert process.stop() == 0
    assert process.faults() == []


async def connect(server: ServerProcess, source: str = "127.0.0.1") -> Streams:
    port = int(server.url.rsplit(":", 1)[1])
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))


async def answer(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], bytes]:
    """One response: its status, headers and body."""
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 20)
    status, *lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines if line)}
    body = await reader.readexactly(int(headers.get("content-length", "0")))
    return int(status.split()[1]), headers, body


async def closed(reader: asyncio.StreamReader) -> bool:
    """Whether the server ends the connection (within 20 s)."""
    try:
        return await asyncio.wait_for(reader.read(), 20) == b""
    except ConnectionResetError:
        return True


async def served(streams: Streams) -> None:
    """A request on the connection, answered (so it is open and counted)."""
    reader, writer = streams
    writer.write(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
    status, _, _ = await answer(reader)
    assert status == 200


@pytest.mark.parametrize("request_head", [
    HUGE,
    b"GET /api/v1/games HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000000000000\r\n\r\nx",
    b"POST /api/v1/games HTTP/1.1\r\nHost: localhost\r\nContent-Length: 65537\r\n\r\n{",
])
async def test_a_body_declared_too_large_is_refused_at_once(
        server: ServerProcess, request_head: bytes) -> None:
    reader, writer = await connect(server)
    writer.write(request_head)
    # (without the check, the body timeout would answer 408, or the route 200)
    status, headers, body = await answer(reader)
    assert status == 413 and headers["content-type"].startswith("application/json")
    assert json.loads(body)["error"]["code"] == "body_too_large"
    assert await closed(reader)
    writer.close()


async def test_a_body_that_stops_arriving_is_answered_closed_and_logged(
        server: ServerProcess) -> None:
    reader, writer = await connect(server)
    writer.write(b"POST /api/v1/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json"
                 b"\r\nContent-Length: 100\r\n\r\n{\"name\": ")
    sent = time.monotonic()
    status, _, body = await answer(reader)
    assert time.monotonic() - sent >= 1  # the body timeout
    assert status == 408 and json.loads(body)["error"]["code"] == "body_timeout"
    assert await closed(reader)
    writer.close()
    await eventually(lambda: any(entry["message"] == "a request body stopped arriving"
                                 for entry in server.log()))
    [warning] = [entry for entry in server.log() if entry["level"] == "warning"]
    assert warning["address"] == "127.0.0.1/32"


async def test_the_connection_past_the_prefixs_limit_is_refused_at_once(
        server: ServerProcess) -> None:
    held = [await connect(server) for _ in range(3)]
    for streams in held:
        await served(streams)
    for _ in range(2):  # refused, however often it tries; logged once
        reader, writer = await connect(server)
        status, headers, body = await answer(reader)
        assert status == 429 and json.loads(body)["error"]["code"] == "too_many_connections"
        assert headers["connection"] == "close" and await closed(reader)
        writer.close()
    await served(await connect(server, "127.0.0.2"))  # another address has its own
    # one of the three closes: a new connection takes its place
    held[0][1].close()
    await held[0][1].wait_closed()

    async def admitted() -> bool:
        streams = await connect(server)
        try:
            await served(streams)
        except (AssertionError, ConnectionError, asyncio.IncompleteReadError):
            # refused (its request unread, the refusal may come as a reset)
            streams[1].close()
            return False
        held[0] = streams
        return True
    await eventually(admitted)
    refusals = [entry for entry in server.log()
                if entry["message"] == "refused HTTP connections beyond the address's limit"]
    assert len(refusals) == 1 and refusals[0]["address"] == "127.0.0.1/32"
    for _, writer in held:
        writer.close()


async def test_a_websocket_is_counted_as_one_not_as_a_plain_connection(
        server: ServerProcess) -> None:
    upgraded = []
    for _ in range(4):  # more WebSockets than plain connections are allowed
        reader, writer = await connect(server)
        writer.write(b"GET /api/v1/ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\n"
                     b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                     b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                     b"Sec-WebSocket-Protocol: dominion.v2.msgpack\r\n\r\n")
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 20)
        assert head.startswith(b"HTTP/1.1 101"), head
        upgraded.append(writer)
    await served(await connect(server))
    for writer in upgraded:
        writer.close()
