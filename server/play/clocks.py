"""Time controls and the players' clocks: pure state, no timers (the room drives them).

A time control is a bank per player and an increment, written as Lichess writes it:
"10+5" is 10 minutes each, and 5 seconds added to a player's bank when their own turn
ends. The clock runs for whoever must answer the pending decision (an Attack's question
runs its victim's); what each answer charged is stored with it, so that a restart
rebuilds every clock from the log (docs/SERVER.md, "Clocks").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dominion import protocol
from dominion.protocol import ErrorCode

from ..refusal import Refusal

MIN_INITIAL_SECONDS = 30
MAX_INITIAL_SECONDS = 3 * 60 * 60
MAX_INCREMENT_SECONDS = 180
NONE_WORDS = ("", "none")
"""How a setting says "no clock"."""


@dataclass(frozen=True, slots=True)
class TimeControl:
    initial_seconds: int
    increment_seconds: int

    @property
    def initial_ms(self) -> int:
        return self.initial_seconds * 1000

    @property
    def increment_ms(self) -> int:
        return self.increment_seconds * 1000

    def problem(self) -> str | None:
        """What is out of bounds, if anything."""
        if not MIN_INITIAL_SECONDS <= self.initial_seconds <= MAX_INITIAL_SECONDS:
            return (f"initial_seconds is {MIN_INITIAL_SECONDS} to {MAX_INITIAL_SECONDS} "
                    f"(3 hours), not {self.initial_seconds}")
        if not 0 <= self.increment_seconds <= MAX_INCREMENT_SECONDS:
            return (f"increment_seconds is 0 to {MAX_INCREMENT_SECONDS}, not "
                    f"{self.increment_seconds}")
        return None

    def message(self) -> protocol.TimeControl:
        """As messages carry it (`match_found`)."""
        return protocol.TimeControl(self.initial_seconds, self.increment_seconds)

    def to_dict(self) -> dict[str, int]:
        return {"initial_seconds": self.initial_seconds,
                "increment_seconds": self.increment_seconds}

    def __str__(self) -> str:
        minutes = self.initial_seconds / 60
        return f"{minutes:g}+{self.increment_seconds}"

    @classmethod
    def parse(cls, text: str) -> TimeControl | None:
        """"10+5" (minutes, may be a fraction: "0.5+0", then seconds); "" or "none": no
        clock. ValueError for anything else, or out of bounds."""
        if text.strip().lower() in NONE_WORDS:
            return None
        minutes, plus, increment = text.partition("+")
        if not plus:
            raise ValueError(f"a time control is minutes+seconds, like 10+5, not {text!r}")
        control = cls(round(float(minutes) * 60), int(increment))
        problem = control.problem()
        if problem is not None:
            raise ValueError(problem)
        return control

    @classmethod
    def from_request(cls, raw: object) -> TimeControl | None:
        """A create request's `time_control`: null, or a map of two whole numbers within
        bounds; a `Refusal` (bad_time_control) otherwise."""
        if raw is None:
            return None
        if not isinstance(raw, Mapping):
            raise Refusal(ErrorCode.BAD_TIME_CONTROL, "time_control is null or "
                          "{initial_seconds, increment_seconds}")
        initial, increment = raw.get("initial_seconds"), raw.get("increment_seconds", 0)
        if type(initial) is not int or type(increment) is not int:  # not True, not 2.0
            raise Refusal(ErrorCode.BAD_TIME_CONTROL,
                          "initial_seconds and increment_seconds are whole numbers")
        control = cls(initial, increment)
        problem = control.problem()
        if problem is not None:
            raise Refusal(ErrorCode.BAD_TIME_CONTROL, problem)
        return control

    @classmethod
    def of_options(cls, options: Mapping[str, Any]) -> TimeControl | None:
        """A table's, from its stored options (None: no clock)."""
        stored = options.get("time_control")
        if not stored:
            return None
        return cls(int(stored["initial_seconds"]), int(stored["increment_seconds"]))


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
