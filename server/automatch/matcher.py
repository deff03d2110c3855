"""Forming tables from waiting seeks: pure, no clock (the caller says what time it is).

Players ask for the table sizes they accept, an edition, rated or not. A wave takes
every eligible seek and forms tables greedily (those set apart for failing tables only
among themselves): the longest waiting first (so that a
table dissolved because someone else lapsed puts its players back at the front), each
with the closest ratings it can find within everyone's window. The window starts narrow
and widens with waiting time, as on Lichess: first a close game, and after a while any
game rather than none.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..ratings.model import INITIAL, Pool, Rating, pool_for

BASE_WINDOW = 100.0
"""Rating points apart two players may be at once: about a 64 % favourite on the
1500-centred scale, a close game."""
WIDEN_PER_SECOND = 25.0
"""Points the window gains for each second waited: ±350 after ten seconds."""
MAX_WINDOW = 800.0
"""The widest window: past it a game would be one-sided rather than merely uneven."""
SIGMA_WEIGHT = 0.25
"""Part of a player's uncertainty added to their window: a new player's rating (sigma
500) may be far off, so they are matched more widely (+125), a settled one barely so."""


@dataclass(frozen=True, slots=True)
class Seek:
    """One waiting player's request as the matcher sees it."""

    player: str
    sizes: frozenset[int]
    edition: int
    rated: bool
    ratings: Mapping[Pool, Rating]
    """The player's rating in each pool (the 2-player and the 3-6-player one)."""
    since: float
    """When the player started waiting (kept when a table they were at was dissolved)."""
    penalty: float = 0.0
    """Seconds the player must wait before being matched (declined or lapsed tables)."""
    apart_until: float = 0.0
    """Until then the player is matched only with others set apart (penalty.py: strikes
    close together)."""

    def waited(self, now: float) -> float:
        return max(0.0, now - self.since)

    def apart(self, now: float) -> bool:
        return now < self.apart_until

    def rating(self, size: int) -> Rating:
        return self.ratings.get(pool_for(size), INITIAL)


@dataclass(frozen=True, slots=True)
class Table:
    size: int
    edition: int
    rated: bool
    players: tuple[str, ...]
    """Longest waiting first."""


def window(seek: Seek, size: int, now: float) -> float:
    """How far apart in rating the seek accepts its table's players, after its wait."""
    widened = min(MAX_WINDOW, BASE_WINDOW + WIDEN_PER_SECOND * seek.waited(now))
    return widened + SIGMA_WEIGHT * seek.rating(size).sigma


def eligible(seek: Seek, now: float) -> bool:
    """Whether the seek has served its penalty."""
    return seek.waited(now) >= seek.penalty


def fits(members: Sequence[Seek], size: int, now: float) -> bool:
    """Whether every member accepts the rating spread of the table: the window rule."""
    ratings = [seek.rating(size).mu for seek in members]
    spread = max(ratings) - min(ratings)
    return all(spread <= window(seek, size, now) for seek in members)


def form_tables(seeks: Iterable[Seek], now: float) -> list[Table]:
    """Tables from the eligible seeks; a player sits at one table at most. Each anchor,
    longest waiting first, tries its largest accepted size first (more players seated),
    taking the closest compatible ratings, longer waits first among equals."""
    waiting = sorted((seek for seek in seeks if eligible(seek, now)),
                     key=lambda seek: (seek.since, seek.player))
    seated: set[str] = set()
    tables = []
    for anchor in waiting:
        if anchor.player in seated:
            continue
        for size in sorted(anchor.sizes, reverse=True):
            members = _table_for(anchor, size, waiting, seated, now)
            if members is not None:
                tables.append(Table(size, anchor.edition, anchor.rated,
                                    tuple(seek.player for seek in members)))
                seated.update(seek.player for seek in members)
                break
    return tables


def _table_for(anchor: Seek, size: int, waiting: Sequence[Seek], seated: set[str],
               now: float) -> list[Seek] | None:
    mu = anchor.rating(size).mu
    candidates = sorted(
        (seek for seek in waiting
         if seek.player not in seated and seek.player != anchor.player
         and size in seek.sizes and seek.edition == anchor.edition
         and seek.rated == anchor.rated and seek.apart(now) == anchor.apart(now)),
        key=lambda seek: (abs(seek.rating(size).mu - mu), seek.since))
    members = [anchor]
    for candidate in candidates:
        if fits([*members, candidate], size, now):
            members.append(candidate)
            if len(members) == size:
                return sorted(members, key=lambda seek: (seek.since, seek.player))
    return None
