"""A room's clocks on the virtual clock: whose runs, what each answer charges (stored
with it), the increment, a time-out's resignation, and clocks rebuilt after a restart."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from dominion.protocol import Snapshot, Update
from dominion.server.engine import Answer, Game, Resignation, ResignReason, Setup
from dominion.server.metrics import Metrics
from dominion.server.play import room as room_module
from dominion.server.play.clock import utc_now
from dominion.server.play.history import HistoryCache
from dominion.server.play.room import Room
from dominion.server.play.seat_tokens import hash_token
from dominion.server.play.seats import Seat
from dominion.server.ratings.ledger import RatedGame
from dominion.server.settings import Settings
from dominion.server.storage import GameRecord, GameState, MemoryGameLog
from tests.eventually import eventually
from tests.virtual_clock import VirtualClock

from .test_room import PLAY_ALL_TREASURES, Listener

KINGDOM = tuple(Setup.create(["a", "b"], kingdom="First Game").kingdom)
ONE_MINUTE = {"initial_seconds": 60, "increment_seconds": 5}
NAMES = ("Ann", "Bob", "Cy")
SEED = 20261202


async def clocked(log: MemoryGameLog, clock: VirtualClock, *, seats: int = 2,
                  rated: bool = False, bot_accounts: bool = False, **settings: Any) -> Room:
    """A started table of `seats` players (accounts 1, 2, ...) with a 1+5 clock."""
    options = {"time_control": ONE_MINUTE} | ({"rated": True} if rated else {})
    record = GameRecord(id="g-000000000001", created_at=utc_now(), state=GameState.OPEN,
                        edition=2, seats=seats, kingdom=KINGDOM, options=options)
    room = Room(record, [Seat(i) for i in range(seats)], log,
                replace(Settings(), rated_min_turns=0, **settings), Metrics(),
                HistoryCache(100_000), clock=clock)
    await log.create_game(room.record, [seat.record() for seat in room.seats])
    for index, name in enumerate(NAMES[:seats]):
        await room.take_seat(name, hash_token(name), account_id=index + 1,
                             bot_account=bot_accounts)
    assert room.state == GameState.PLAYING
    return room


def pending_of(room: Room) -> tuple[int, int]:
    assert room.game is not None and room.game.pending is not None
    return room.game.pending.player, room.game.pending.id


def remaining(room: Room) -> list[int]:
    state = room.timekeeper.state()
    assert state is not None
    return list(state.remaining_ms)


async def test_the_deciders_clock_runs_and_each_answer_stores_its_charge() -> None:
    log, clock = MemoryGameLog(), VirtualClock()
    room = await clocked(log, clock)
    seat, decision = pending_of(room)
    assert room.timekeeper.clocks is not None and room.timekeeper.clocks.running == seat
    clock.advance(3)
    assert remaining(room)[seat] == 57_000 and remaining(room)[1 - seat] == 60_000
    await room.answer(seat, decision, [PLAY_ALL_TREASURES])
    assert log.charged_ms[room.id] == [3_000]
    assert remaining(room)[seat] == 57_000  # charged, and running on from here


async def test_a_bot_account_over_the_network_plays_under_the_clock() -> None:
    log, clock = MemoryGameLog(), VirtualClock()
    room = await clocked(log, clock, bot_accounts=True)
    seat, _ = pending_of(room)
    assert room.timekeeper.clocks is not None and room.timekeeper.clocks.running == seat
    clock.advance(60)
    await eventually(lambda: room.state == GameState.FINISHED)
    assert log.answers[room.id] == [Resignation(seat, ResignReason.TIMED_OUT)]


async def test_the_increment_comes_when_the_players_turn_ends() -> None:
    log, clock = MemoryGameLog(), VirtualClock()
    room = await clocked(log, clock)
    seat, decision = pending_of(room)
    clock.advance(3)
    await room.answer(seat, decision, [PLAY_ALL_TREASURES])
    assert room.game is not None and room.game.pending is not None
    end_turn = next(option for option, offered in enumerate(room.game.pending.options)
                    if offered.kind == "end_phase")
    clock.advance(4)
    await room.answer(seat, room.game.pending.id, [end_turn])
    assert pending_of(room)[0] == 1 - seat  # the other player's turn, and clock
    assert remaining(room)[seat] == 60_000 - 7_000 + 5_000
    assert room.timekeeper.clocks is not None and room.timekeeper.clocks.running == 1 - seat


def answers_until_another_players_question(seed: int) -> list[Answer]:
    """Random answers of the game `seed` makes with its players, from its start, until a
    decision waits on a player whose turn it is not (an Attack's question)."""
    game = Game(Setup.create(list(NAMES[:2]), kingdom=list(KINGDOM)), seed)
    chooser, answers = random.Random(seed), []
    while game.pending is not None and game.pending.player == game.turn.player:
        pending = game.pending
        if pending.forced:
            choices = tuple(range(len(pending.options)))
        else:
            count = chooser.randint(pending.min, min(pending.max, len(pending.options)))
            choices = tuple(chooser.sample(range(len(pending.options)), count))
        answers.append(Answer(pending.player, pending.id, choices))
        game.answer(*answers[-1])
    assert game.pending is not None, "the game ended before any Attack: another seed"
    return answers


async def test_an_attacks_question_runs_the_victims_clock(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(room_module, "new_seed", lambda: SEED)
    log, clock = MemoryGameLog(), VirtualClock()
    # long enough that nobody times out while random play reaches an Attack
    room = await clocked(log, clock)
    room.timekeeper.clocks.remaining_ms[:] = [10**9, 10**9]  # type: ignore[union-attr]
    for answer in answers_until_another_players_question(SEED):
        await room.answer(answer.player, answer.decision, answer.choices)
    assert room.game is not None
    victim, question = pending_of(room)
    attacker = room.game.turn.player
    assert victim != attacker
    before = remaining(room)
    clock.advance(7)
    after = remaining(room)
    assert after[victim] == before[victim] - 7_000 and after[attacker] == before[attacker]
    listener = Listener()
    room.subscribe(listener, None)
    room.send_snapshot(listener)
    [snapshot] = listener.received
    assert isinstance(snapshot, Snapshot) and snapshot.clocks is not None
    assert snapshot.clocks.running == victim
    assert room.game.pending is not None
    options = room.game.pending
    await room.answer(victim, question, list(range(options.min)) if not options.forced
                      else list(range(len(options.options))))
    assert log.charged_ms[room.id][-1] == 7_000  # the victim's, stored with their answer


async def test_a_time_out_in_two_players_ends_the_game_and_the_other_wins_rated() -> None:
    log, clock = MemoryGameLog(), VirtualClock()
    room = await clocked(log, clock, rated=True)
    listener = Listener()
    room.subscribe(listener, None)
    seat, _ = pending_of(room)
    clock.advance(59.999)
    assert room.state == GameState.PLAYING
    clock.advance(0.001)
    await eventually(lambda: room.state == GameState.FINISHED)
    assert log.answers[room.id] == [Resignation(seat, ResignReason.TIMED_OUT)]
    assert log.charged_ms[room.id] == [60_000]
    result = log.games[room.id].result
    assert result is not None
    assert result["winners"] == [1 - seat] and result["timed_out"] == [seat]
    update = next(frame for frame in listener.received if isinstance(frame, Update))
    assert {"kind": "resigned", "player": seat, "data": {"reason": "timed_out"}} \
        in update.events
    assert update.clocks is not None and update.clocks.running is None
    assert update.clocks.remaining_ms[seat] == 0
    ranks = {rated.seat: rated.rank
             for rated in RatedGame.from_dict(log.rating_outbox[room.id]).seats}
    assert ranks == {seat: 1, 1 - seat: 0}


async def test_a_time_out_in_three_players_lets_a_bot_play_on_ranked_last() -> None:
    log, clock = MemoryGameLog(), VirtualClock()
    room = await clocked(log, clock, seats=3, rated=True)
    seat, _ = pending_of(room)
    clock.advance(60)
    await eventually(lambda: room.game is not None and seat in room.game.resigned)
    assert room.seats[seat].played_by is not None  # a stand-in plays it on
    assert room.game is not None and room.game.timed_out == [seat]
    assert room.state == GameState.PLAYING
    # the others resign: the game ends, and the seat that timed out ranks last
    for other in (s for s in range(3) if s != seat):
        if room.state == GameState.PLAYING:
            await room.resign(other)
    await eventually(lambda: room.state == GameState.FINISHED)
    ranks = {rated.seat: rated.rank
             for rated in RatedGame.from_dict(log.rating_outbox[room.id]).seats}
    assert ranks[seat] == max(ranks.values())
    assert sorted(ranks.values()).count(ranks[seat]) == 2  # tied with the later resigner


async def test_an_answer_in_time_stops_the_time_out() -> None:
    log, clock = MemoryGameLog(), VirtualClock()
    room = await clocked(log, clock)
    seat, decision = pending_of(room)
    clock.advance(59)
    await room.answer(seat, decision, [PLAY_ALL_TREASURES])
    clock.advance(0.5)  # 59.5 s in all: seat's clock still has time
    assert room.state == GameState.PLAYING and room.game is not None
    assert room.game.resigned == []


async def test_a_restart_rebuilds_the_clocks_and_charges_nobody_for_the_downtime() -> None:
    log, clock = MemoryGameLog(), VirtualClock()
    room = await clocked(log, clock)
    seat, decision = pending_of(room)
    clock.advance(3)
    await room.answer(seat, decision, [PLAY_ALL_TREASURES])
    clock.advance(10)  # then the server stops: these 10 s are never stored
    await room.close()
    later = VirtualClock()
    later.advance(5_000)  # the server was down for a long while
    stored = log.load_game(room.id)
    assert stored is not None
    restored = Room.restore(stored, log, room.settings, Metrics(), HistoryCache(100_000),
                            clock=later)
    await restored.resume_after_restart()
    assert remaining(restored)[seat] == 57_000 and remaining(restored)[1 - seat] == 60_000
    later.advance(2)
    listener = Listener()
    restored.subscribe(listener, None)
    restored.send_snapshot(listener)  # a resume's snapshot shows the time left
    [snapshot] = listener.received
    assert isinstance(snapshot, Snapshot) and snapshot.clocks is not None
    assert snapshot.clocks.remaining_ms[seat] == 55_000 and snapshot.clocks.running == seat
    later.advance(55)
    await eventually(lambda: restored.state == GameState.FINISHED)
    assert log.answers[room.id][-1] == Resignation(seat, ResignReason.TIMED_OUT)


async def test_a_table_without_a_clock_sends_none_and_stores_no_charge() -> None:
    log, clock = MemoryGameLog(), VirtualClock()
    room = await clocked(log, clock)
    room.record = replace(room.record, options={})  # as if made without one
    room.timekeeper.start(Game(Setup.create(["a", "b"], kingdom=list(KINGDOM))))
    assert room.timekeeper.state() is None and room.timekeeper.charge_for(0) is None


async def test_an_in_server_bots_seat_runs_no_clock() -> None:
    log, clock = MemoryGameLog(), VirtualClock()
    record = GameRecord(id="g-000000000001", created_at=utc_now(), state=GameState.OPEN,
                        edition=2, seats=2, kingdom=KINGDOM,
                        options={"time_control": ONE_MINUTE})
    seats = [Seat(0), Seat(1, "Bot 1 (big_money)", bot="big_money")]
    room = Room(record, seats, log, Settings(), Metrics(), HistoryCache(100_000), clock=clock)
    await log.create_game(room.record, [seat.record() for seat in room.seats])
    await room.take_seat("Ann", hash_token("Ann"))
    game = room.game
    assert game is not None
    for _ in range(2):  # Ann ends a turn of hers, so that the bot plays one
        await eventually(lambda: game.pending is not None and game.pending.player == 0)
        assert room.timekeeper.clocks is not None and room.timekeeper.clocks.running == 0
        clock.advance(1)
        pending = game.pending
        assert pending is not None
        end = next(number for number, option in enumerate(pending.options)
                   if option.kind == "end_phase")
        await room.answer(0, pending.id, [end])
    await eventually(lambda: game.pending is not None and game.pending.player == 0)
    bots = [charged for entry, charged in zip(log.answers[room.id], log.charged_ms[room.id],
                                              strict=True) if entry.player == 1]
    assert bots and set(bots) == {0}
    assert remaining(room)[1] == 60_000  # no increment either: its clock is not used
