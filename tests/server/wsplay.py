"""Helpers for the WebSocket play tests: a test server, REST set-up, scripted players.

Fixtures live in the test files (not a conftest), so that other test files of this
folder can add their own without clashing: import `ws_server` from here.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import msgpack
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from dominion.bots import Strategy, make_strategy
from dominion.bots.wire import WireDecision
from dominion.protocol import (
    Ack,
    Answer,
    Error,
    GameEvent,
    GameOver,
    Join,
    PendingDecision,
    Resume,
    ServerMessage,
    Snapshot,
    Update,
    Watch,
)
from dominion.server.edge.app import create_app
from dominion.server.edge.state import STATE, ServerState
from dominion.server.edge.transport.connection import watch_interval
from dominion.server.engine.cards import catalogue
from dominion.server.play.clock import LOOP_CLOCK, Clock
from dominion.server.play.room import Room
from dominion.server.settings import Settings
from dominion.server.storage import Storage, StorageError
from tests.virtual_clock import VirtualClock

from .wsclient import TestClient

WS_PATH = "/api/v1/ws"

FAST = {
    # generous limits and short timers: tests set the ones they exercise (the rate limit
    # keeps its defaults: a correct client never meets it, however fast)
    "heartbeat_seconds": 20,
    "idle_timeout_seconds": 60,
    "hello_timeout_seconds": 5.0,
    "sqlite_synchronous": "NORMAL",
    "seat_grace_seconds": 60.0,
    "connections_per_address": 1000,
    "games_per_address": 1000,
    "games_per_hour": 100_000,
    "chat_per_minute": 100_000,
}


@dataclass
class Site:
    """A running test server and a client session to reach it."""

    server: TestServer
    app: web.Application
    session: aiohttp.ClientSession
    version: int = 1
    """The protocol version its connections speak unless told otherwise."""

    @property
    def ws_url(self) -> str:
        return str(self.server.make_url(WS_PATH))

    def url(self, path: str) -> str:
        return str(self.server.make_url(path))

    def room(self, game_id: str) -> Room:
        return self.app[STATE].lobby.room(game_id)

    def app_state(self) -> ServerState:
        return self.app[STATE]

    async def connect(self, *, hello: bool = True, version: int | None = None) -> TestClient:
        return await TestClient.connect(self.session, self.ws_url, hello=hello,
                                        version=version or self.version)

    async def create(self, seats: int = 2, bots: Mapping[int, str] | None = None,
                     kingdom: Any = "First Game", name: str = "Ann",
                     edition: int | None = None) -> tuple[str, str]:
        """Create a table over REST; the game id and seat 0's token."""
        body: dict[str, Any] = {"name": name, "seats": seats, "kingdom": kingdom,
                                "bots": {str(k): v for k, v in (bots or {}).items()}}
        if edition is not None:
            body["edition"] = edition
        async with self.session.post(self.url("/api/v1/games"), json=body) as response:
            reply = await response.json()
            assert response.status == 201, reply
        return reply["game"]["id"], reply["token"]

    async def join(self, game_id: str, name: str) -> tuple[int, str]:
        async with self.session.post(self.url(f"/api/v1/games/{game_id}/join"),
                                     json={"name": name}) as response:
            reply = await response.json()
            assert response.status == 200, reply
        return reply["seat"], reply["token"]


ServerFactory = Callable[..., Awaitable[Site]]


@pytest.fixture
async def ws_server(aiohttp_server: Any, tmp_path: Path) -> AsyncIterator[ServerFactory]:
    """`await ws_server(**settings)`: a started server with the FAST settings overridden;
    `clock=` a virtual clock its timers run on (tests/virtual_clock.py). Moved past
    `heartbeat_seconds` or `idle_timeout_seconds` at once, it pings or closes the
    connections that sent nothing meanwhile, as a real one would."""
    sessions: list[aiohttp.ClientSession] = []

    async def start(clock: Clock = LOOP_CLOCK, **overrides: Any) -> Site:
        values = dict(FAST, db=str(tmp_path / f"x{len(sessions)}.sqlite3")) | overrides
        app = create_app(Settings(**values), clock=clock)
        server = await aiohttp_server(app)
        await app[STATE].lobby.all_restored()  # a restart's games rebuild in the background
        session = aiohttp.ClientSession()
        sessions.append(session)
        return Site(server, app, session)

    yield start
    for session in sessions:
        await session.close()


# -- a scripted network player ----------------------------------------------------------

_COSTS = {**{c: card.cost for c, card in catalogue(1).items()},
          **{c: card.cost for c, card in catalogue(2).items()}}


class WireTable:
    """What a network client knows, enough for the Big Money strategies."""

    def __init__(self) -> None:
        self.supply_left: dict[str, int] = {}
        self.decision: Mapping[str, Any] | None = None
        self.own: dict[str, int] = {}

    @property
    def coins(self) -> int:
        # the dearest card on offer is a lower bound of the coins, which is enough
        decision = self.decision or {}
        costs = [_COSTS.get(o["card"], 0) for o in decision.get("options", ())
                 if o["kind"] == "buy"]
        return max(costs, default=0)

    def supply(self, card: str) -> int:
        return self.supply_left.get(card, 0)

    def owned(self, card: str) -> int:
        return self.own.get(card, 0)


@dataclass
class Player:
    """One connection playing one seat (or watching, `seat` None) until game over.

    It checks what every client must see: events numbered without gaps, options only
    in its own decisions, no other seat's hand. Every frame is kept in `frames`. It
    speaks the version of its connection (v1 `event`/`decision` frames, v2 `update`).
    """

    client: TestClient
    game: str
    seat: int | None
    strategy: Strategy | None = None
    seq: int = 0
    frames: list[ServerMessage] = field(default_factory=list)
    result: dict[str, Any] | None = None
    table: WireTable = field(default_factory=WireTable)
    answered: int = 0
    seqs: list[int] = field(default_factory=list)
    raced: bool = False
    """Allow answers refused as stale: a bot that was playing this seat may have had an
    answer on its way when the player took the seat back (a newer decision follows)."""

    @classmethod
    async def join(cls, site: Site, game: str, token: str, strategy: str = "big_money",
                   rng: random.Random | None = None, version: int | None = None) -> Player:
        client = await site.connect(version=version)
        reply = await client.request(Join, game=game, token=token)
        assert isinstance(reply, Ack) and reply.seat is not None, reply
        return cls(client, game, reply.seat, make_strategy(strategy, rng or random.Random()))

    @classmethod
    async def watch(cls, site: Site, game: str, version: int | None = None) -> Player:
        client = await site.connect(version=version)
        reply = await client.request(Watch, game=game)
        assert isinstance(reply, Ack) and reply.seat is None, reply
        return cls(client, game, None)

    async def resume(self, site: Site, token: str | None) -> ServerMessage:
        """Reconnect on a new connection and resume from the last event held."""
        self.client = await site.connect()
        reply = await self.client.request(Resume, game=self.game, last_seq=self.seq,
                                          token=token)
        assert isinstance(reply, Ack), reply
        assert reply.seat == self.seat
        return reply

    async def step(self, timeout: float = 10) -> ServerMessage:
        """Take one push, check it, and answer it if it is this seat's decision."""
        message = await self.client.push(timeout)
        self.frames.append(message)
        self.check(message)
        match message:
            case Snapshot(seq=seq, view=view):
                self.seq = seq
                self.table.supply_left = dict(view["supply"])
                if view["decision"] is not None:
                    await self.answer(view["decision"])
                elif view["result"] is not None:
                    self.result = view["result"]
            case GameEvent(seq=seq, event=event):
                self._event(seq, event)
            case PendingDecision(decision=decision):
                await self.answer(decision)
            case Update(seq=seq, events=events, decision=decision):
                for number, event in enumerate(events, seq - len(events) + 1):
                    self._event(number, event)
                assert self.seq == seq, f"seat {self.seat}: update to {seq} at {self.seq}"
                if decision is not None:
                    await self.answer(decision)
            case GameOver(result=result):
                self.result = result
        return message

    def _event(self, seq: int, event: Mapping[str, Any]) -> None:
        assert seq == self.seq + 1, f"seat {self.seat}: event {seq} after {self.seq}"
        self.seq = seq
        self.seqs.append(seq)
        if event["kind"] in ("bought", "gained") and "cards" in event:
            for card in event["cards"]:
                self.table.supply_left[card] = self.table.supply_left.get(card, 1) - 1
                if event.get("player") == self.seat:
                    self.table.own[card] = self.table.own.get(card, 0) + 1

    def check(self, message: ServerMessage) -> None:
        match message:
            case Snapshot(view=view):
                assert view["viewer"] == self.seat
                for player in view["players"]:
                    if player["seat"] != self.seat:
                        assert "hand" not in player and "deck_size" not in player
                        assert "looking" not in player
                decision = view["decision"]
                if decision is not None:
                    assert ("options" in decision) == (decision["player"] == self.seat)
            case PendingDecision(decision=decision) | Update(decision=decision) \
                    if decision is not None:
                assert ("options" in decision) == (decision["player"] == self.seat), decision

    async def answer(self, decision: Mapping[str, Any]) -> None:
        if decision["player"] != self.seat or self.strategy is None:
            return
        self.table.decision = decision
        choice = self.strategy.choose(WireDecision.from_map(decision), self.table)
        reply = await self.client.request(Answer, game=self.game, decision=decision["id"],
                                          options=choice)
        if self.raced and isinstance(reply, Error) and reply.code == "stale_decision":
            return
        assert isinstance(reply, Ack), (reply, decision, choice)
        self.answered += 1

    async def play(self, timeout: float = 10, until: Callable[[Player], bool] | None = None,
                   ) -> dict[str, Any] | None:
        """Play (or watch) until game over, or until `until` holds; the result."""
        while self.result is None:
            if until is not None and until(self):
                return None
            await self.step(timeout)
        return self.result


def fail_writes(monkeypatch: pytest.MonkeyPatch, storage: Storage, method: str,
                times: int = 0) -> dict[str, int]:
    """Make `storage.<method>` raise a disk I/O error its next `left` times (the returned
    count, which a test may set at any time); after that it writes again."""
    real = getattr(storage, method)
    left = {"left": times}

    async def flaky(*args: Any, **kwargs: Any) -> None:
        if left["left"]:
            left["left"] -= 1
            raise StorageError("disk I/O error")
        await real(*args, **kwargs)

    monkeypatch.setattr(storage, method, flaky)
    return left


async def expect_error(client: TestClient, kind: type, code: str, **fields: Any) -> Error:
    """Send a request; it must be refused with `code`.

    `TestClient.request` returns only the reply carrying the request's id, so the
    error's id is checked too.
    """
    reply = await client.request(kind, **fields)
    assert isinstance(reply, Error), reply
    assert reply.code == code, reply
    return reply


async def settle(seconds: float = 0.05) -> None:
    await asyncio.sleep(seconds)


async def raw_request(client: TestClient, frame: Any) -> ServerMessage:
    """Send any msgpack value (or raw bytes) as a frame; the next ack or error."""
    data = frame if isinstance(frame, bytes) else msgpack.packb(frame)
    await client.ws.send_bytes(data)
    while True:
        reply = await client.receive()
        assert reply is not None, "the connection closed"
        if isinstance(reply, Ack | Error):
            return reply
        client.pushes.append(reply)


async def watched(site: Site, clock: VirtualClock, seconds: float) -> None:
    """`clock` moved `seconds` on, a sweep of the connections' watchdog at a time
    (server/edge/connection.py), each sweep over before the next."""
    await clock.run(seconds, watch_interval(site.app_state().settings))


async def close_code_sent(client: TestClient, timeout: float = 10) -> int:
    """Read until the server's close frame; the code it carries.

    (aiohttp's `close_code` turns into 1006 when the client's reply to the close frame
    cannot be written; what matters is the code the server sent.)
    """
    async def read() -> int:
        while True:
            message = await client.ws.receive()
            if message.type is aiohttp.WSMsgType.CLOSE:
                return int(message.data)
            if message.type in (aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
                code = client.ws.close_code
                assert code is not None, message
                return code
    return await asyncio.wait_for(read(), timeout)
