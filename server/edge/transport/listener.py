"""The listening socket: every TCP connection is counted by its address's key
(`prefixes.py`), and one beyond `http_connections_per_address` is refused at once, before
aiohttp reads a byte of it. A connection upgraded to a WebSocket leaves this count for
`connections_per_address` (app.py). Trusted proxies are not counted: their connections
carry many clients, each counted by its forwarded address in the limits above HTTP.

aiohttp has no hook for a connection's start and end, so the server runs its application
on `CountingSite`, a site whose protocol factory wraps aiohttp's, and `run` stands in for
`web.run_app` (signals, graceful shutdown, the loop's end) with that site.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import time
from collections.abc import Callable, Sequence
from typing import cast

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

from dominion.protocol import ErrorCode

from ...settings import Settings
from ..rest import error_body
from ..state import STATE
from .addresses import _is_trusted
from .prefixes import address_key

log = logging.getLogger("dominion.server")
WARN_EVERY_SECONDS = 60.0
"""A warning about one address's connections is logged at most this often."""
FORGET_FROM = 4096
"""Addresses remembered by `Warnings` before those warned long enough ago are dropped."""
SLOW_STOP_SECONDS = 20.0
"""A stop still going after this long logs what each of its tasks awaits: a stop that
never ends is otherwise silent (the loop is idle, and a stack dump shows only the loop)."""


class Warnings:
    """Logs a warning about an address at most once per interval per message, so that
    an attacker cannot flood the log; the next one says how many were not logged."""

    def __init__(self, interval: float = WARN_EVERY_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._interval, self._clock = interval, clock
        self._last: dict[tuple[str, str], tuple[float, int]] = {}
        """(message, address key) -> when it was last logged, and how often since."""

    def warn(self, message: str, key: str) -> None:
        now = self._clock()
        last, unlogged = self._last.get((message, key), (-self._interval, 0))
        if now - last < self._interval:
            self._last[message, key] = (last, unlogged + 1)
            return
        if len(self._last) >= FORGET_FROM:
            self._last = {seen: held for seen, held in self._last.items()
                          if now - held[0] < self._interval}
        self._last[message, key] = (now, 0)
        log.warning(message, extra={"address": key, "unlogged_since": unlogged})


def _refusal() -> bytes:
    body = json.dumps(error_body(ErrorCode.TOO_MANY_CONNECTIONS,
                                 "too many connections from your address"))
    return (b"HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\n"
            b"Connection: close\r\nContent-Length: %d\r\n\r\n%s"
            % (len(body), body.encode()))


REFUSAL = _refusal()
"""What a connection beyond the cap gets, whatever it sends: a 429 and the end."""


class ConnectionCount:
    """The open plain HTTP connections of each address key."""

    def __init__(self, settings: Settings, warnings: Warnings) -> None:
        self._settings, self._warnings = settings, warnings
        self._open: dict[str, int] = {}
        self._keys: dict[asyncio.BaseTransport, str] = {}

    def admit(self, transport: asyncio.BaseTransport) -> bool:
        """Count a new connection, or refuse it (False) if its address has as many as
        allowed already."""
        settings = self._settings
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "unknown"
        if _is_trusted(address, settings.trusted_proxies):
            return True
        key = address_key(address, settings.ipv4_prefix, settings.ipv6_prefix)
        if self._open.get(key, 0) >= settings.http_connections_per_address:
            self._warnings.warn("refused HTTP connections beyond the address's limit", key)
            return False
        self._open[key] = self._open.get(key, 0) + 1
        self._keys[transport] = key
        return True

    def release(self, transport: asyncio.BaseTransport) -> None:
        """The connection closed, or became a WebSocket (counted apart): uncount it."""
        key = self._keys.pop(transport, None)
        if key is None:
            return
        self._open[key] -= 1
        if not self._open[key]:
            del self._open[key]

    def __len__(self) -> int:
        return len(self._keys)




class _Counted(asyncio.Protocol):
    """aiohttp's protocol for one connection, made only once the connection is admitted."""

    __slots__ = ("_count", "_inner", "_make", "_transport")

    def __init__(self, make: Callable[[], RequestHandler], count: ConnectionCount) -> None:
        self._make, self._count = make, count
        self._inner: RequestHandler | None = None
        self._transport: asyncio.BaseTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if not self._count.admit(transport):
            # (uvloop's transports are not asyncio.WriteTransport instances)
            cast(asyncio.WriteTransport, transport).write(REFUSAL)
            transport.close()
            return
        self._transport, self._inner = transport, self._make()
        self._inner.connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._inner is not None and self._transport is not None:
            self._count.release(self._transport)
            self._inner.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._inner is not None:
            self._inner.data_received(data)

    def eof_received(self) -> None:  # None: the transport closes, as aiohttp's does
        if self._inner is not None:
            self._inner.eof_received()

    def pause_writing(self) -> None:
        if self._inner is not None:
            self._inner.pause_writing()

    def resume_writing(self) -> None:
        if self._inner is not None:
            self._inner.resume_writing()


class CountingSite(web.SockSite):
    """A site on a bound socket whose every connection is counted (`ConnectionCount`)
    first."""

    __slots__ = ("_count",)

    def __init__(self, runner: web.AppRunner, sock: socket.socket) -> None:
        super().__init__(runner, sock)
        self._count = runner.app[STATE].connection_count

    async def start(self) -> None:
        self._runner._reg_site(self)
        server = self._runner.server
        assert server is not None
        self._server = await asyncio.get_running_loop().create_server(
            lambda: _Counted(server, self._count), sock=self._sock, backlog=self._backlog)


async def _serve(app: web.Application, sockets: Sequence[socket.socket],
                 on_listening: Callable[[], None], shutdown_timeout: float) -> None:
    runner = web.AppRunner(app, handle_signals=True, access_log=None,
                           shutdown_timeout=shutdown_timeout)
    await runner.setup()
    try:
        for sock in sockets:
            await CountingSite(runner, sock).start()
        on_listening()
        while True:
            await asyncio.sleep(3600)
    finally:
        await runner.cleanup()


def run(app: web.Application, sockets: Sequence[socket.socket],
        loop: asyncio.AbstractEventLoop, on_listening: Callable[[], None],
        shutdown_timeout: float) -> None:
    """Serve `app` on the bound `sockets` until SIGTERM or SIGINT, as `web.run_app` would:
    then stop accepting, shut the application down (its on_shutdown, then its cleanup),
    cancel what is left and close the loop. A failure to start is raised."""
    main: asyncio.Task[None] = loop.create_task(_serve(app, sockets, on_listening,
                                                       shutdown_timeout))
    try:
        asyncio.set_event_loop(loop)
        with contextlib.suppress(web.GracefulExit, KeyboardInterrupt):
            loop.run_until_complete(main)
    finally:
        slow = loop.call_later(SLOW_STOP_SECONDS, _say_what_the_stop_waits_for, loop)
        try:
            if not main.done():
                main.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    loop.run_until_complete(main)
        finally:
            _cancel_the_rest(loop)
            loop.run_until_complete(loop.shutdown_asyncgens())
            slow.cancel()
            loop.close()


def _say_what_the_stop_waits_for(loop: asyncio.AbstractEventLoop) -> None:
    for task in asyncio.all_tasks(loop):
        log.warning("the stop is slow: a task waits", extra={
            "task": task.get_name(), "awaiting": awaiting(task)})


def awaiting(task: asyncio.Task[object]) -> list[str]:
    """Where a suspended task waits, outermost first: each coroutine of its await chain
    (`Task.get_stack` gives only the outermost one)."""
    chain: list[str] = []
    step: object = task.get_coro()
    while step is not None:
        frame = getattr(step, "cr_frame", None) or getattr(step, "gi_frame", None)
        if frame is not None:
            chain.append(f"{frame.f_code.co_filename}:{frame.f_lineno} "
                         f"{frame.f_code.co_name}")
        step = getattr(step, "cr_await", None) or getattr(step, "gi_yieldfrom", None)
    return chain


def _cancel_the_rest(loop: asyncio.AbstractEventLoop) -> None:
    left = asyncio.all_tasks(loop)
    for task in left:
        task.cancel()
    loop.run_until_complete(asyncio.gather(*left, return_exceptions=True))
