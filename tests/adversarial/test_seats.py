"""Finding 1: a seat belongs to its current token's holder alone. When the holder
changes (a leave, a new token, a takeover), every other connection loses the seat's
rights at once."""

from __future__ import annotations

import aiohttp

from dominion.protocol import Ack, Answer, CloseCode, Join, Snapshot
from tests.server.wsplay import ServerFactory, close_code_sent, ws_server

__all__ = ["ws_server"]


async def test_a_connection_whose_token_was_given_up_loses_the_seat(
        ws_server: ServerFactory) -> None:
    site = await ws_server()
    game, ann_token = await site.create(seats=2)
    ann = await site.connect(version=2)
    assert isinstance(await ann.request(Join, game=game, token=ann_token), Ack)
    async with site.session.post(site.url(f"/api/v1/games/{game}/leave"),
                                 json={"token": ann_token}) as left:
        assert left.status == 200
    # the seat is no longer Ann's: her connection is told so and closed
    assert await close_code_sent(ann) == CloseCode.REPLACED
    eve_seat, eve_token = await site.join(game, "Eve")
    assert eve_seat == 0
    await site.join(game, "Bob")  # the game starts
    room = site.room(game)
    assert room.game is not None
    summary = room.summary()
    assert [s["connected"] for s in summary["seats"]] == [False, False]
    # Eve's seat is hers alone: she joins and gets her own view
    eve = await site.connect(version=2)
    assert isinstance(await eve.request(Join, game=game, token=eve_token), Ack)
    snapshot = await eve.push()
    assert isinstance(snapshot, Snapshot) and snapshot.view["viewer"] == 0


async def test_a_seat_given_up_refuses_the_old_connections_answers(
        ws_server: ServerFactory) -> None:
    """Even a connection that has not yet read its close frame cannot act for the seat."""
    site = await ws_server()
    game, ann_token = await site.create(seats=2)
    ann = await site.connect(version=2)
    await ann.request(Join, game=game, token=ann_token)
    room = site.room(game)
    seat = room.seats[0]
    await room.free_seat(seat)
    assert seat.connection is None and not any(v == 0 for _, v in room.subscribers())
    await site.join(game, "Eve")
    await site.join(game, "Bob")
    assert room.game is not None
    pending = room.game.pending
    assert pending is not None
    try:
        reply = await ann.request(Answer, game=game, decision=pending.id, options=[0])
    except (ConnectionError, aiohttp.ClientError):
        reply = None  # closed before it could even ask
    assert not isinstance(reply, Ack)
    assert room.game.answer_count == 0
