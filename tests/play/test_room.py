"""Rooms tested directly: one change at a time through check, store, apply and tell, on an
in-memory game log (no file, thread or socket). Through a real server: tests/server/."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import pytest

from dominion.bots import BotPace
from dominion.protocol import GameOver, Snapshot, Update, decode_server
from dominion.server.engine import Answer, Game, Resignation, Setup
from dominion.server.engine.replay import replay
from dominion.server.metrics import Metrics
from dominion.server.play.clock import utc_now
from dominion.server.play.history import HistoryCache
from dominion.server.play.room import Room
from dominion.server.play.seat_tokens import hash_token
from dominion.server.play.seats import Seat
from dominion.server.refusal import Refusal
from dominion.server.settings import Settings
from dominion.server.storage import GameRecord, GameState, MemoryGameLog
from tests.eventually import eventually
from tests.virtual_clock import VirtualClock

PLAY_ALL_TREASURES = 1
"""Option 1 of the first Buy decision in a First Game (the README's example)."""


class Listener:
    """A subscriber that keeps what it is sent, decoded."""

    version = 2

    def __init__(self) -> None:
        self.received: list[object] = []
        self.replaced_because: list[str] = []

    def push(self, frame: bytes) -> None:
        self.received.append(decode_server(frame))

    def replaced(self, reason: str) -> None:
        self.replaced_because.append(reason)


def new_room(log: MemoryGameLog, *, bots: dict[int, str] | None = None, seats: int = 2,
             clock: VirtualClock | None = None, options: dict[str, Any] | None = None,
             **settings: Any) -> Room:
    """A room whose timers run on `clock` (a new virtual clock if None)."""
    record = GameRecord(id="g-000000000001", created_at=utc_now(), state=GameState.OPEN,
                        edition=2, seats=seats, kingdom=tuple(Setup.create(
                            ["a", "b"], kingdom="First Game").kingdom), options=options or {})
    room_seats = [Seat(i) for i in range(seats)]
    for index, strategy in (bots or {}).items():
        room_seats[index].name, room_seats[index].bot = f"Bot {index}", strategy
    return Room(record, room_seats, log, replace(Settings(), **settings),
                Metrics(), HistoryCache(100_000), clock=clock or VirtualClock())


async def started(log: MemoryGameLog, clock: VirtualClock | None = None,
                  **settings: Any) -> Room:
    room = new_room(log, clock=clock, **settings)
    await log.create_game(room.record, [seat.record() for seat in room.seats])
    for name in ("Ann", "Bob"):
        await room.take_seat(name, hash_token(name))
    assert room.state == GameState.PLAYING
    return room


async def test_an_answer_is_stored_before_it_is_applied_and_told() -> None:
    log = MemoryGameLog()
    room = await started(log)
    listener = Listener()
    room.subscribe(listener, None)
    game = room.game
    assert game is not None and game.pending is not None
    pending = game.pending
    accepted: list[int] = []
    await room.answer(pending.player, pending.id, [PLAY_ALL_TREASURES],
                      on_accepted=lambda: accepted.append(len(log.answers[room.id])))
    assert log.answers[room.id] == [Answer(pending.player, pending.id, (PLAY_ALL_TREASURES,))]
    assert accepted == [1], "acknowledged only once it was stored"
    assert game.answer_count == 1 and list(room.answers) == log.answers[room.id]
    [update] = listener.received
    assert isinstance(update, Update) and update.seq == game.event_count


async def test_an_illegal_answer_changes_nothing_and_says_why() -> None:
    log = MemoryGameLog()
    room = await started(log)
    game = room.game
    assert game is not None and game.pending is not None
    pending = game.pending
    listener = Listener()
    room.subscribe(listener, None)
    for seat, decision, options, code in [
            (pending.player, pending.id + 1, [0], "stale_decision"),
            (1 - pending.player, pending.id, [0], "not_your_decision"),
            (pending.player, pending.id, [99], "bad_option")]:
        with pytest.raises(Refusal) as refused:
            await room.answer(seat, decision, options)
        assert refused.value.code == code
    assert log.answers[room.id] == [] and game.answer_count == 0 and listener.received == []


async def test_an_answer_that_cannot_be_stored_is_not_applied() -> None:
    log = MemoryGameLog()
    room = await started(log)
    game = room.game
    assert game is not None and game.pending is not None
    before = game.pending
    log.fail_writes = True
    with pytest.raises(Refusal) as refused:
        await room.answer(before.player, before.id, [PLAY_ALL_TREASURES])
    assert refused.value.code == "internal_error"
    assert game.pending is before and game.answer_count == 0 and len(room.answers) == 0
    log.fail_writes = False
    await room.answer(before.player, before.id, [PLAY_ALL_TREASURES])  # as if never tried
    assert game.answer_count == 1


async def test_a_resignation_takes_the_same_way_and_ends_a_two_player_game() -> None:
    log = MemoryGameLog()
    room = await started(log)
    listener = Listener()
    room.subscribe(listener, None)
    with pytest.raises(Refusal) as refused:
        await room.resign(5)
    assert refused.value.code == "bad_player" and log.answers[room.id] == []
    await room.resign(1)
    assert log.answers[room.id] == [Resignation(1)]
    assert room.seats[1].played_by == room._settings.takeover_strategy
    assert room.seats[1].bot is None, "a person's seat is never a bot's"
    assert room.state == GameState.FINISHED
    assert log.games[room.id].state == GameState.FINISHED, "the end is stored"
    assert isinstance(listener.received[-1], GameOver)
    with pytest.raises(Refusal) as over:
        await room.resign(0)
    assert over.value.code == "game_over"


@pytest.mark.parametrize("bots", [{0: "big_money", 1: "smithy_big_money"},
                                  {0: "strong", 1: "big_money"}])
async def test_bots_play_a_game_to_its_end_and_the_log_replays_it(bots: dict[int, str]
                                                                  ) -> None:
    log = MemoryGameLog()
    room = new_room(log, bots=bots)
    await log.create_game(room.record, [seat.record() for seat in room.seats])
    await room.start_if_full()
    await eventually(lambda: room.state == GameState.FINISHED)
    stored = log.load_game(room.id)
    assert stored is not None and stored.game.state == GameState.FINISHED
    assert stored.game.setup is not None and stored.game.seed is not None
    again = replay(Setup.from_dict(stored.game.setup), stored.game.seed, stored.answers)
    assert again.over and again.result is not None
    assert again.result.to_dict() == stored.game.result


async def test_an_absent_player_is_replaced_by_a_bot_and_may_come_back() -> None:
    log, clock = MemoryGameLog(), VirtualClock()
    room = await started(log, clock)
    grace = room._settings.seat_grace_seconds
    listener = Listener()
    room.subscribe(listener, room.seats[0])  # Ann is here; Bob never connects
    clock.advance(grace - 0.001)
    await asyncio.sleep(0)
    assert not room.seats[1].taken_over and clock.waiting == 1, "within his grace: his seat"
    clock.advance(0.001)
    await eventually(lambda: room.seats[1].taken_over)
    assert room.seats[1].played_by == room._settings.takeover_strategy
    game = room.game
    assert game is not None
    await eventually(lambda: game.pending is None or game.pending.player == 0)
    bob = Listener()
    room.subscribe(bob, room.seats[1])  # back: the seat is Bob's again
    assert room.seats[1].played_by is None and not room.seats[1].taken_over


async def test_an_absent_player_abandons_the_game_when_the_host_says_so() -> None:
    log, clock = MemoryGameLog(), VirtualClock()
    room = await started(log, clock, absent_seat="abandon")
    listener = Listener()
    room.subscribe(listener, room.seats[0])
    clock.advance(room._settings.seat_grace_seconds)
    await eventually(lambda: room.state == GameState.ABANDONED)
    assert log.games[room.id].state == GameState.ABANDONED
    result = log.games[room.id].result
    assert result is not None and result["abandoned"] and result["winners"] == []
    assert isinstance(listener.received[-1], GameOver)


async def test_a_seat_that_resigned_while_away_is_played_on_not_abandoned() -> None:
    log, clock = MemoryGameLog(), VirtualClock()
    room = new_room(log, bots={0: "big_money", 2: "big_money"}, seats=3, clock=clock,
                    absent_seat="abandon", bot_delay_seconds=0.01)
    await log.create_game(room.record, [seat.record() for seat in room.seats])
    await room.take_seat("Bob", hash_token("Bob"))  # he never connects
    await room.resign(1)  # within his grace period (an admin's ban, say)
    game = room.game
    assert game is not None
    clock.advance(2 * room._settings.seat_grace_seconds)  # well past his grace period

    def played_on() -> bool:
        clock.advance(0.01)  # the bots' pause before each answer
        return game.answer_count > 20 or room.state != GameState.PLAYING

    await eventually(played_on)
    assert room.state != GameState.ABANDONED and room.seats[1].played_by is not None


async def test_bots_answer_at_their_tables_pace_on_the_rooms_clock() -> None:
    log, clock = MemoryGameLog(), VirtualClock()
    room = new_room(log, bots={0: "big_money", 1: "big_money"}, clock=clock,
                    options={"bot_pace": BotPace.FAST.value})
    await log.create_game(room.record, [seat.record() for seat in room.seats])
    await room.start_if_full()
    game = room.game
    assert game is not None
    for answers in range(1, 4):  # each answer waits 0.3 s after the one before
        await eventually(lambda: clock.asleep == 1)
        clock.advance(BotPace.FAST.seconds - 0.01)
        await asyncio.sleep(0)
        assert game.answer_count == answers - 1
        clock.advance(0.01)
        await eventually(lambda answers=answers: game.answer_count == answers)


async def test_a_restored_room_is_the_game_its_log_holds() -> None:
    log = MemoryGameLog()
    room = await started(log)
    game = room.game
    assert game is not None
    while game.pending is not None and game.answer_count < 30:  # a few turns of answers
        pending = game.pending
        await room.answer(pending.player, pending.id, list(range(pending.min)))
    [stored] = log.unfinished_games()
    again = Room.restore(stored, log, room._settings, Metrics(), HistoryCache(100_000))
    restored = again.game
    assert restored is not None and restored.pending is not None and game.pending is not None
    assert restored.answer_count == game.answer_count
    assert (restored.pending.id, restored.pending.player) == (game.pending.id, game.pending.player)
    listener = Listener()
    again.subscribe(listener, None)
    again.send_snapshot(listener)
    [snapshot] = listener.received
    assert isinstance(snapshot, Snapshot) and snapshot.seq == game.event_count
    reference = Game(Setup.from_dict(stored.game.setup or {}), stored.game.seed or 0)
    for entry in stored.answers:
        reference.apply(entry)
    assert reference.event_count == game.event_count


async def test_a_bots_loop_left_running_past_its_rooms_close_ends_of_itself() -> None:
    """A stop cancels the rooms' bot loops, but a cancellation can be lost (Python 3.11's
    wait_for returns an answer that arrives with it): a loop still running once its room
    is closed must end rather than go on (its answers refused, retried), or the stop
    waits for it for good (seen: a server that never exited on SIGTERM)."""
    log, clock = MemoryGameLog(), VirtualClock()
    room = new_room(log, bots={0: "big_money", 1: "big_money"}, clock=clock,
                    options={"bot_pace": BotPace.FAST.value})
    await log.create_game(room.record, [seat.record() for seat in room.seats])
    await room.start_if_full()
    await eventually(lambda: clock.asleep == 1)  # a bot about to answer
    await room.close()
    lost = asyncio.ensure_future(room.bots._run())  # as if its cancellation had been lost
    await eventually(lost.done)
    assert lost.result() is None and room.game is not None and room.game.answer_count == 0
