"""A rematch over real WebSockets: offered after the end, answered by every player (bots
at once), a new game with the same seats, each player's token to them alone; an offer
expired (on a virtual clock) and bad frames refused, typed. Its rules (when it expires,
a decline, the offerer's allowance of games, the ended room kept while it stands) in
process: tests/play/test_rematch.py, tests/play/test_lobby_timers.py."""

from __future__ import annotations

import asyncio
from typing import Any

from dominion.protocol import (
    Ack,
    Join,
    RematchAnswer,
    RematchCancelled,
    RematchOffer,
    RematchOffered,
    RematchStarted,
    Resign,
    ServerMessage,
    Snapshot,
)
from dominion.server.replays import verify_replay
from tests.eventually import eventually
from tests.virtual_clock import VirtualClock

from .wsclient import TestClient
from .wsplay import Player, ServerFactory, Site, expect_error, raw_request, ws_server

__all__ = ["ws_server"]


async def next_of(client: TestClient, kind: type, timeout: float = 10) -> Any:
    """The next push of this type (others before it are skipped)."""
    async def find() -> ServerMessage:
        while True:
            message = await client.push(timeout)
            if isinstance(message, kind):
                return message
    return await asyncio.wait_for(find(), timeout)


async def ended_table(site: Site, **create: Any) -> tuple[str, Player, Player, Player]:
    """Two people (Ann and Bob) and a spectator at a game that Ann resigned."""
    game, ann_token = await site.create(seats=2, **create)
    _, bob_token = await site.join(game, "Bob")
    ann = await Player.join(site, game, ann_token)
    bob = await Player.join(site, game, bob_token)
    spectator = await Player.watch(site, game)
    await expect_error(ann.client, RematchOffer, "game_not_over", game=game)
    reply = await ann.client.request(Resign, game=game)
    assert isinstance(reply, Ack), reply
    await eventually(lambda: site.room(game).state == "finished")
    return game, ann, bob, spectator


async def test_everyone_accepts_and_each_player_gets_their_own_seat(
        ws_server: ServerFactory) -> None:
    site = await ws_server()
    game, ann, bob, spectator = await ended_table(site)
    old = site.room(game)
    assert old.game is not None
    await expect_error(spectator.client, RematchOffer, "not_a_player", game=game)
    await expect_error(bob.client, RematchAnswer, "no_rematch", game=game, accept=True)
    reply = await ann.client.request(RematchOffer, game=game)
    assert isinstance(reply, Ack), reply
    for client in (ann.client, bob.client, spectator.client):
        offered = await next_of(client, RematchOffered)
        assert (offered.by, offered.kingdom, offered.accepted, offered.waiting) == (
            0, "same", (0,), (1,))
        assert 0 < offered.expires_ms <= 60_000
    await expect_error(bob.client, RematchOffer, "rematch_pending", game=game)
    reply = await ann.client.request(RematchAnswer, game=game, accept=True)
    assert isinstance(reply, Ack), reply  # the offerer accepted already: nothing changes
    reply = await bob.client.request(RematchAnswer, game=game, accept=True)
    assert isinstance(reply, Ack), reply
    first = await ann.client.push()  # no second offer came before it
    assert isinstance(first, RematchStarted), first
    started = [first, *[await next_of(c, RematchStarted) for c in (bob.client,
                                                                   spectator.client)]]
    new_game = started[0].new_game
    assert {s.new_game for s in started} == {new_game} != {game}
    assert [(s.seat, s.token is not None) for s in started] == [(0, True), (1, True),
                                                                (None, False)]
    assert started[0].token != started[1].token
    room = site.room(new_game)
    assert room.state == "playing" and room.game is not None
    assert [s.name for s in room.seats] == ["Ann", "Bob"]
    assert room.record.kingdom == old.record.kingdom
    assert room.game.first_player == (old.game.first_player + 1) % 2  # the next one starts
    # each token holds its own seat of the new game, and nothing of the old one's
    for seat, token in ((0, started[0].token), (1, started[1].token)):
        client = await site.connect()
        reply = await client.request(Join, game=new_game, token=token)
        assert isinstance(reply, Ack) and reply.seat == seat, reply
        assert isinstance(await next_of(client, Snapshot), Snapshot)
        await expect_error(client, Join, "bad_token", game=game, token=token)
    await expect_error(ann.client, RematchOffer, "rematch_pending", game=game)


async def test_bots_accept_at_once_and_the_kingdom_may_be_drawn_afresh(
        ws_server: ServerFactory) -> None:
    site = await ws_server()
    game, token = await site.create(seats=3, bots={1: "big_money", 2: "smithy_big_money"})
    ann = await Player.join(site, game, token)
    await ann.client.request(Resign, game=game)
    await eventually(lambda: site.room(game).state == "finished", 60)
    reply = await ann.client.request(RematchOffer, game=game, kingdom="random")
    assert isinstance(reply, Ack), reply
    offered = await next_of(ann.client, RematchOffered)
    assert (offered.kingdom, offered.accepted, offered.waiting) == ("random", (0, 1, 2), ())
    started = await next_of(ann.client, RematchStarted)
    assert started.seat == 0 and started.token
    room = site.room(started.new_game)
    assert [s.bot for s in room.seats] == [None, "big_money", "smithy_big_money"]
    assert room.record.kingdom_name is None and len(room.record.kingdom) == 10
    # played to its end, the rematch's replay verifies: its set-up names who started
    again = await Player.join(site, started.new_game, started.token)
    await again.client.request(Resign, game=started.new_game)
    await eventually(lambda: room.state == "finished", 60)
    async with site.session.get(site.url(f"/api/v1/games/{started.new_game}/replay")) as got:
        replay = await got.json()
    assert replay["setup"]["first_player"] == room.game.first_player
    assert verify_replay(replay).ok


async def test_an_offer_nobody_answers_expires(ws_server: ServerFactory) -> None:
    """The expiry told, and its refusal sent, over the wire; its timing:
    tests/play/test_rematch.py."""
    clock = VirtualClock()
    site = await ws_server(clock=clock, rematch_seconds=10)  # within the heartbeat
    game, ann, bob, _ = await ended_table(site)
    await ann.client.request(RematchOffer, game=game)
    clock.advance(10)
    cancelled = await next_of(bob.client, RematchCancelled)
    assert (cancelled.reason, cancelled.by) == ("expired", None)
    await expect_error(bob.client, RematchAnswer, "rematch_expired", game=game, accept=True)


async def test_bad_rematch_frames_are_refused_typed(ws_server: ServerFactory) -> None:
    site = await ws_server()
    game, ann, _, _ = await ended_table(site)
    for frame, code in (
            ({"type": "rematch_offer", "id": 1, "game": game, "kingdom": "mine"},
             "out_of_range"),
            ({"type": "rematch_answer", "id": 2, "game": game, "accept": 1}, "bad_field_type"),
            ({"type": "rematch_answer", "id": 3, "game": game}, "missing_field")):
        reply = await raw_request(ann.client, frame)
        assert getattr(reply, "code", None) == code, reply
    assert site.room(game).rematch is None
