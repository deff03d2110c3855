"""The players' clocks: pure state, no timers (the room drives them, timekeeper.py).

A table's time control (server/time_control.py) is a bank per player and an increment
added when a player's own turn ends. The clock runs for whoever must answer the pending
decision (an Attack's question runs its victim's); what each answer charged is stored
with it, so that a restart rebuilds every clock from the log (docs/SERVER.md, "Clocks").
"""

from __future__ import annotations

from typing import Any

from ..time_control import TimeControl

__all__ = ["Clocks", "TimeControl"]


class Clocks:
    """Each seat's remaining time, and whose clock runs (the room sets `running`)."""

    __slots__ = ("control", "remaining_ms", "running")

    def __init__(self, control: TimeControl, seats: int) -> None:
        self.control = control
        self.remaining_ms = [control.initial_ms] * seats
        self.running: int | None = None
        """The seat whose clock runs now (None: nobody's, as when a bot answers or the
        game is over)."""

    def charge(self, seat: int, elapsed_ms: int) -> None:
        """Take `elapsed_ms` from the seat's bank (never below zero)."""
        self.remaining_ms[seat] = max(0, self.remaining_ms[seat] - max(0, elapsed_ms))

    def turn_ended(self, seat: int) -> None:
        """The seat's own turn ended: its increment."""
        self.remaining_ms[seat] += self.control.increment_ms

    def remaining(self, seat: int, elapsed_ms: int = 0) -> int:
        """The seat's time left, `elapsed_ms` into its running clock."""
        return max(0, self.remaining_ms[seat] - (elapsed_ms if seat == self.running else 0))

    def wire(self, elapsed_ms: int) -> dict[str, Any]:
        """The `clocks` of a frame made `elapsed_ms` after the running clock started."""
        return {"remaining_ms": [self.remaining(seat, elapsed_ms)
                                 for seat in range(len(self.remaining_ms))],
                "running": self.running, "initial_ms": self.control.initial_ms,
                "increment_ms": self.control.increment_ms}

    def applied(self, seat: int, elapsed_ms: int, turn_of: int | None) -> None:
        """One entry of the log applied: it charged `seat` `elapsed_ms`, and ended the
        turn of `turn_of` (None: no turn ended). Live and at a restart alike."""
        self.charge(seat, elapsed_ms)
        if turn_of is not None:
            self.turn_ended(turn_of)
