"""The wait a player earns by declining or letting tables lapse: pure.

Each strike doubles the wait before they are matched again; strikes fade one at a
time, so that a player who stopped doing it is soon treated like anyone else.
"""

from __future__ import annotations

from dataclasses import dataclass

FIRST_PENALTY_SECONDS = 10.0
"""The wait after one strike; each further strike doubles it."""
MAX_PENALTY_SECONDS = 600.0
"""The longest wait, however many strikes."""
STRIKE_FADES_SECONDS = 900.0
"""A strike is forgiven after this long without another."""


@dataclass(frozen=True, slots=True)
class Strikes:
    count: int = 0
    at: float = 0.0
    """When the last strike was counted (the fading counts from there)."""

    def now(self, now: float) -> int:
        """The strikes left after fading."""
        faded = int(max(0.0, now - self.at) // STRIKE_FADES_SECONDS)
        return max(0, self.count - faded)

    def struck(self, now: float) -> Strikes:
        return Strikes(self.now(now) + 1, now)

    def penalty(self, now: float) -> float:
        """Seconds to wait before being matched."""
        count = self.now(now)
        if count == 0:
            return 0.0
        doublings = min(count - 1, 16)  # far past the cap already
        return min(MAX_PENALTY_SECONDS, FIRST_PENALTY_SECONDS * (1 << doublings))
