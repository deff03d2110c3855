"""A table's time control: a bank per player and an increment, written as Lichess writes
it ("10+5": 10 minutes each, 5 seconds added when a player's own turn ends). Shared by the
settings (the defaults), the lobby (a table's choice) and the room's clocks
(server/play/clocks.py)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dominion import protocol
from dominion.protocol import ErrorCode

from .refusal import Refusal

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
