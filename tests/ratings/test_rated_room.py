"""A rated room's end: its seats and ranks go to storage's outbox with the end, a seat a
bot took over is ranked last whatever its points, and an unrated room sends nothing."""

from __future__ import annotations

from dataclasses import replace

from dominion.server.engine import Setup
from dominion.server.metrics import Metrics
from dominion.server.play.clock import utc_now
from dominion.server.play.history import HistoryCache
from dominion.server.play.room import Room, Seat
from dominion.server.play.tokens import hash_token
from dominion.server.ratings.ledger import RatedGame, RatedSeat
from dominion.server.settings import Settings
from dominion.server.storage import GameRecord, GameState, MemoryGameLog
from tests.eventually import eventually

BOB = 7


async def random_bot_against_bob(log: MemoryGameLog, *, rated: bool) -> Room:
    """Seat 0 a Random bot; seat 1 Bob's account, who never connects: after the grace
    period Big Money takes his seat over, and (almost always) wins on points."""
    record = GameRecord(id="g-000000000001", created_at=utc_now(), state=GameState.OPEN,
                        edition=2, seats=2, options={"rated": True} if rated else {},
                        kingdom=tuple(Setup.create(["a", "b"], kingdom="First Game").kingdom))
    seats = [Seat(0, "Bot 1 (random)", bot="random"), Seat(1)]
    room = Room(record, seats, log, replace(Settings(), seat_grace_seconds=0.01,
                                            takeover_strategy="big_money"),
                Metrics(), HistoryCache(100_000))
    await log.create_game(room.record, [seat.record() for seat in room.seats])
    await room.take_seat("Bob", hash_token("Bob"), BOB)
    await eventually(lambda: room.state == GameState.FINISHED, seconds=60)
    return room


async def test_a_seat_a_bot_took_over_is_ranked_last_in_the_outbox() -> None:
    log = MemoryGameLog()
    room = await random_bot_against_bob(log, rated=True)
    assert room.seats[1].was_taken_over
    sent = RatedGame.from_dict(log.rating_outbox[room.id])
    assert sent == RatedGame(room.id, log.games[room.id].finished_at or "", (
        RatedSeat(0, 0, bot="random"), RatedSeat(1, 1, account_id=BOB)))


async def test_an_unrated_room_sends_nothing_to_the_outbox() -> None:
    log = MemoryGameLog()
    room = await random_bot_against_bob(log, rated=False)
    assert room.state == GameState.FINISHED and log.rating_outbox == {}
