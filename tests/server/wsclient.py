"""A small protocol client for tests (version 1 or 2): requests, their answers, and the
pushes between."""

from __future__ import annotations

import asyncio
import itertools
from collections import deque
from typing import Any

import aiohttp

from dominion.protocol import (
    SUBPROTOCOLS,
    SUPPORTED_VERSIONS,
    Ack,
    ClientMessage,
    Error,
    Hello,
    ServerMessage,
    Welcome,
    decode_server,
    encode_client,
)


class TestClient:
    __test__ = False  # not a pytest class

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.pushes: deque[ServerMessage] = deque()
        self._ids = itertools.count(1)
        self.welcome: Welcome | None = None

    @classmethod
    async def connect(cls, session: aiohttp.ClientSession, url: str, *,
                      hello: bool = True, version: int = 1) -> TestClient:
        """Connect, and say hello offering only `version` (unless `hello` is False)."""
        subprotocol = SUBPROTOCOLS[SUPPORTED_VERSIONS.index(version)]
        ws = await session.ws_connect(url, protocols=(subprotocol,), autoping=True)
        client = cls(ws)
        if hello:
            reply = await client.request(Hello, versions=[version], client="tests")
            assert isinstance(reply, Welcome) and reply.version == version, reply
            client.welcome = reply
        return client

    def next_id(self) -> int:
        return next(self._ids)

    async def send(self, message: ClientMessage) -> None:
        await self.ws.send_bytes(encode_client(message))

    async def receive(self, timeout: float = 10) -> ServerMessage | None:
        """The next frame, or None when the connection closed."""
        message = await self.ws.receive(timeout=timeout)
        if message.type is not aiohttp.WSMsgType.BINARY:
            return None
        return decode_server(message.data)

    async def request(self, kind: type[ClientMessage], **fields: Any) -> ServerMessage:
        """Send a request; return its ack, error or welcome (pushes before it are kept)."""
        request_id = self.next_id()
        await self.send(kind(id=request_id, **fields))
        while True:
            reply = await self.receive()
            if reply is None:
                raise ConnectionError("the connection closed")
            if isinstance(reply, Ack | Error | Welcome) and reply.id == request_id:
                return reply
            self.pushes.append(reply)

    async def receive_push(self, timeout: float = 30) -> ServerMessage | None:
        """The next push (kept ones first), or None when the connection closed."""
        if self.pushes:
            return self.pushes.popleft()
        return await self.receive(timeout)

    async def push(self, timeout: float = 10) -> ServerMessage:
        if self.pushes:
            return self.pushes.popleft()
        reply = await self.receive(timeout)
        assert reply is not None, "the connection closed"
        return reply

    async def close_code(self, timeout: float = 10) -> int | None:
        """Read until the server closes; its close code."""
        async def drain() -> None:
            while await self.receive(timeout) is not None:
                pass
        await asyncio.wait_for(drain(), timeout)
        return self.ws.close_code

    async def close(self) -> None:
        await self.ws.close()
