"""Ratings: the Weng-Lin (OpenSkill) model that rates players from finished games'
ranks, 2-player and 3-6-player games apart (docs/RATINGS.md).

Pure functions over values: nothing here stores, sends or reads a clock. The ledger
that applies each rated game once, automatch and the leaderboards build on it.
"""

from __future__ import annotations

from .model import (
    INITIAL,
    MODEL,
    Pool,
    Rating,
    RatingError,
    pool_for,
    update,
    win_probabilities,
)
from .ranks import ranks

__all__ = [
    "INITIAL",
    "MODEL",
    "Pool",
    "Rating",
    "RatingError",
    "pool_for",
    "ranks",
    "update",
    "win_probabilities",
]
