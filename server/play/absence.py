"""A room's absent players: a seat whose player is away is held for the grace period
(`seat_grace_seconds`); after it a bot takes the seat over (they may take it back), or,
as `absent_seat` says, a rated seat resigns or an unrated game ends without result."""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING

from dominion.protocol import GameOver

from ..engine.scoring import score_game
from ..refusal import Refusal
from ..replays import abandoned_result
from ..storage import GameState
from . import clock
from .clock import Clock, utc_now

if TYPE_CHECKING:
    from .room import Room
    from .seats import Seat

log = logging.getLogger("dominion.room")


class Absence:
    """The absence and takeover timers of one room's seats."""

    __slots__ = ("_clock", "_room")

    def __init__(self, room: Room, clock: Clock) -> None:
        self._room = room
        self._clock = clock

    def await_return(self, seat: Seat) -> None:
        """Hold an absent person's seat for the grace period."""
        room = self._room
        if room.state != GameState.PLAYING or seat.played_by is not None \
                or seat.absent_timer is not None or room.closed:
            return
        seat.absent_timer = self._clock.call_later(
            room.settings.seat_grace_seconds, self._seat_absent_soon, seat)

    def returned(self, seat: Seat) -> None:
        """The seat's player is back: the seat is theirs again, and is no longer waited for."""
        if seat.taken_over:  # back after the grace period
            seat.stand_in, seat.strategy, seat.taken_over = None, None, False
        self._stop(seat)

    def stop_all(self) -> None:
        """The game ended, or the server stops: no seat is waited for any more."""
        for seat in self._room.seats:
            self._stop(seat)

    @staticmethod
    def _stop(seat: Seat) -> None:
        if seat.absent_timer is not None:
            seat.absent_timer.cancel()
            seat.absent_timer = None

    def _seat_absent_soon(self, seat: Seat) -> None:
        # the coroutine is made only when the timer fires: a cancelled timer leaves
        # no never-awaited coroutine behind
        self._room.spawn(self.seat_absent(seat))

    async def seat_absent(self, seat: Seat) -> None:
        """A player stayed away past the grace period: a bot takes over, or the game ends."""
        room = self._room
        seat.absent_timer = None
        try:
            await room.awaken()  # a dormant game's engine first: nothing is decided without
        except Refusal:  # its log does not replay: the lobby let it go (Room.game)
            return
        if room.state != GameState.PLAYING or seat.connection is not None \
                or seat.played_by is not None:
            return  # back, ended, or a bot plays it already (they resigned meanwhile)
        if room.settings.absent_seat == "bot":
            await self._take_over(seat)
            return
        if room.record.rated:  # leaving never pays: ranked last, not a game without result
            with contextlib.suppress(Refusal):  # ended meanwhile, or the server stops
                await room.resign(seat.index)
            return
        async with room.lock:
            if room.state != GameState.PLAYING or room.game is None:
                return
            scored = score_game(room.game)
            stored = abandoned_result(scored)
            await room.finish(GameState.ABANDONED, stored)
            room.broadcast(GameOver(game=room.id, result=scored.end_dict() | stored))

    async def _take_over(self, seat: Seat) -> None:
        """A bot takes the absent player's seat. The takeover is stored first, so that the
        log never holds a bot's answer for a seat whose takeover it lacks (a restart ranks
        the seat last all the same); one that cannot be stored is tried again."""
        room = self._room
        at = utc_now()
        try:
            await room.storage.take_over_seat(room.id, seat.index, at)
        except Exception:
            log.exception("could not store a takeover; trying again",
                          extra={"game": room.id, "seat": seat.index})
            if not room.closed and seat.absent_timer is None and seat.connection is None:
                seat.absent_timer = self._clock.call_later(
                    clock.retry_seconds(), self._seat_absent_soon, seat)
            return
        seat.taken_over_at = seat.taken_over_at or at  # as stored, whatever happens next
        if room.state != GameState.PLAYING or seat.connection is not None \
                or seat.played_by is not None:
            return  # while it was stored: ended, or its player came back (or resigned)
        seat.stand_in, seat.taken_over = room.settings.takeover_strategy, True
        room.on_changed(room)
        log.info("bot takes over an absent seat", extra={"game": room.id, "seat": seat.index})
        room.bots.wake()
