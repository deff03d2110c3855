"""A room's clocks in time: which seat's clock runs, since when, and its time-out.

`Clocks` (clocks.py) is the pure state; this part drives it on the room's `Clock`. The
clock runs for the pending decision's player while a person (or a bot account over the
network) holds the seat; an in-server bot's seat, a stand-in's included, never runs one.
Each entry of the log charges what it took (stored with it); when a running clock
reaches zero the room resigns the seat for its player (`ResignReason.TIMED_OUT`).
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from dominion.protocol import ClockState

from ..engine import Answer, Game, Resignation
from ..storage import GameState
from .clock import Clock, Timer
from .clocks import Clocks, TimeControl

if TYPE_CHECKING:
    from .room import Room

log = logging.getLogger("dominion.room")

TurnMark = tuple[int, int]
"""A game's turn number and whose turn it is, taken before an entry is applied."""


def turn_mark(game: Game) -> TurnMark:
    return game.turn.number, game.turn.player


def turn_ended(game: Game, before: TurnMark, bots: Collection[int]) -> int | None:
    """Whose own turn the entry just applied ended, for its increment (None: none did,
    the game ended, or a bot plays the seat: one of `bots` from the start, or a stand-in
    after it resigned; its clock never runs)."""
    number, player = before
    if game.turn.number == number:  # the same turn, or the game ended in it
        return None
    return None if player in game.resigned or player in bots else player


class Timekeeper:
    __slots__ = ("_clock", "_room", "_started", "_timer", "clocks")

    def __init__(self, room: Room, clock: Clock) -> None:
        self._room = room
        self._clock = clock
        self.clocks: Clocks | None = None
        """None: the table has no clock (or its game has not started)."""
        self._started = 0.0
        """When the running clock last started, on `_clock`."""
        self._timer: Timer | None = None

    @property
    def control(self) -> TimeControl | None:
        return TimeControl.of_options(self._room.record.options)

    def start(self, game: Game, entries: Sequence[Answer | Resignation] = (),
              charged: Sequence[int] = ()) -> Game:
        """Set the clocks of a game that starts, or that a restart rebuilds: `game` at its
        start, then its log so far, `entries` (each having charged its `charged`: none
        given, nothing), applied to it and to the clocks. The game, brought up to date;
        `run` starts the clock once the room has it (a restart's: nobody is charged for the
        time the server was down)."""
        control = self.control
        clocks = self.clocks = None if control is None else Clocks(control, len(game.players))
        if clocks is None:  # no turns to mark: applied without a Python loop (a restart
            deque(map(game.apply, entries), maxlen=0)  # replays millions of answers)
            return game
        for entry, ms in zip(entries, charged or (0,) * len(entries), strict=True):
            before = turn_mark(game)
            game.apply(entry)
            clocks.applied(entry.player, ms, turn_ended(game, before, self._bot_seats()))
        return game

    def elapsed_ms(self) -> int:
        return max(0, round((self._clock.now() - self._started) * 1000))

    def charge_for(self, player: int) -> int | None:
        """What an entry by `player`, accepted now, charges (None: the table has no clock;
        0: their clock was not running)."""
        clocks = self.clocks
        if clocks is None:
            return None
        return self.elapsed_ms() if clocks.running == player else 0

    def applied(self, game: Game, player: int, charged: int | None, before: TurnMark) -> None:
        """An entry by `player` was applied live, charging `charged`."""
        clocks = self.clocks
        if clocks is None:
            return
        was_running = clocks.running
        clocks.applied(player, charged or 0, turn_ended(game, before, self._bot_seats()))
        if player == was_running or self._running_seat() != was_running:
            self.run()

    def refresh(self) -> None:
        """A seat's holder changed (its player came back): start its clock if it should
        run and none does (a running one is never stopped uncharged)."""
        if self.clocks is not None and self.clocks.running is None:
            self.run()

    def state(self) -> ClockState | None:
        """The clocks for a frame made now (None: no clock)."""
        clocks = self.clocks
        if clocks is None:
            return None
        wire = clocks.wire(self.elapsed_ms())
        return ClockState(remaining_ms=tuple(wire["remaining_ms"]), running=wire["running"],
                          initial_ms=wire["initial_ms"], increment_ms=wire["increment_ms"])

    def stop(self) -> None:
        """The game ended, or the server stops: no clock runs."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.clocks is not None and self._room.state != GameState.PLAYING:
            self.clocks.running = None

    def _bot_seats(self) -> list[int]:
        """The seats in-server bots sit in from the start."""
        return [seat.index for seat in self._room.seats if seat.bot is not None]

    def _running_seat(self) -> int | None:
        room, game = self._room, self._room.game
        if game is None or game.pending is None or room.closed or room.state != GameState.PLAYING:
            return None
        seat = game.pending.player
        if room.seats[seat].played_by is not None or seat in game.resigned:
            return None
        return seat

    def run(self) -> None:
        """Start the clock of whoever must answer now, and its time-out."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        clocks = self.clocks
        if clocks is None:
            return
        clocks.running = self._running_seat()
        self._started = self._clock.now()
        if clocks.running is not None:
            self._arm(clocks.running)

    def _arm(self, seat: int) -> None:
        assert self.clocks is not None
        left = self.clocks.remaining(seat, self.elapsed_ms())
        self._timer = self._clock.call_later(left / 1000, self._ran_out, seat)

    def _ran_out(self, seat: int) -> None:
        self._timer = None
        clocks = self.clocks
        if clocks is None or clocks.running != seat:
            return
        if clocks.remaining(seat, self.elapsed_ms()) > 0:  # a timer may fire a little early
            self._arm(seat)
            return
        game = self._room.game
        assert game is not None and game.pending is not None
        log.info("a clock ran out", extra={"game": self._room.id, "seat": seat})
        self._room.spawn(self._room.time_out(seat, game.pending.id))
