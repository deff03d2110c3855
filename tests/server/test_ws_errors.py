"""Every kind of refused request over a real WebSocket: each is an error with the right
code and the request's id, and changes nothing; and the handshake's refusals."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest

from dominion.protocol import (
    Ack,
    Answer,
    Error,
    Hello,
    Join,
    Leave,
    PendingDecision,
    Ping,
    Resign,
    Resume,
    Snapshot,
    Watch,
    Welcome,
    decode_server,
    encode_client,
)
from dominion.server.edge.state import STATE
from dominion.server.edge.transport.connection import Connection
from dominion.server.play.room import Room
from tests.virtual_clock import VirtualClock

from .wsclient import TestClient
from .wsplay import (
    ServerFactory,
    Site,
    close_code_sent,
    expect_error,
    raw_request,
    watched,
    ws_server,
)

__all__ = ["ws_server"]


class Table:
    """A 2-player game between two network clients (nobody moves unless told) + a spectator."""

    def __init__(self, site: Site, game: str, clients: dict[int, TestClient],
                 tokens: dict[int, str], spectator: TestClient) -> None:
        self.site, self.game, self.clients, self.tokens = site, game, clients, tokens
        self.spectator = spectator

    @classmethod
    async def open(cls, site: Site) -> Table:
        game, ann_token = await site.create(seats=2)
        _, bob_token = await site.join(game, "Bob")
        tokens = {0: ann_token, 1: bob_token}
        clients = {}
        for seat, token in tokens.items():
            client = await site.connect()
            reply = await client.request(Join, game=game, token=token)
            assert isinstance(reply, Ack) and reply.seat == seat
            assert isinstance(await client.push(), Snapshot)
            clients[seat] = client
        spectator = await site.connect()
        assert isinstance(await spectator.request(Watch, game=game), Ack)
        assert isinstance(await spectator.push(), Snapshot)
        return cls(site, game, clients, tokens, spectator)

    @property
    def pending(self) -> Any:
        game = self.site.room(self.game).game
        assert game is not None and game.pending is not None
        return game.pending

    def state(self) -> tuple[int, int, int]:
        game = self.site.room(self.game).game
        assert game is not None and game.pending is not None
        return game.pending.id, game.event_count, game.answer_count

    async def valid_answer(self) -> None:
        """The pending decision's decider answers it legally: accepted."""
        pending = self.pending
        client = self.clients[pending.player]
        choice = list(range(pending.min))
        reply = await client.request(Answer, game=self.game, decision=pending.id, options=choice)
        assert isinstance(reply, Ack), reply


async def test_bad_answers_are_refused_and_change_nothing(ws_server: ServerFactory) -> None:
    site = await ws_server()
    table = await Table.open(site)
    game = table.game
    for round_ in range(3):
        pending = table.pending
        mover = table.clients[pending.player]
        other = table.clients[1 - pending.player]
        before = table.state()
        count = len(pending.options)
        bad: list[tuple[TestClient, str, dict[str, Any]]] = [
            (mover, "stale_decision", {"decision": pending.id + 1, "options": [0]}),
            (mover, "stale_decision", {"decision": 0, "options": [0]}),
            (other, "not_your_decision", {"decision": pending.id, "options": [0]}),
            (mover, "bad_option", {"decision": pending.id, "options": [count]}),
            (mover, "bad_option", {"decision": pending.id, "options": [65535]}),
            (mover, "duplicate_option", {"decision": pending.id, "options": [0, 0]}),
            (mover, "too_few_options", {"decision": pending.id, "options": []}),
            (mover, "too_many_options", {"decision": pending.id,
                                         "options": list(range(min(count, pending.max + 1)))}),
            (table.spectator, "not_a_player", {"decision": pending.id, "options": [0]}),
        ]
        assert pending.max == 1 and count >= 2  # a Buy or Action phase decision
        for client, code, fields in bad:
            await expect_error(client, Answer, code, game=game, **fields)
            assert table.state() == before, code
        # malformed answers never reach the game: the decoder refuses them, with the id
        for frame, code in (
            ({"type": "answer", "id": 41, "game": game, "decision": pending.id,
              "options": "0"}, "bad_field_type"),
            ({"type": "answer", "id": 42, "game": game, "decision": pending.id,
              "options": [-1]}, "out_of_range"),
            ({"type": "answer", "id": 43, "game": game, "decision": pending.id}, "missing_field"),
            ({"type": "answer", "id": 44, "game": game, "decision": pending.id,
              "options": [True]}, "bad_field_type"),
        ):
            reply = await raw_request(mover, frame)
            assert isinstance(reply, Error) and reply.code == code, (frame, reply)
            assert reply.id == frame["id"]
            assert table.state() == before
        await table.valid_answer()
        assert table.state() != before, round_
    # the clients saw the accepted answers' events and decisions, and no errors' traces
    decisions = []
    while len(decisions) < 3:
        message = await table.spectator.push(timeout=5)
        assert not isinstance(message, Error)
        if isinstance(message, PendingDecision):
            assert "options" not in message.decision
            decisions.append(message.decision["id"])
    assert decisions == sorted(set(decisions))
    with pytest.raises(TimeoutError):
        await table.spectator.push(timeout=0.1)  # nothing else: errors changed nothing


async def test_a_request_that_fails_inside_the_server_gets_internal_error(
        ws_server: ServerFactory, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """A bug behind one request answers that request, is logged, and leaves the
    connection serving."""
    site = await ws_server()
    table = await Table.open(site)
    pending = table.pending
    mover = table.clients[pending.player]

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(Room, "answer", broken)
    await expect_error(mover, Answer, "internal_error", game=table.game, decision=pending.id,
                       options=[0])
    assert [r.getMessage() for r in caplog.records if r.exc_info] == ["request failed"]
    assert isinstance(await mover.request(Ping), Ack)


async def test_requests_outside_a_game(ws_server: ServerFactory) -> None:
    site = await ws_server()
    table = await Table.open(site)
    pending = table.pending
    stranger = await site.connect()
    await expect_error(stranger, Answer, "not_in_game", game=table.game,
                       decision=pending.id, options=[0])
    await expect_error(stranger, Resign, "not_in_game", game=table.game)
    await expect_error(stranger, Leave, "not_in_game", game=table.game)
    await expect_error(stranger, Join, "unknown_game", game="g-nope", token="t")
    await expect_error(stranger, Watch, "unknown_game", game="g-nope")
    await expect_error(stranger, Resume, "unknown_game", game="g-nope", last_seq=0)
    await expect_error(stranger, Join, "bad_token", game=table.game, token="not-a-token")
    await expect_error(stranger, Resume, "bad_token", game=table.game, last_seq=0,
                       token=table.tokens[0] + "x")
    # without a seat token, join is for a connection signed in with an access token
    reply = await raw_request(stranger, {"type": "join", "id": 9, "game": table.game})
    assert isinstance(reply, Error) and reply.code == "not_signed_in" and reply.id == 9
    reply = await raw_request(stranger, {"type": "join", "id": 10, "game": table.game,
                                         "token": ""})
    assert isinstance(reply, Error) and reply.code == "out_of_range" and reply.id == 10
    # a token of the other game's seat holds no seat here
    other_game, other_token = await site.create(seats=2)
    await expect_error(stranger, Join, "bad_token", game=table.game, token=other_token)
    del other_game
    # a spectator cannot resign; a player who left is out of the game until they rejoin
    assert isinstance(await stranger.request(Watch, game=table.game), Ack)
    await expect_error(stranger, Resign, "not_a_player", game=table.game)
    mover = table.clients[pending.player]
    assert isinstance(await mover.request(Leave, game=table.game), Ack)
    await expect_error(mover, Answer, "not_in_game", game=table.game, decision=pending.id,
                       options=[0])
    assert isinstance(await mover.request(Resume, game=table.game, last_seq=0,
                                          token=table.tokens[pending.player]), Ack)
    mover.pushes.clear()
    await table.valid_answer()
    # unknown request types and repeated hellos keep the connection open
    reply = await raw_request(stranger, {"type": "dance", "id": 12})
    assert isinstance(reply, Error) and reply.code == "unknown_type" and reply.id == 12
    await expect_error(stranger, Hello, "hello_repeated", versions=[1])
    assert isinstance(await stranger.request(Ping), Ack)


async def test_malformed_frames_get_errors_with_null_id(ws_server: ServerFactory) -> None:
    site = await ws_server()
    client = await site.connect()
    for frame, code in ((b"\xc1", "not_msgpack"), (b"\x92\x01\x02", "not_a_map"),
                        (b"\x81\xa4type\xa4ping", "missing_field"),
                        (msgpack.packb({"type": "ping", "id": "7"}), "bad_field_type"),
                        (b"\x82\xa4type\xa4ping", "not_msgpack")):
        reply = await raw_request(client, frame)
        assert isinstance(reply, Error) and reply.code == code and reply.id is None, (frame,
                                                                                      reply)
    assert isinstance(await client.request(Ping), Ack)


async def test_oversized_frames(ws_server: ServerFactory) -> None:
    site = await ws_server(max_frame_bytes=1024)
    client = await site.connect()
    assert client.welcome is not None and client.welcome.limits.max_frame_bytes == 1024
    big = msgpack.packb({"type": "ping", "id": 3, "pad": "x" * 2000})
    reply = await raw_request(client, big)
    assert isinstance(reply, Error) and reply.code == "frame_too_large" and reply.id is None
    assert isinstance(await client.request(Ping), Ack)  # still open
    huge = msgpack.packb({"type": "ping", "id": 4, "pad": "x" * 200_000})
    await client.ws.send_bytes(huge)
    assert await client.close_code() == 1009


async def test_request_before_hello_closes_4000(ws_server: ServerFactory) -> None:
    site = await ws_server()
    client = await site.connect(hello=False)
    await expect_error(client, Ping, "hello_required")
    assert await client.close_code() == 4000


async def test_unsupported_version_closes_4001(ws_server: ServerFactory) -> None:
    site = await ws_server()
    client = await site.connect(hello=False)
    error = await expect_error(client, Hello, "unsupported_version", versions=[3, 4])
    assert "2, 1" in error.message
    assert await client.close_code() == 4001


@pytest.mark.parametrize(("offered", "spoken"), [([1], 1), ([2], 2), ([1, 2], 2), ([3, 1], 1)])
async def test_the_highest_common_version_is_spoken(ws_server: ServerFactory, offered: list[int],
                                                    spoken: int) -> None:
    site = await ws_server()
    client = await site.connect(hello=False)
    welcome = await client.request(Hello, versions=offered)
    assert isinstance(welcome, Welcome) and welcome.version == spoken


async def test_no_hello_in_time_closes_4002(ws_server: ServerFactory) -> None:
    site = await ws_server(hello_timeout_seconds=0.2)
    client = await site.connect(hello=False)
    assert await client.close_code(timeout=3) == 4002


async def test_a_failing_watch_does_not_stop_the_deadlines(
        ws_server: ServerFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = VirtualClock()
    site = await ws_server(clock=clock)
    watch, calls = Connection.watch, []

    def fails_once(self: Connection, now: float) -> None:
        calls.append(now)
        if len(calls) == 1:
            raise RuntimeError("a bug in one connection's watch")
        watch(self, now)

    monkeypatch.setattr(Connection, "watch", fails_once)
    client = await site.connect(hello=False)
    await watched(site, clock, site.app_state().settings.hello_timeout_seconds)
    assert await close_code_sent(client) == 4002
    assert len(calls) > 1


@pytest.mark.parametrize("hello", [True, False])
async def test_text_frame_closes_4000(ws_server: ServerFactory, hello: bool) -> None:
    site = await ws_server()
    client = await site.connect(hello=hello)
    await client.ws.send_str('{"type": "ping", "id": 1}')
    assert await client.close_code() == 4000


async def test_garbage_first_frame_closes_4000(ws_server: ServerFactory) -> None:
    site = await ws_server()
    client = await site.connect(hello=False)
    reply = await raw_request(client, b"\xc1")
    assert isinstance(reply, Error) and reply.code == "not_msgpack" and reply.id is None
    assert await client.close_code() == 4000


async def test_ten_malformed_frames_in_a_row_close_4000(ws_server: ServerFactory) -> None:
    """docs/PROTOCOL.md: ten in a row close the connection; a good frame starts the
    count again."""
    site = await ws_server()
    client = await site.connect()
    for _ in range(2):
        for _ in range(9):
            await client.ws.send_bytes(b"\xc1")
        assert isinstance(await client.request(Ping), Ack)  # still open
    for _ in range(10):
        await client.ws.send_bytes(b"\xc1")
    errors = []  # each of the ten is answered, the last one too, before the close
    while (reply := await client.receive()) is not None:
        errors.append(reply)
    assert [getattr(e, "code", None) for e in errors] == ["not_msgpack"] * 10
    assert client.ws.close_code == 4000


async def test_requests_of_an_unknown_type_are_not_malformed(ws_server: ServerFactory) -> None:
    """docs/PROTOCOL.md section 12: a newer client may try newer requests, and an older
    server answers `unknown_type` each time, without ever closing for it."""
    site = await ws_server()
    client = await site.connect()
    for request_id in range(100, 130):
        reply = await raw_request(client, {"type": "from_the_future", "id": request_id})
        assert isinstance(reply, Error) and reply.code == "unknown_type", reply
        assert reply.id == request_id
    for _ in range(9):  # and they do not add to a run of malformed frames either
        await client.ws.send_bytes(b"\xc1")
    await raw_request(client, {"type": "from_the_future", "id": 7})
    for _ in range(9):
        await client.ws.send_bytes(b"\xc1")
    assert isinstance(await client.request(Ping), Ack)  # still open


async def test_a_frame_nested_too_deep_is_answered_with_its_id(ws_server: ServerFactory) -> None:
    """docs/PROTOCOL.md section 4: the id is read from the top-level map, even after a part
    nested deeper than msgpack itself decodes; the first frame's error carries it too."""
    site = await ws_server()
    deep = b"\x91" * 5000 + b"\x00"
    client = await site.connect()
    reply = await raw_request(client, b"\x83\xa4type\xa4ping\xa3pad" + deep + b"\xa2id\x09")
    assert isinstance(reply, Error) and (reply.code, reply.id) == ("too_deep", 9), reply
    assert isinstance(await client.request(Ping), Ack)  # still open
    first = await site.connect(hello=False)
    reply = await raw_request(first, b"\x83\xa4type\xa5hello\xa2id\x01\xa3pad" + deep)
    assert isinstance(reply, Error) and (reply.code, reply.id) == ("too_deep", 1), reply
    assert await first.close_code() == 4000


async def test_too_deep_and_not_started(ws_server: ServerFactory) -> None:
    site = await ws_server()
    client = await site.connect()
    deep: Any = 0
    for _ in range(20):
        deep = [deep]
    reply = await raw_request(client, {"type": "ping", "id": 5, "pad": deep})
    assert isinstance(reply, Error) and (reply.code, reply.id) == ("too_deep", 5), reply
    game, token = await site.create(seats=3)  # waits for two more players
    await client.request(Join, game=game, token=token)
    await expect_error(client, Answer, "game_not_started", game=game, decision=1,
                       options=[0])


async def test_watch_from_a_seated_connection_is_refused_and_keeps_the_seat(
        ws_server: ServerFactory) -> None:
    """docs/PROTOCOL.md section 6: watching would silently have given the seat up."""
    site = await ws_server()
    game, token = await site.create(seats=2, bots={1: "big_money"})
    ann = await site.connect()
    await ann.request(Join, game=game, token=token)
    await expect_error(ann, Watch, "already_playing", game=game)
    await expect_error(ann, Resume, "already_playing", game=game, last_seq=0)
    assert site.room(game).viewer_of(ann_connection(site)) == 0  # still the player
    await ann.request(Leave, game=game)  # after leaving, watching is fine
    assert isinstance(await ann.request(Watch, game=game), Ack)


def ann_connection(site: Site) -> Connection:
    (connection,) = site.app[STATE].connections
    return connection


@pytest.mark.parametrize(("offered", "status", "echoed"), [
    (None, 101, None),  # optional: the hello decides the version
    ("dominion.v2.msgpack", 101, "dominion.v2.msgpack"),
    ("chat.v9, dominion.v1.msgpack", 101, "dominion.v1.msgpack"),
    ("chat.v9", 400, None),  # upgraded, a strict client would abort on the missing echo
])
async def test_the_subprotocol_header(ws_server: ServerFactory, offered: str | None,
                                      status: int, echoed: str | None) -> None:
    site = await ws_server()
    headers = {"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
               "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}
    if offered is not None:
        headers["Sec-WebSocket-Protocol"] = offered
    async with site.session.get(site.ws_url, headers=headers) as response:
        assert response.status == status
        assert response.headers.get("Sec-WebSocket-Protocol") == echoed
        if status == 400:
            assert "dominion.v2.msgpack, dominion.v1.msgpack" in await response.text()
    if offered is None:  # and a whole session works without one
        ws = await site.session.ws_connect(site.ws_url)
        await ws.send_bytes(encode_client(Hello(id=1, versions=(2,))))
        assert isinstance(decode_server((await ws.receive()).data), Welcome)
        await ws.close()
