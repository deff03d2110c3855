"""One WebSocket connection: the handshake, then one task reading requests.

The reader handles requests one at a time, in order. Everything outbound goes
through the connection's bounded `Outbox`, which never blocks: a slow client never
stalls a game, and one that lets its outbox fill up is disconnected (close code 4004).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from functools import cache
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from dominion.protocol import (
    SUPPORTED_VERSIONS,
    Ack,
    Answer,
    Catalogue,
    Chat,
    ChatLine,
    ClientMessage,
    CloseCode,
    Error,
    ErrorCode,
    Hello,
    Join,
    Leave,
    MatchAccept,
    MatchDecline,
    Ping,
    Pong,
    ProtocolError,
    RematchAnswer,
    RematchOffer,
    Resign,
    Resume,
    Seek,
    SeekCancel,
    ServerInfo,
    ServerLimits,
    ServerMessage,
    Watch,
    Welcome,
    decode_client,
    encode_server,
    error_for,
)

from ...accounts import Account
from ...accounts.access_tokens import AccessTokens, invalid, play_scope
from ...accounts.store import AccessToken
from ...automatch import Automatch
from ...engine.cards import all_cards
from ...play.clock import LOOP_CLOCK, Clock, sleep
from ...play.room import Room
from ...play.seats import Seat
from ...play.text import check_chat
from ...refusal import Refusal
from ...storage import GameState
from .bearer_header import bearer_of
from .outbox import Outbox
from .ratelimit import FrameLimiter

if TYPE_CHECKING:
    from ...settings import Settings
    from ..state import ServerState

log = logging.getLogger("dominion.connection")
MALFORMED_IN_A_ROW = 10
"""Malformed frames in a row after which the connection is closed (4000); frames of an
unknown type are not malformed (a newer client may try a newer request)."""
CLOSE_TIMEOUT = 2.0
YIELD_AFTER_CPU_SECONDS = 0.001
"""A request that took more CPU than this without letting the event loop run is followed
by a pause for it."""


class Connection:
    __slots__ = ("_authorization", "_closer", "_closing", "_greeted", "_last_input",
                 "_limiter", "_malformed", "_now", "_opened", "_outbox", "_rooms", "_session",
                 "_token", "_tokens", "_work", "account", "address", "session_hash", "state",
                 "token_id", "version", "ws")

    def __init__(self, ws: web.WebSocketResponse, state: ServerState, address: str,
                 transport: asyncio.WriteTransport, tokens: AccessTokens,
                 authorization: str | None = None,
                 session: tuple[bytes, Account] | None = None) -> None:
        self.ws = ws
        self.state = state
        self.address = address
        """The key of the client's address (`prefixes.py`): what its limits count by."""
        self._tokens = tokens
        self._authorization = authorization
        """The upgrade request's Authorization header, until the hello has checked it."""
        self._session = session
        """The session (its hash) the upgrade's cookie signs in by, without a token, and
        its account (app.py)."""
        self.account: Account | None = None
        """The account an access token (bearer.py), or else the session, signed the
        connection in as."""
        self.token_id: int | None = None
        """That token's id: revoked, it closes the connection (moderation_watch.py)."""
        self._token: AccessToken | None = None
        """That token: expired, it closes the connection (`watch`)."""
        self.session_hash: bytes | None = None
        """Or the hash of the session that signed it in (never its secret): ended or
        expired, it closes the connection (moderation_watch.py)."""
        settings = state.settings
        self._now = state.clock.now
        """The timers' clock: the hello, idle and heartbeat deadlines count on it."""
        self._outbox = Outbox(transport, max_frames=settings.outbound_queue,
                              max_bytes=settings.outbound_bytes, waiting=state.waiting,
                              on_overflow=self._too_slow, now=self._now)
        self._limiter = FrameLimiter(settings.messages_per_second, settings.burst)
        self._rooms: dict[str, Room] = {}
        self._work = state.budgets.allowance("work")
        """This connection's own allowance of costly work (its address has another)."""
        self._malformed = 0
        self._closing = False
        self._closer: asyncio.Future[None] | None = None
        self._opened = self._last_input = self._now()
        self._greeted = False
        self.version = SUPPORTED_VERSIONS[0]
        """The protocol version agreed in the handshake."""

    # -- Subscriber ---------------------------------------------------------------

    def push(self, frame: bytes) -> None:
        if not self._closing:
            self._outbox.push(frame)

    def replaced(self, reason: str) -> None:
        self.close_soon(CloseCode.REPLACED, reason)

    def send(self, message: ServerMessage) -> None:
        self.push(encode_server(message))

    def _reply(self, frame: bytes) -> None:
        """Queue the answer to the request being handled (its ack, error or welcome)."""
        self._limiter.replied(self._outbox.writes)
        self.push(frame)

    def _too_slow(self) -> None:
        self.close_soon(CloseCode.TOO_SLOW, "too slow: too much is waiting for you to read")

    def close_soon(self, code: int, reason: str) -> None:
        """Close from outside the reader (slow reader, replaced seat, shutdown, limits)."""
        if self._closing:
            return
        self._closing = True
        self.state.metrics.disconnects.labels(code=str(code)).inc()
        if code == CloseCode.TOO_SLOW:
            self._outbox.close()
        else:
            # what was queued before the close (the error that explains it, say) goes
            # out first; the close frame follows it in the same transport buffer
            self._outbox.flush()
            self._outbox.close()
        self._closer = asyncio.ensure_future(self._close(code, reason))

    async def wait_closed(self) -> None:
        """Wait until a close begun by `close_soon` has been sent (or has timed out)."""
        if self._closer is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(self._closer)

    async def _close(self, code: int, reason: str) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.ws.close(code=code, message=reason.encode()),
                                   CLOSE_TIMEOUT)

    # -- the connection's life ------------------------------------------------------

    def watch(self, now: float) -> None:
        """Called every `watch_interval` seconds: the hello and idle deadlines, and the
        heartbeat (a WebSocket ping and a `pong` push after `heartbeat_seconds` without
        output). One sweep over all connections rather than a timer or a receive timeout
        each: nothing to arm per frame, and less memory per connection."""
        if self._closing:
            return
        settings = self.state.settings
        if not self._greeted:
            if now >= self._opened + settings.hello_timeout_seconds:
                self.close_soon(CloseCode.HANDSHAKE_TIMEOUT, "no hello in time")
        elif now >= self._last_input + settings.idle_timeout_seconds:
            self.close_soon(CloseCode.IDLE_TIMEOUT, "idle timeout")
        elif self._token is not None and self._tokens.expired(self._token):
            self.close_soon(CloseCode.UNAUTHORIZED, "the access token has expired")
        elif now >= self._outbox.last_write + settings.heartbeat_seconds:
            self._outbox.ping()
            self.send(Pong())

    async def serve(self) -> None:
        """Read frames until the connection ends: hello first, then requests, each one
        handled before the next is read. WebSocket pings are answered here and pongs count
        as input (autoping is off so that the idle deadline sees them)."""
        ws, turns = self.ws, self.state.turns
        try:
            while not self._closing:
                message = await ws.receive()
                if self._outbox.peer_gone:
                    return  # whatever the client queued before it left is owed no work
                self._last_input = self._now()
                kind = message.type
                if kind is WSMsgType.BINARY:
                    if self._greeted:
                        mark, started = turns.mark(), time.thread_time()
                        await self._request(message.data)
                        # Frames already received are read without a pause: after a costly
                        # one, yield, so that a client that queued many cannot keep other
                        # connections, timers and signal handlers (SIGTERM) from running.
                        # A request that waited (an answer waits for its commit) has let
                        # the loop run, and its CPU clock counted the others' work since.
                        # (CPU time: a busy machine must not make cheap frames look costly;
                        # each reading is a system call, so the second only if needed.)
                        if turns.count == mark \
                                and time.thread_time() - started > YIELD_AFTER_CPU_SECONDS:
                            await asyncio.sleep(0)
                    else:
                        await self._hello(message.data)
                elif kind is WSMsgType.PING:
                    await ws.pong(message.data)
                elif kind is not WSMsgType.PONG:
                    if kind is WSMsgType.TEXT:
                        self.close_soon(CloseCode.PROTOCOL_ERROR, "frames are binary msgpack")
                    elif kind is WSMsgType.ERROR:
                        self.close_soon(CloseCode.MESSAGE_TOO_BIG, "frame too large")
                    return
        finally:
            if self.state.automatch is not None:
                self.state.automatch.disconnected(self)
            for room in self._rooms.values():
                room.unsubscribe(self)
            self._rooms.clear()
            self._outbox.flush()
            self._closing = True
            if self._closer is not None:
                # finish the close handshake (bounded by CLOSE_TIMEOUT) before the handler
                # returns and aiohttp drops the socket: otherwise the client may never read
                # the close code (it sees 1006)
                with contextlib.suppress(Exception):
                    await self._closer

    async def _hello(self, data: bytes) -> None:
        """The first frame: a hello with a version in common (and a good access token, if
        it or the upgrade's Authorization header names one), or the connection closes."""
        settings = self.state.settings
        try:
            message = decode_client(data, settings.max_frame_bytes)
        except ProtocolError as error:
            self._reply(encode_server(error_for(error)))
            self.close_soon(CloseCode.PROTOCOL_ERROR, "the first frame must be hello")
            return
        if not isinstance(message, Hello):
            self._error(message.id, ErrorCode.HELLO_REQUIRED, "say hello first")
            self.close_soon(CloseCode.PROTOCOL_ERROR, "the first frame must be hello")
            return
        common = set(message.versions) & set(SUPPORTED_VERSIONS)
        if not common:
            spoken = ", ".join(map(str, SUPPORTED_VERSIONS))
            self._error(message.id, ErrorCode.UNSUPPORTED_VERSION,
                        f"this server speaks versions {spoken}")
            self.close_soon(CloseCode.UNSUPPORTED_VERSION, "no common version")
            return
        try:
            signed_in = await self._signed_in(message.access_token)
        except Refusal as refused:  # its message never repeats the token
            self._error(message.id, refused.code, refused.message)
            self.close_soon(CloseCode.UNAUTHORIZED, "the access token was refused")
            return
        if signed_in is not None:
            self._token, self.account = signed_in
            self.token_id = self._token.id
        elif self._session is not None:  # a ban ends the account's sessions: not banned
            self.session_hash, self.account = self._session
        self._greeted = True
        self.version = max(common)
        self._reply(encode_server(Welcome(
            id=message.id, version=self.version,
            server=ServerInfo(name=settings.server_name, version=self.state.version),
            limits=ServerLimits(
                max_frame_bytes=settings.max_frame_bytes,
                messages_per_second=settings.messages_per_second, burst=settings.burst,
                heartbeat_seconds=settings.heartbeat_seconds,
                idle_timeout_seconds=settings.idle_timeout_seconds,
                max_chat_length=settings.max_chat_length,
            ),
            account=None if self.account is None else self.account.name,
        )))

    async def _signed_in(self, in_hello: str | None) -> tuple[AccessToken, Account] | None:
        """The access token (from hello, or from the upgrade's header: the one a browser
        cannot set) and the account it signs in, which must be good for playing."""
        in_header, self._authorization = bearer_of(self._authorization), None
        if in_hello is not None and in_header is not None and in_hello != in_header:
            raise invalid()
        secret = in_hello if in_hello is not None else in_header
        if secret is None:
            return None
        token, account = await self._tokens.check(secret, play_scope)
        await self._refuse_banned(account.id)  # a banned account's tokens play no more
        return token, account

    async def _request(self, data: bytes) -> None:
        """One frame after hello: within the rate limit, well formed, then handled."""
        retry_after_ms = self._limiter.admit(self._outbox.writes)
        if retry_after_ms is not None and self._limiter.flooding:
            self.close_soon(CloseCode.RATE_LIMITED, "rate limit exceeded")
            return
        try:
            message = decode_client(data, self.state.settings.max_frame_bytes)
        except ProtocolError as error:
            request_id = error.request_id
            if retry_after_ms is None:
                self._refuse(error_for(error))  # before a close, which drops later frames
                self._count_malformed(error)
                return
        else:
            self._malformed = 0
            request_id = message.id
            if retry_after_ms is None:
                await self._handle(message)
                return
        self._refuse(Error(id=request_id, code=ErrorCode.RATE_LIMITED.value,
                           message=f"too many frames sent without waiting for answers; "
                                   f"retry in {retry_after_ms} ms",
                           retry_after_ms=retry_after_ms))

    def _count_malformed(self, error: ProtocolError) -> None:
        """Ten malformed frames in a row close the connection; an unknown type is not
        malformed (a newer client trying a newer request: docs/PROTOCOL.md section 12)."""
        if error.code is ErrorCode.UNKNOWN_TYPE:
            self._malformed = 0
            return
        self._malformed += 1
        if self._malformed >= MALFORMED_IN_A_ROW:
            self.close_soon(CloseCode.PROTOCOL_ERROR, "too many malformed frames")

    # -- requests ------------------------------------------------------------------

    async def _handle(self, message: ClientMessage) -> None:
        try:
            await self._dispatch(message)
        except Refusal as error:
            self._error(message.id, error.code, error.message, error.retry_after_ms)
        except Exception:
            log.exception("request failed", extra={"type": type(message).__name__})
            self._error(message.id, ErrorCode.INTERNAL_ERROR, "the server failed; retry")

    def _error(self, request_id: int | None, code: ErrorCode, message: str,
               retry_after_ms: int | None = None) -> None:
        self._refuse(Error(id=request_id, code=code.value, message=message,
                           retry_after_ms=retry_after_ms))

    def _refuse(self, error: Error) -> None:
        self.state.metrics.errors.labels(code=error.code).inc()
        self._reply(encode_server(error))

    def _answer_stored(self, request_id: int, received: float) -> None:
        """Acknowledge an answer the room stored, and time it from its frame's reading
        (the wait for the room, the check and the commit)."""
        self._ack(request_id)
        self.state.metrics.answer_seconds.observe(time.perf_counter() - received)

    def _ack(self, request_id: int, seat: int | None = None) -> None:
        # unchecked, like the game's frames: its fields are a decoded request id and a
        # seat number, and every answer has one
        self._reply(encode_server(Ack(id=request_id, seat=seat, cards=None), checked=False))

    async def _dispatch(self, message: ClientMessage) -> None:
        lobby = self.state.lobby
        match message:
            case Answer(id=rid, game=game_id, decision=decision, options=options):
                received = time.perf_counter()
                room = self._room(game_id)
                seat = self._seat_in(room)
                if room.game is not None and seat in room.game.resigned:
                    raise Refusal(ErrorCode.ALREADY_RESIGNED,
                                    "you resigned; a bot plays your seat")
                await room.answer(seat, decision, list(options),
                                  lambda: self._answer_stored(rid, received))
            case Join(id=rid, game=game_id, token=token):
                room = await lobby.find(game_id)
                held = room.seat_for(token) if token is not None else await self._take(room)
                await self._refuse_banned(held.account_id)
                self._ack(rid, held.index)
                self._rooms[room.id] = room
                room.subscribe(self, held)
                room.send_snapshot(self)
            case Watch(id=rid, game=game_id):
                room = await lobby.find(game_id)
                self._not_seated_in(room)
                self._ack(rid)
                self._rooms[room.id] = room
                room.subscribe(self, None)
                room.send_snapshot(self)
            case Resume(id=rid, game=game_id, last_seq=last_seq, token=token):
                room = await lobby.find(game_id)
                resumed = room.seat_for(token) if token is not None else self._account_seat(room)
                if resumed is None:
                    self._not_seated_in(room)
                if resumed is not None:
                    await self._refuse_banned(resumed.account_id)
                # paid for before anything is done: a refused resume changes nothing
                limit = int(self.state.budgets.burst("work"))
                self.state.budgets.charge("work", self.address,
                                          room.resume_work(last_seq, resumed, limit),
                                          self._work)
                self._ack(rid, None if resumed is None else resumed.index)
                self._rooms[room.id] = room
                room.subscribe(self, resumed)
                room.send_since(self, last_seq, limit)
            case Resign(id=rid, game=game_id):
                room = self._room(game_id)
                await room.resign(self._seat_in(room), lambda: self._ack(rid))
            case RematchOffer(id=rid, game=game_id, kingdom=kingdom):
                room = self._room(game_id)
                seat = self._seat_in(room)

                def accepted() -> None:  # a new game if all accept: paid for as over REST
                    self.state.budgets.charge("games", self.address, 1)
                    self._ack(rid)
                await room.offer_rematch(seat, kingdom, self.address, accepted)
            case RematchAnswer(id=rid, game=game_id, accept=accept):
                room = self._room(game_id)
                await room.answer_rematch(self._seat_in(room), accept, lambda: self._ack(rid))
            case Chat(id=rid, game=game_id, text=text):
                room = self._room(game_id)
                await self._chat(rid, room, text)
            case Leave(id=rid, game=game_id):
                room = self._room(game_id)
                room.unsubscribe(self)
                del self._rooms[game_id]
                self._ack(rid)
            case Seek(id=rid, sizes=sizes, edition=edition, rated=rated, name=name,
                      token=token):
                self._refuse_seek_while_playing()
                # a seek may make a game: paid for as one over REST
                self.state.budgets.charge("games", self.address, 1)
                await self._automatch().seek(self, self.address, self.account, name, sizes,
                                             edition, rated, token, lambda: self._ack(rid))
            case SeekCancel(id=rid):
                await self._automatch().cancel(self)
                self._ack(rid)
            case MatchAccept(id=rid, table=table):
                await self._automatch().answer(self, table, True, lambda: self._ack(rid))
            case MatchDecline(id=rid, table=table):
                await self._automatch().answer(self, table, False, lambda: self._ack(rid))
            case Ping(id=rid):
                self._ack(rid)
            case Catalogue(id=rid):
                # the server's own catalogue, made once: unchecked, like the game's frames
                self._reply(encode_server(Ack(id=rid, seat=None, cards=_catalogue()),
                                          checked=False))
            case Hello(id=rid):
                self._error(rid, ErrorCode.HELLO_REPEATED, "hello was already said")

    async def _take(self, room: Room) -> Seat:
        """The signed-in account's seat in the game: the one it holds, else a free one."""
        if self.account is None:
            raise Refusal(ErrorCode.NOT_SIGNED_IN, "join with a seat's token, or sign in "
                                                     "with an access token in hello")
        held = self._account_seat(room)
        if held is None:
            _, held, _ = await self.state.lobby.join(room.id, self.account.name, self.account)
        return held

    def _account_seat(self, room: Room) -> Seat | None:
        """The signed-in account's seat in the game, if it holds one."""
        return None if self.account is None else room.seat_of_account(self.account.id)

    def _automatch(self) -> Automatch:
        automatch = self.state.automatch
        if automatch is None:  # only while the server starts or stops
            raise Refusal(ErrorCode.CLUSTER_UNAVAILABLE, "automatch is not running")
        return automatch

    def _room(self, game_id: str) -> Room:
        room = self._rooms.get(game_id)
        if room is None:
            raise Refusal(ErrorCode.NOT_IN_GAME, f"join or watch game {game_id!r} first")
        return room

    async def _refuse_banned(self, account_id: int | None) -> None:
        """A banned account's seat tokens hold nothing any more (its seats were resigned;
        a ban made on another node a moment ago counts too)."""
        moderation = self.state.lobby.moderation
        if moderation is not None and account_id is not None:
            await moderation.refresh_if_reachable()
            moderation.refuse_banned(account_id)

    def _not_seated_in(self, room: Room) -> None:
        """Watching from a seated connection would silently give the seat up."""
        if room.id in self._rooms and room.viewer_of(self) is not None:
            raise Refusal(ErrorCode.ALREADY_PLAYING, f"this connection holds a seat in game "
                                               f"{room.id!r}; leave it first to watch")

    def _refuse_seek_while_playing(self) -> None:
        """Matched while playing here, a player would keep others waiting: a guest has no
        account that automatch could find their seats by, but this connection holds them."""
        for room in self._rooms.values():
            if room.state == GameState.PLAYING and room.viewer_of(self) is not None:
                raise Refusal(ErrorCode.ALREADY_SEATED, f"you play in game {room.id}: "
                                                          "finish it before seeking")

    def _seat_in(self, room: Room) -> int:
        seat = room.viewer_of(self)
        if seat is None:
            raise Refusal(ErrorCode.NOT_A_PLAYER, "spectators cannot do this")
        return seat

    async def _chat(self, request_id: int, room: Room, text: str) -> None:
        check_chat(text, self.state.settings.max_chat_length)
        viewer = room.viewer_of(self)
        if viewer is None and not room.spectator_chat:
            raise Refusal(ErrorCode.NOT_A_PLAYER, "spectators may not chat in this game")
        if viewer is None and self.account is None:  # a muted player watching, say
            raise Refusal(ErrorCode.NOT_SIGNED_IN, "spectators chat when signed in")
        moderation = self.state.lobby.moderation
        account_id = room.seats[viewer].account_id if viewer is not None \
            else self.account.id if self.account is not None else None
        if moderation is not None and account_id is not None:
            await moderation.refresh_if_reachable()  # a mute made on another node counts
            moderation.refuse_muted(account_id)
        self.state.budgets.charge("chat", self.address, 1)
        name = "spectator" if viewer is None else room.seats[viewer].name or f"seat {viewer}"
        line = await room.chat(viewer, name, text)
        self._ack(request_id)
        room.broadcast(ChatLine(game=room.id, sender=name, text=text, line=line))


@cache
def _catalogue() -> tuple[dict[str, Any], ...]:
    return tuple(all_cards())


def watch_interval(settings: Settings) -> float:
    """How often `watch_connections` looks: fine enough for the shortest deadline."""
    return min(1.0, settings.hello_timeout_seconds / 4, settings.heartbeat_seconds / 4)


async def watch_connections(connections: set[Connection], interval: float,
                            clock: Clock = LOOP_CLOCK) -> None:
    """Run every connection's `watch` every `interval` seconds of `clock`, until
    cancelled."""
    while True:
        await sleep(clock, interval)
        now = clock.now()
        for connection in list(connections):
            try:
                connection.watch(now)
            except Exception:  # one connection's failure must not stop every deadline
                log.exception("watching a connection failed", extra={
                    "address": connection.address})
