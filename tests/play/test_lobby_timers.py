"""The lobby's timers on a virtual clock: an ended room stays in memory for
`ended_room_seconds` (a late subscriber still hears how it ended), and longer while a
rematch offer stands; an open table nobody joins lapses; seats nobody connects to are
taken over or the game abandoned. In-process, on a games file of
the test's own; through a real server: tests/server/test_replays.py,
tests/server/test_rematch.py, tests/server/test_open_table_lapse.py."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from dominion.protocol import RematchKingdom
from dominion.server.metrics import Metrics
from dominion.server.play.lobby import Lobby
from dominion.server.settings import Settings
from dominion.server.storage import GameState, Storage
from tests.eventually import eventually
from tests.virtual_clock import VirtualClock

ADDRESS = "192.0.2.1"


async def ended_table(lobby: Lobby, people: int) -> str:
    """A table of `people` and a Big Money bot whose people all resigned; its id."""
    room, _ = await lobby.create({"name": "Ann", "seats": people + 1, "kingdom": "First Game",
                                  "bots": {str(people): "big_money"}}, ADDRESS)
    for name in ("Bob", "Cid")[:people - 1]:
        await lobby.join(room.id, name)
    for seat in range(people):
        await room.resign(seat)
    assert room.state == GameState.FINISHED
    return room.id


async def test_an_ended_room_leaves_memory_when_its_time_is_up(storage: Storage) -> None:
    clock = VirtualClock()
    lobby = Lobby(storage, Settings(), Metrics(), clock=clock)
    kept = Settings().ended_room_seconds
    game = await ended_table(lobby, people=1)
    clock.advance(kept - 0.001)
    assert game in lobby.rooms
    clock.advance(0.001)
    assert game not in lobby.rooms
    await lobby.close()


async def test_an_ended_room_stays_while_a_rematch_offer_stands(storage: Storage) -> None:
    clock = VirtualClock()
    settings = replace(Settings(), ended_room_seconds=60.0, rematch_seconds=90.0)
    lobby = Lobby(storage, settings, Metrics(), clock=clock)
    game = await ended_table(lobby, people=2)
    await lobby.room(game).offer_rematch(0, RematchKingdom.SAME, ADDRESS, lambda: None)
    clock.advance(60.0)
    assert game in lobby.rooms and lobby.room(game).rematch_standing, "Bob may yet answer"
    clock.advance(30.0)  # the offer expires; the room is kept one more while
    assert not lobby.room(game).rematch_standing
    clock.advance(60.0)
    assert game not in lobby.rooms
    await lobby.close()


async def test_an_open_table_nobody_joins_lapses_and_leaves_memory(storage: Storage) -> None:
    clock = VirtualClock()
    settings = Settings()
    lobby = Lobby(storage, settings, Metrics(), clock=clock)
    table, _ = await lobby.create({"name": "Ann", "seats": 3}, ADDRESS)
    # created within the second its stored time names: its deadline is up to 1 s sooner
    clock.advance(settings.open_table_seconds - 1.001)
    await asyncio.sleep(0)
    assert table.state == GameState.OPEN
    clock.advance(1.001)
    await eventually(lambda: table.state == GameState.ABANDONED)
    stored = storage.load_game(table.id)
    assert stored is not None and stored.game.state == GameState.ABANDONED
    # (its end stored, the room is retired: the clock moves on until it is gone)
    await eventually(clock.advancing(lambda: table.id not in lobby.rooms,
                                     step=settings.ended_room_seconds))
    await lobby.close()


async def test_an_ended_room_whose_offer_was_accepted_leaves_memory_in_its_time(
        storage: Storage) -> None:
    clock = VirtualClock()
    settings = replace(Settings(), ended_room_seconds=60.0, rematch_seconds=90.0)
    lobby = Lobby(storage, settings, Metrics(), clock=clock)
    offered = await ended_table(lobby, people=2)
    await lobby.room(offered).offer_rematch(0, RematchKingdom.SAME, ADDRESS, lambda: None)
    other = await ended_table(lobby, people=1)  # no offer: it leaves in its time
    clock.advance(60.0)
    assert other not in lobby.rooms and offered in lobby.rooms
    await lobby.room(offered).answer_rematch(1, True, lambda: None)
    rematch = lobby.room(offered).rematch
    assert rematch is not None and rematch.new_game in lobby.rooms
    clock.advance(60.0)  # then it goes, as any ended room
    assert offered not in lobby.rooms and rematch.new_game in lobby.rooms
    await lobby.close()


@pytest.mark.parametrize(("absent", "end"), [("bot", GameState.FINISHED),
                                             ("abandon", GameState.ABANDONED)])
async def test_seats_that_never_connect_are_waited_for_then_replaced(
        storage: Storage, absent: str, end: GameState) -> None:
    clock = VirtualClock()
    settings = replace(Settings(), absent_seat=absent)
    lobby = Lobby(storage, settings, Metrics(), clock=clock)
    room, _ = await lobby.create({"name": "Ann", "seats": 2}, ADDRESS)
    await lobby.join(room.id, "Bob")  # the game starts; neither ever connects
    clock.advance(settings.seat_grace_seconds - 0.001)
    await asyncio.sleep(0)
    assert room.state == GameState.PLAYING and not any(s.taken_over for s in room.seats)
    clock.advance(0.001)
    await eventually(lambda: room.state == end)
    if absent == "bot":
        assert all(seat.played_by == settings.takeover_strategy and seat.bot is None
                   for seat in room.seats)
    await lobby.close()
