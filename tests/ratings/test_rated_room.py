"""A rated room's end: its seats and ranks go to storage's outbox with the end, a seat a
bot took over is ranked last whatever its points (its takeover stored before the bot's
first answer for it, and known again to a room rebuilt from storage), and an unrated room
sends nothing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest

from dominion.protocol import RatingChanged, Unrated
from dominion.server.engine import Answer, Resignation, Setup
from dominion.server.metrics import Metrics
from dominion.server.play import clock as clock_module
from dominion.server.play.clock import utc_now
from dominion.server.play.history import HistoryCache
from dominion.server.play.room import Room
from dominion.server.play.seat_tokens import hash_token
from dominion.server.play.seats import Seat
from dominion.server.ratings.ledger import RatedGame, RatedSeat
from dominion.server.settings import Settings
from dominion.server.storage import GameRecord, GameState, MemoryGameLog, StorageError
from tests.eventually import eventually
from tests.play.test_room import Listener
from tests.virtual_clock import VirtualClock

BOB = 7


class OrderedLog(MemoryGameLog):
    """Keeps the order of its takeovers and answers; refuses the first `failing` takeovers
    (a full disk, say)."""

    def __init__(self, failing: int = 0) -> None:
        super().__init__()
        self.writes: list[str] = []
        self.failing = failing

    async def take_over_seat(self, game_id: str, seat: int, at: str) -> None:
        if self.failing:
            self.failing -= 1
            raise StorageError("the disk is full")
        await super().take_over_seat(game_id, seat, at)
        self.writes.append(f"seat {seat} taken over")

    async def append_answers(self, game_id: str, first_index: int,
                             entries: Sequence[Answer | Resignation], at: str,
                             charged_ms: Sequence[int | None] = ()) -> None:
        await super().append_answers(game_id, first_index, entries, at, charged_ms)
        self.writes += [f"seat {entry.player} answers" for entry in entries]


async def random_bot_against_bob(log: MemoryGameLog, *, rated: bool) -> Room:
    """Seat 0 a Random bot; seat 1 Bob's account, who never connects: after the grace
    period Big Money takes his seat over, and (almost always) wins on points."""
    record = GameRecord(id="g-000000000001", created_at=utc_now(), state=GameState.OPEN,
                        edition=2, seats=2, options={"rated": True} if rated else {},
                        kingdom=tuple(Setup.create(["a", "b"], kingdom="First Game").kingdom))
    seats = [Seat(0, "Bot 1 (random)", bot="random"), Seat(1)]
    clock = VirtualClock()
    room = Room(record, seats, log, replace(Settings(), takeover_strategy="big_money"),
                Metrics(), HistoryCache(100_000), clock=clock)
    await log.create_game(room.record, [seat.record() for seat in room.seats])
    await room.take_seat("Bob", hash_token("Bob"), BOB)
    clock.advance(room._settings.seat_grace_seconds)
    # a takeover that could not be stored is tried again a moment later
    await eventually(clock.advancing(lambda: room.state == GameState.FINISHED), seconds=60)
    return room


async def test_a_seat_a_bot_took_over_is_ranked_last_in_the_outbox() -> None:
    log = MemoryGameLog()
    room = await random_bot_against_bob(log, rated=True)
    assert room.seats[1].was_taken_over
    sent = RatedGame.from_dict(log.rating_outbox[room.id])
    assert sent == RatedGame(room.id, log.games[room.id].finished_at or "", (
        RatedSeat(0, 0, bot="random"), RatedSeat(1, 1, account_id=BOB)))


async def test_a_takeover_is_stored_before_the_bots_first_answer_for_the_seat(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(clock_module, "RETRY_SECONDS", 0.01)
    log = OrderedLog(failing=2)  # not stored twice: the seat waits, and it is tried again
    room = await random_bot_against_bob(log, rated=True)
    bobs = [write for write in log.writes if write.startswith("seat 1")]
    assert bobs[0] == "seat 1 taken over" and bobs.count("seat 1 taken over") == 1
    assert len(bobs) > 1 and log.failing == 0
    assert log.seats[room.id][1].taken_over_at == room.seats[1].taken_over_at is not None


async def test_a_room_rebuilt_from_storage_knows_the_takeover() -> None:
    log = MemoryGameLog()
    room = await random_bot_against_bob(log, rated=True)
    stored = log.load_game(room.id)
    assert stored is not None
    again = Room.restore(stored, log, Settings(), Metrics(), HistoryCache(100_000))
    assert again.seats[1].was_taken_over and not again.seats[0].was_taken_over
    assert again.seats[1].bot is None and again.seats[1].played_by is None


async def test_an_unrated_room_sends_nothing_to_the_outbox() -> None:
    log = MemoryGameLog()
    room = await random_bot_against_bob(log, rated=False)
    assert room.state == GameState.FINISHED and log.rating_outbox == {}


async def bob_at_a_rated_table(log: MemoryGameLog, **settings: object) -> Room:
    """Seat 0 a Random bot, seat 1 Bob's account, connected (his seat waits for him)."""
    record = GameRecord(id="g-000000000002", created_at=utc_now(), state=GameState.OPEN,
                        edition=2, seats=2, options={"rated": True},
                        kingdom=tuple(Setup.create(["a", "b"], kingdom="First Game").kingdom))
    room = Room(record, [Seat(0, "Bot 1 (random)", bot="random"), Seat(1)], log,
                replace(Settings(), seat_grace_seconds=60.0, **settings),  # type: ignore[arg-type]
                Metrics(), HistoryCache(100_000))
    await log.create_game(room.record, [seat.record() for seat in room.seats])
    await room.take_seat("Bob", hash_token("Bob"), BOB)
    return room


async def bob_plays_turns(room: Room, turns: int) -> None:
    """Bob answers his own decisions (the fewest options each) until both seats have begun
    `turns` turns and it is his decision again."""
    while True:
        game = room.game
        assert game is not None and game.pending is not None
        if game.pending.player == 1:
            if min(game.own_turns(0), game.own_turns(1)) >= turns:
                return
            await room.answer(1, game.pending.id, list(range(game.pending.min)))
        else:
            await eventually(lambda: room.game is not None and room.game.pending is not None
                             and room.game.pending.player == 1, seconds=30)


async def test_a_rated_game_given_up_before_a_players_second_turn_is_not_rated() -> None:
    # resigning at once rated a colluding partner up for nothing (0 -> 1,521 in 40 games)
    log = MemoryGameLog()
    room = await bob_at_a_rated_table(log)
    listener = Listener()
    room.subscribe(listener, None)
    assert room.game is not None and room.game.own_turns(1) <= 1
    await room.resign(1)
    assert room.state == GameState.FINISHED
    # kept for moderators (early resignations), never rated
    sent = RatedGame.from_dict(log.rating_outbox[room.id])
    assert sent.aborted and [(seat.account_id, seat.rank) for seat in sent.seats] == [
        (None, 0), (BOB, 1)]
    # its players are told why, after game_over
    kinds = [type(message).__name__ for message in listener.received]
    assert kinds[-2:] == ["GameOver", "RatingChanged"]
    assert listener.received[-1] == RatingChanged(room.id, (), Unrated.TOO_SHORT)


async def test_a_player_who_resigns_after_the_turns_asked_is_rated_last() -> None:
    log = MemoryGameLog()
    room = await bob_at_a_rated_table(log)
    await bob_plays_turns(room, 2)
    await room.resign(1)
    assert room.game is not None and room.game.resigned_after == {1: room.game.own_turns(1)}
    sent = RatedGame.from_dict(log.rating_outbox[room.id])
    assert [(seat.account_id, seat.rank) for seat in sent.seats] == [(None, 0), (BOB, 1)]


async def test_a_leaver_is_ranked_last_in_a_rated_game_even_when_absent_seats_abandon(
        ) -> None:
    # `abandon` ended a lost game without a result: leaving saved the loser's rating
    log = MemoryGameLog()
    room = await bob_at_a_rated_table(log, absent_seat="abandon")
    await bob_plays_turns(room, 2)
    room.seats[1].connection = None
    await room.absence.seat_absent(room.seats[1])  # the grace period ran out
    assert room.state == GameState.FINISHED  # not abandoned
    sent = RatedGame.from_dict(log.rating_outbox[room.id])
    assert [(seat.account_id, seat.rank) for seat in sent.seats] == [(None, 0), (BOB, 1)]
