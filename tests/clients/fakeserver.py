"""A server that speaks just enough of the protocol to send a client chosen frames:
`hello` gets a welcome, `resume` and `join` an ack and then the frames given, and the
REST lobby serves the card catalogue and the server's limits. It runs in a thread, so
that a client in a pseudo-terminal can connect to it."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from aiohttp import web

from dominion.bots import make_strategy
from dominion.bots.wire import WireDecision
from dominion.protocol import (
    Ack,
    Hello,
    Join,
    Resume,
    ServerInfo,
    ServerLimits,
    ServerMessage,
    Update,
    Welcome,
    decode_client,
    encode_server,
)
from dominion.server.engine import (
    Decision,
    Game,
    Setup,
    catalogue_dict,
    decision_view,
    visible_event,
)
from dominion.server.engine.view import board_views
from dominion.server.play.bots import seat_table

LIMITS = ServerLimits(16384, 50, 100, 30, 60, 500)


@contextmanager
def fake_server(frames: Callable[[], Sequence[ServerMessage]], seat: int | None = None,
                summary: dict[str, Any] | None = None) -> Iterator[str]:
    """The server's base URL while it runs; `summary` is what the lobby says of the game
    (none: it has no such game)."""

    async def websocket(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(protocols=("dominion.v2.msgpack",))
        await ws.prepare(request)
        async for message in ws:
            asked = decode_client(message.data)
            if isinstance(asked, Hello):
                await ws.send_bytes(encode_server(Welcome(
                    id=asked.id, version=2, server=ServerInfo("fake", "1"), limits=LIMITS)))
            elif isinstance(asked, Resume | Join):
                await ws.send_bytes(encode_server(Ack(id=asked.id, seat=seat)))
                for frame in frames():
                    await ws.send_bytes(encode_server(frame, checked=False))
        return ws

    async def cards(request: web.Request) -> web.Response:
        return web.json_response({"editions": catalogue_dict()})

    async def server(request: web.Request) -> web.Response:
        return web.json_response({"limits": {"seat_grace_seconds": 120}})

    async def game(request: web.Request) -> web.Response:
        if summary is None:
            raise web.HTTPNotFound
        return web.json_response(summary)

    loop = asyncio.new_event_loop()
    app = web.Application()
    app.router.add_get("/api/v1/ws", websocket)
    app.router.add_get("/api/v1/cards", cards)
    app.router.add_get("/api/v1/server", server)
    app.router.add_get("/api/v1/games/{game}", game)
    runner = web.AppRunner(app)
    loop.run_until_complete(runner.setup())
    loop.run_until_complete(web.TCPSite(runner, "127.0.0.1", 0).start())
    port = runner.addresses[0][1]
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)


__all__ = ["fake_server"]


def seat_zero_when(kingdom: str, seed: int, game_id: str,
                   ready: Callable[[Game, Decision], bool]) -> list[ServerMessage]:
    """A seeded 2-player game played by two Big Money bots until Ann (seat 0) is asked a
    decision that `ready` accepts; what she has seen of it, as one `update` (what her
    `resume` from event 0 would bring)."""
    game = Game(Setup.create(["Ann", "Bob"], edition=2, kingdom=kingdom), seed=seed)
    strategies = [make_strategy("big_money", random.Random(seat)) for seat in (0, 1)]
    events: list[dict[str, Any]] = []
    while True:
        pending = game.pending
        assert pending is not None
        events += [visible_event(event, 0) for event in game.events[len(events):]]
        if pending.player == 0 and ready(game, pending):
            break
        wire = WireDecision.from_map(decision_view(pending, pending.player))
        game.answer(pending.player, pending.id, strategies[pending.player].choose(
            wire, seat_table(game, pending.player)))
    return [Update(game=game_id, seq=len(events), events=tuple(events),
                   decision=decision_view(pending, 0), view=board_views(game, [0])[0])]
