"""What a player earns by declining or letting tables lapse: pure.

Each strike doubles the wait before they are matched again; strikes fade one at a
time, so that a player who stopped doing it is soon treated like anyone else. Strikes
that come close together (`APART_STRIKES` within `APART_SECONDS`) set the player apart:
until the oldest of them leaves that window they are matched only with others set apart,
so that a seeker who never accepts stops costing real players a confirm window each time.
"""

from __future__ import annotations

from dataclasses import dataclass

FIRST_PENALTY_SECONDS = 10.0
"""The wait after one strike; each further strike doubles it."""
MAX_PENALTY_SECONDS = 600.0
"""The longest wait, however many strikes."""
STRIKE_FADES_SECONDS = 900.0
"""A strike is forgiven after this long without another."""
APART_STRIKES = 2
"""Strikes within `APART_SECONDS` that set a player apart (the settings'
`automatch_apart_strikes`)."""
APART_SECONDS = 600.0
"""The window those strikes are counted in (`automatch_apart_seconds`)."""


@dataclass(frozen=True, slots=True)
class Apart:
    """When strikes set a player apart: `strikes` of them within `seconds`."""

    strikes: int = APART_STRIKES
    seconds: float = APART_SECONDS


DEFAULT_APART = Apart()


@dataclass(frozen=True, slots=True)
class Strikes:
    count: int = 0
    at: float = 0.0
    """When the last strike was counted (the fading counts from there)."""
    recent: tuple[float, ...] = ()
    """When each of the latest strikes was counted, oldest first (those that may still
    be within an `Apart` window)."""

    def now(self, now: float) -> int:
        """The strikes left after fading."""
        faded = int(max(0.0, now - self.at) // STRIKE_FADES_SECONDS)
        return max(0, self.count - faded)

    def struck(self, now: float, apart: Apart) -> Strikes:
        return Strikes(self.now(now) + 1, now, (*self._within(now, apart), now))

    def penalty(self, now: float) -> float:
        """Seconds to wait before being matched."""
        count = self.now(now)
        if count == 0:
            return 0.0
        doublings = min(count - 1, 16)  # far past the cap already
        return min(MAX_PENALTY_SECONDS, FIRST_PENALTY_SECONDS * (1 << doublings))

    def apart_until(self, now: float, apart: Apart) -> float:
        """Until when the player is matched only with others set apart (a time already
        past: they are not)."""
        recent = self._within(now, apart)
        if len(recent) < apart.strikes:
            return 0.0
        # apart until the strike that makes the count leaves the window
        return recent[len(recent) - apart.strikes] + apart.seconds

    def _within(self, now: float, apart: Apart) -> tuple[float, ...]:
        return tuple(at for at in self.recent if at > now - apart.seconds)
