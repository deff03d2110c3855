"""Open tables that nobody joins lapse (server/play/lapse.py): the deadline counts from
the table's creation or its latest player's arrival, as stored; a player who sits down
moves it; a started table never lapses. The timers run on a virtual clock; through a real
server, restarted and on several nodes: tests/server/test_open_table_lapse.py,
tests/cluster/test_lapse.py."""

from __future__ import annotations

import asyncio
import calendar
import time
from dataclasses import replace

from dominion.protocol import GameAbandoned
from dominion.server.play.lapse import LAPSED, Lapses, seconds_left
from dominion.server.play.seat_tokens import hash_token
from dominion.server.storage import GameState, MemoryGameLog
from tests.eventually import eventually
from tests.virtual_clock import VirtualClock

from .test_room import Listener, new_room

LONG_AGO = "2026-01-01T00:00:00Z"
LONG_AGO_SECONDS = calendar.timegm(time.strptime(LONG_AGO, "%Y-%m-%dT%H:%M:%SZ"))


def test_a_table_has_its_lapse_time_left_from_when_it_last_gained_a_player() -> None:
    since = calendar.timegm(time.strptime(LONG_AGO, "%Y-%m-%dT%H:%M:%SZ"))
    assert seconds_left(LONG_AGO, 1800, since + 1799.5) == 0.5
    assert seconds_left(LONG_AGO, 1800, since + 3600) == -1800


async def test_a_table_lapses_unless_a_player_sat_down_since() -> None:
    log = MemoryGameLog()
    room = new_room(log, seats=3)
    room.record = replace(room.record, created_at=LONG_AGO)
    await log.create_game(room.record, [seat.record() for seat in room.seats])
    assert room.waiting_since == LONG_AGO
    await room.take_seat("Ann", hash_token("Ann"))
    listener = Listener()
    room.subscribe(listener, room.seats[0])
    # Ann sat down after the deadline was armed: it moved, nothing happens
    assert not await room.lapse(LONG_AGO, LAPSED)
    assert room.state == GameState.OPEN and listener.received == []
    assert await room.lapse(room.waiting_since, LAPSED)
    assert room.state == GameState.ABANDONED and room.record.result is None
    assert log.games[room.id].state == GameState.ABANDONED  # stored
    assert listener.received == [GameAbandoned(game=room.id, reason=LAPSED)]
    assert not await room.lapse(room.waiting_since, LAPSED)  # once


async def test_a_started_table_never_lapses() -> None:
    log = MemoryGameLog()
    room = new_room(log)
    room.record = replace(room.record, created_at=LONG_AGO)
    await log.create_game(room.record, [seat.record() for seat in room.seats])
    for name in ("Ann", "Bob"):
        await room.take_seat(name, hash_token(name))
    assert not await room.lapse(room.waiting_since, LAPSED)
    assert room.state == GameState.PLAYING


async def test_tables_lapse_on_their_own_unless_the_host_says_never() -> None:
    log, clock = MemoryGameLog(), VirtualClock()
    never, lapsing = new_room(log), new_room(log)
    lapsing.record = replace(lapsing.record, id="g-000000000002", created_at=LONG_AGO)
    never.record = replace(never.record, created_at=LONG_AGO)
    for room in (never, lapsing):
        await log.create_game(room.record, [seat.record() for seat in room.seats])
    def wall() -> float:  # the stored time, as the clock moves on from it
        return LONG_AGO_SECONDS + clock.now()
    off, on = Lapses(0, clock, wall), Lapses(1800, clock, wall)
    off.watch(never)  # armed first: had it a deadline, it would lapse first
    on.watch(lapsing)
    clock.advance(1799.9)
    await asyncio.sleep(0)
    assert lapsing.state == GameState.OPEN
    clock.advance(0.1)
    await eventually(lambda: lapsing.state == GameState.ABANDONED)
    assert never.state == GameState.OPEN and clock.waiting == 0
    await on.close()

