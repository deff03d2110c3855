"""Open tables that nobody joins lapse: `open_table_seconds` after a table was created, or
after its latest player sat down, it is abandoned (everyone connected to it is told why)
and leaves the lobby's listings. The time is counted from what storage holds, so a table
restored after its time passed lapses as the server starts."""

from __future__ import annotations

import asyncio
import calendar
import logging
import time
from collections.abc import Callable

from ..stopping import stop_tasks
from .clock import LOOP_CLOCK, Clock, Timer
from .room import OPEN, Room

log = logging.getLogger("dominion.lobby")
LAPSED = "nobody took the table's free seats in time: it has lapsed"
"""What `game_abandoned` says to the connections at a lapsed table."""


def seconds_left(since: str, lapse_seconds: float, now: float) -> float:
    """How long a table waiting since `since` (a stored time) has before it lapses."""
    return calendar.timegm(time.strptime(since, "%Y-%m-%dT%H:%M:%SZ")) + lapse_seconds - now


class Lapses:
    """The lobby's open tables' deadlines: one timer per table that may lapse."""

    def __init__(self, seconds: float, clock: Clock = LOOP_CLOCK,
                 wall: Callable[[], float] = time.time) -> None:
        self._seconds = seconds
        """0: tables never lapse."""
        self._clock = clock
        """The timers' clock."""
        self._wall = wall
        """Wall-clock time: the deadline counts from a stored time."""
        self._timers: dict[str, tuple[str, Timer]] = {}
        """Game id -> (waiting since, its timer)."""
        self._tasks: set[asyncio.Future[None]] = set()

    def watch(self, room: Room) -> None:
        """Arm, move or drop a table's timer after it was made, restored or changed: an
        open table lapses `seconds` after it last gained a player; a started or ended
        table, or one automatch made (automatch decides its fate), does not."""
        may_lapse = self._seconds > 0 and room.state == OPEN \
            and not room.record.options.get("automatch")
        since = room.waiting_since if may_lapse else None
        armed = self._timers.get(room.id)
        if armed is not None and armed[0] == since:
            return  # a change that moves no deadline (who is connected, say)
        if armed is not None:
            armed[1].cancel()
            del self._timers[room.id]
        if since is None:
            return
        delay = max(0.0, seconds_left(since, self._seconds, self._wall()))
        self._timers[room.id] = (since, self._clock.call_later(delay, self._due, room, since))

    def _due(self, room: Room, since: str) -> None:
        self._timers.pop(room.id, None)
        task = asyncio.ensure_future(self._lapse(room, since))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _lapse(self, room: Room, since: str) -> None:
        # a player who sat down meanwhile moved the deadline: the room's change armed it
        if await room.lapse(since, LAPSED):
            log.info("open table lapsed", extra={"game": room.id, "waiting_since": since})

    async def close(self) -> None:
        """For shutdown: no table lapses from now on (a restart counts from storage)."""
        for _since, timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        await stop_tasks(list(self._tasks))
