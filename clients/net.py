"""A small asyncio client of protocol version 2 (docs/PROTOCOL.md), for the CLI and the
bots.

    async with Client("ws://127.0.0.1:8080/api/v1/ws", name="my-bot/1") as client:
        state = await client.join(game, token)      # ack, then a snapshot
        while not state.over:
            message = await client.next_push()      # updates, game_over, chat...
            ...
            await client.answer(game, decision_id, [option_id])

What it does for you:

- `hello` offering version 2, the one it speaks (the server also speaks version 1, for
  older clients: this one relies on the `view` of version 2's `update`), and the
  server's `limits` kept in `client.welcome`. The server pushes one `update` per
  change (its events, the decision now pending and the game as it now stands);
  `events_of(push)` gives its numbered events;
- request ids counted from 1 on each connection; `request` sends one and waits for
  its `ack` (returned) or `error` (raised as `ServerError` with the stable `code`);
  frames that arrive meanwhile are pushes and are queued, in order;
- one `GameState` per joined or watched game, kept current from the views of
  snapshots and updates (`client.games[game_id]`), before the push is handed out;
- after a dropped connection: reconnect with a growing delay (`Backoff`: at most
  `RECONNECT_MAX_DELAY`, so a restarted server is found again within seconds), `hello`
  again and `resume` every game from the last event held (the server sends the missed events
  and the pending decision, or a fresh snapshot). Requests in flight when the
  connection dropped raise `ConnectionLost`; answer the decision again once it is
  pushed again.

Frames are encoded and decoded only with `dominion.protocol`; nothing here needs
the engine.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from types import TracebackType
from typing import Any

import aiohttp

from dominion.protocol import (
    SUBPROTOCOLS,
    SUPPORTED_VERSIONS,
    Ack,
    Answer,
    Catalogue,
    Chat,
    ChatLine,
    ClientMessage,
    ClockState,
    CloseCode,
    Error,
    GameAbandoned,
    GameOver,
    Hello,
    Join,
    Leave,
    ProtocolError,
    Resign,
    Resume,
    ServerMessage,
    Snapshot,
    Update,
    Watch,
    Welcome,
    decode_server,
    encode_client,
)

from .i18n import _
from .state import GameState, numbered

log = logging.getLogger("dominion.client")
CLIENT_NAME = "dominion-reference-client/0.1"
NO_RECONNECT = {CloseCode.REPLACED, CloseCode.UNSUPPORTED_VERSION, CloseCode.PROTOCOL_ERROR}
"""Close codes after which reconnecting would not help (docs/PROTOCOL.md, section 11)."""
CLIENT_VERSIONS = (2,)
"""The protocol versions this client speaks: version 1's pushes carry no views."""
SUBPROTOCOL_OF = dict(zip(SUPPORTED_VERSIONS, SUBPROTOCOLS, strict=True))
"""Each version's WebSocket subprotocol name."""
RECONNECT_FIRST_DELAY = 0.25
"""The bound of the first wait before reconnecting; it doubles after each failure."""
RECONNECT_MAX_DELAY = 4.0
"""The longest wait between two tries to reconnect: a server back from a crash or a
restart is reached again within it. A failed try costs the server nothing (it is down)."""


def events_of(push: ServerMessage) -> Iterator[tuple[int, dict[str, Any]]]:
    """The events a push carries, as (number, event): every event of an `update`, none
    for anything else."""
    if isinstance(push, Update):
        yield from numbered(push.seq, push.events)


class ServerError(Exception):
    """The server refused a request with an `error` frame."""

    def __init__(self, code: str, message: str, retry_after_ms: int | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.retry_after_ms = retry_after_ms
        """With `rate_limited`: when the server carries out a pipelined request again."""


class ConnectionLost(Exception):
    """The connection dropped before the request was answered."""


class Closed(Exception):
    """The client is closed for good (closed by us, or the server said not to come back)."""


def websocket_url(server: str, game: str | None = None) -> str:
    """`http://host:port` (a server's base URL) -> `ws://host:port/api/v1/ws`, and with
    `game` the game's `ws_url` (`...?game=ID`): several nodes behind one address route
    the socket to the node that owns the game (docs/PROTOCOL.md, section 1)."""
    if server.startswith(("ws://", "wss://")):
        return server
    base = server.rstrip("/")
    query = "" if game is None else f"?game={game}"
    if base.startswith("https://"):
        return "wss://" + base[len("https://"):] + "/api/v1/ws" + query
    if base.startswith("http://"):
        return "ws://" + base[len("http://"):] + "/api/v1/ws" + query
    return "ws://" + base + "/api/v1/ws" + query


class Backoff:
    """The waits between tries to reconnect: each drawn at random from zero up to a bound
    that doubles from `first` to `most` ("full jitter": the clients of a restarted server
    come back spread over the whole bound, not all at once)."""

    def __init__(self, first: float = RECONNECT_FIRST_DELAY,
                 most: float = RECONNECT_MAX_DELAY,
                 draw: Callable[[], float] = random.random) -> None:
        self.first, self.most = min(first, most), most
        self.bound = self.first
        self._draw = draw
        self.tries = 0
        """Tries to reconnect over the client's life (each one waited first)."""
        self.longest = 0.0
        """The longest wait drawn so far."""

    def next(self) -> float:
        """The wait before the next try."""
        wait = self.bound * self._draw()
        self.bound = min(self.bound * 2, self.most)
        self.tries += 1
        self.longest = max(self.longest, wait)
        return wait

    def reset(self) -> None:
        """Connected: the next drop starts from the shortest wait again."""
        self.bound = self.first


class Client:
    """One WebSocket session (reconnected as needed) holding any number of games."""

    def __init__(self, url: str, *, name: str = CLIENT_NAME, reconnect: bool = True,
                 max_delay: float = RECONNECT_MAX_DELAY,
                 session: aiohttp.ClientSession | None = None,
                 game: str | None = None, headers: Mapping[str, str] | None = None) -> None:
        self.url = websocket_url(url, game)
        """With `game`, the socket goes to that game's node (its other games must live
        there too)."""
        self.name = name
        self._headers = dict(headers or {})
        """The upgrade's headers: an access token's `Authorization` signs the socket in."""
        self.versions = CLIENT_VERSIONS
        self.reconnect = reconnect
        self.backoff = Backoff(most=max_delay)
        self.games: dict[str, GameState] = {}
        self.welcome: Welcome | None = None
        self.reconnects = 0
        self._session = session
        self._own_session = session is None
        self._ws: aiohttp.ClientWebSocketResponse | None = None
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[ServerMessage]] = {}
        self._seating: dict[int, GameState] = {}
        """Join and resume requests in flight: their ack's seat is the game's viewer
        before any push that follows the ack is applied."""
        self._pushes: asyncio.Queue[ServerMessage | BaseException] = asyncio.Queue()
        self._reader: asyncio.Task[None] | None = None
        self._connected = asyncio.Event()
        self._closed = False
        self._failure: BaseException | None = None

    async def __aenter__(self) -> Client:
        await self.connect()
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        trace: TracebackType | None) -> None:
        await self.close()

    # -- the connection ---------------------------------------------------------

    async def connect(self) -> Welcome:
        """Open the WebSocket and say hello (raises on failure; no retry)."""
        if self._session is None:
            self._session = aiohttp.ClientSession()
        welcome = await self._open()
        self._reader = asyncio.ensure_future(self._read_forever())
        return welcome

    async def _open(self) -> Welcome:
        assert self._session is not None
        protocols = tuple(SUBPROTOCOL_OF[version] for version in self.versions)
        ws = await self._session.ws_connect(self.url, protocols=protocols, autoping=True,
                                            heartbeat=None, max_msg_size=0,
                                            headers=self._headers)
        self._ids = itertools.count(1)  # request ids start afresh on each connection
        request_id = next(self._ids)
        await ws.send_bytes(encode_client(Hello(id=request_id, versions=self.versions,
                                                client=self.name[:100])))
        message = await ws.receive(timeout=30)
        if message.type is not aiohttp.WSMsgType.BINARY:
            await ws.close()
            raise ConnectionLost(_("no welcome (the server sent {kind})").format(
                kind=message.type.name))
        reply = decode_server(message.data)
        if isinstance(reply, Error):
            await ws.close()
            raise ServerError(reply.code, reply.message)
        if not isinstance(reply, Welcome):
            await ws.close()
            raise ConnectionLost(_("expected welcome, got {kind}").format(
                kind=type(reply).__name__))
        self.welcome = reply
        self._ws = ws
        self._connected.set()
        return reply

    async def close(self) -> None:
        """Close for good: no reconnect; waiting callers get `Closed`."""
        self._closed = True
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        self._fail_waiting(Closed(_("the client was closed")))
        self._pushes.put_nowait(Closed(_("the client was closed")))
        if self._own_session and self._session is not None:
            await self._session.close()

    async def _read_forever(self) -> None:
        try:
            while True:
                ws = self._ws
                assert ws is not None
                code = await self._read(ws)
                self._connected.clear()
                self._fail_waiting(ConnectionLost(_("the connection closed ({code})").format(
                    code=code)))
                if self._closed:
                    return
                if not self.reconnect or code in NO_RECONNECT:
                    raise Closed(_("the server closed the connection ({code})").format(code=code))
                await self._reconnect()
        except BaseException as error:  # anything fatal reaches the callers
            if not isinstance(error, asyncio.CancelledError):
                self._failure = error
                self._fail_waiting(error)
                self._pushes.put_nowait(error)
            raise

    async def _read(self, ws: aiohttp.ClientWebSocketResponse) -> int | None:
        """Read frames until the connection ends; return its close code."""
        async for message in ws:
            if message.type is not aiohttp.WSMsgType.BINARY:
                continue  # the server sends only binary frames
            try:
                frame = decode_server(message.data)
            except ProtocolError as error:  # e.g. a newer server's new message type
                log.info("skipped a frame: %s", error)
                continue
            self._take(frame)
        return ws.close_code

    async def _reconnect(self) -> None:
        while not self._closed:
            await asyncio.sleep(self.backoff.next())
            try:
                await self._open()
            except (TimeoutError, aiohttp.ClientError, OSError, ConnectionLost) as error:
                log.info("reconnect failed: %s", error)
                continue
            self.backoff.reset()
            self.reconnects += 1
            ws = self._ws
            assert ws is not None
            # Resume every game: send them all, then read on (the acks come in order).
            for state in self.games.values():
                if state.over:
                    continue
                await ws.send_bytes(encode_client(Resume(
                    id=next(self._ids), game=state.game, last_seq=state.seq, token=state.token)))
            return

    def _fail_waiting(self, error: BaseException) -> None:
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(error)
        self._waiting.clear()
        self._seating.clear()

    # -- incoming frames --------------------------------------------------------

    def _take(self, frame: ServerMessage) -> None:
        if isinstance(frame, Ack | Error) and frame.id is not None:
            seating = self._seating.pop(frame.id, None)
            if seating is not None and isinstance(frame, Ack) and frame.seat is not None:
                seating.seat = frame.seat
            future = self._waiting.pop(frame.id, None)
            if future is not None:
                if not future.done():
                    future.set_result(frame)
                return
            if isinstance(frame, Error):
                log.info("error for request %s: %s %s", frame.id, frame.code, frame.message)
            return  # the ack of a resume sent while reconnecting
        if isinstance(frame, Error):
            log.warning("the server refused a frame: %s %s", frame.code, frame.message)
            return
        self._update(frame)
        self._pushes.put_nowait(frame)

    def _update(self, frame: ServerMessage) -> None:
        """Keep the game states current (before anyone reads the push)."""
        game = getattr(frame, "game", None)
        state = self.games.get(game) if isinstance(game, str) else None
        if state is None:
            return
        if isinstance(frame, Snapshot):
            state.apply_snapshot(frame.seq, frame.view, clocks_map(frame.clocks))
        elif isinstance(frame, Update):
            state.apply_update(frame.seq, frame.events, frame.decision, frame.view,
                               clocks_map(frame.clocks))
        elif isinstance(frame, GameOver):
            state.result = frame.result
            state.decision = None
        elif isinstance(frame, GameAbandoned):
            state.abandoned = frame.reason
            state.decision = None

    async def next_push(self, timeout: float | None = None) -> ServerMessage:
        """The next push (update, snapshot, chat, game_over, pong). The game's
        `GameState` already includes it (and any push after it)."""
        item = await asyncio.wait_for(self._pushes.get(), timeout)
        if isinstance(item, BaseException):
            self._pushes.put_nowait(item)  # every later call fails the same way
            raise item
        return item

    # -- requests ---------------------------------------------------------------

    async def request(self, message: ClientMessage, timeout: float = 30) -> Ack:
        """Send a request built with `id=client.next_id()`; its ack, or ServerError."""
        if self._failure is not None:
            raise self._failure
        if self._closed:
            raise Closed(_("the client was closed"))
        ws = self._ws
        if ws is None or not self._connected.is_set():
            raise ConnectionLost(_("not connected"))
        future: asyncio.Future[ServerMessage] = asyncio.get_running_loop().create_future()
        self._waiting[message.id] = future
        try:
            await ws.send_bytes(encode_client(message))
        except (ConnectionError, aiohttp.ClientError) as error:
            self._waiting.pop(message.id, None)
            raise ConnectionLost(str(error)) from None
        reply = await asyncio.wait_for(future, timeout)
        if isinstance(reply, Error):
            raise ServerError(reply.code, reply.message, reply.retry_after_ms)
        assert isinstance(reply, Ack)
        return reply

    def next_id(self) -> int:
        return next(self._ids)

    async def wait_connected(self, timeout: float | None = None) -> None:
        await asyncio.wait_for(self._connected.wait(), timeout)

    async def join(self, game: str, token: str) -> GameState:
        """Take a seat; the state fills in when the snapshot arrives (at the start)."""
        state = self.games.setdefault(game, GameState(game=game))
        state.token = token
        request = Join(id=self.next_id(), game=game, token=token)
        self._seating[request.id] = state
        ack = await self.request(request)
        state.seat = ack.seat
        return state

    async def rejoin(self, game: str, token: str) -> GameState:
        """Take a seat with its whole history: `resume` from event 0, so the server sends
        every event as this seat saw it (its own draws included) and the pending
        decision, or a snapshot when the game is too long for that (`state.snapshots`
        then counts it). Before the start it is the same as `join`."""
        state = self.games[game] = GameState(game=game, token=token)
        request = Resume(id=self.next_id(), game=game, last_seq=0, token=token)
        self._seating[request.id] = state
        ack = await self.request(request)
        state.seat = ack.seat
        return state

    async def watch(self, game: str) -> GameState:
        state = self.games.setdefault(game, GameState(game=game))
        state.token = None
        await self.request(Watch(id=self.next_id(), game=game))
        return state

    async def watch_from_start(self, game: str) -> GameState:
        """Watch with the whole history: `resume` from event 0 as a spectator (the events
        a spectator sees, or a snapshot for a game too long to replay)."""
        state = self.games[game] = GameState(game=game)
        await self.request(Resume(id=self.next_id(), game=game, last_seq=0))
        return state

    async def answer(self, game: str, decision: int, options: Sequence[int]) -> Ack:
        return await self.request(Answer(id=self.next_id(), game=game, decision=decision,
                                         options=tuple(options)))

    async def chat(self, game: str, text: str) -> Ack:
        return await self.request(Chat(id=self.next_id(), game=game, text=text))

    async def resign(self, game: str) -> Ack:
        return await self.request(Resign(id=self.next_id(), game=game))

    async def leave(self, game: str) -> Ack:
        ack = await self.request(Leave(id=self.next_id(), game=game))
        self.games.pop(game, None)
        return ack

    async def catalogue(self) -> list[dict[str, Any]]:
        ack = await self.request(Catalogue(id=self.next_id()))
        return list(ack.cards or ())



def clocks_map(clocks: ClockState | None) -> dict[str, Any] | None:
    """A frame's clocks as the game state keeps them (None: the table has no clock)."""
    if clocks is None:
        return None
    return {"remaining_ms": list(clocks.remaining_ms), "running": clocks.running,
            "initial_ms": clocks.initial_ms, "increment_ms": clocks.increment_ms}

__all__ = ["Backoff", "ChatLine", "Client", "Closed", "ConnectionLost", "ServerError", "events_of",
           "websocket_url"]
