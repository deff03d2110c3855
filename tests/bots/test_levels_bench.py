"""bench/levels.py puts a bot on the rating scale: the rating at which the project's model
expects the score it made against the fixed points (a few games here: the figures come
from full runs, docs/BOTS.md "Levels")."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from dominion.server.ratings import Pool
from dominion.server.ratings.ledger import BOT_MU

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture(scope="module")
def levels() -> Iterator[ModuleType]:
    sys.path.insert(0, str(BENCH))
    try:
        import levels
    finally:
        sys.path.remove(str(BENCH))
    yield levels


def test_a_score_even_with_a_fixed_point_rates_a_player_at_its_value(
        levels: ModuleType) -> None:
    for anchor in levels.ANCHORS:
        mu = levels.rating_for(0.5, [(anchor, 10)])
        assert abs(mu - BOT_MU[anchor][Pool.TWO_PLAYER]) < 1


def test_a_better_score_is_a_higher_rating(levels: ModuleType) -> None:
    played = [("big_money", 30), ("strong", 10)]
    ratings = [levels.rating_for(score, played) for score in (0.2, 0.4, 0.6, 0.8)]
    assert ratings == sorted(ratings) and len(set(ratings)) == 4
    for score, mu in zip((0.2, 0.4, 0.6, 0.8), ratings, strict=True):
        assert levels.expected_score(mu, played) == pytest.approx(score, abs=1e-6)


def test_a_level_is_rated_against_every_fixed_point_but_itself(levels: ModuleType) -> None:
    rated = levels.rate("strong:3", 2, seed=1, jobs=1)
    assert sorted(rated["scores"]) == ["big_money", "smithy_big_money"]
    assert all(seen["games"] == 4 for seen in rated["scores"].values())  # 2 per Kingdom kind
    low, high = rated["rating"]["interval"]
    assert low <= rated["rating"]["mu"] <= high
    assert rated["fixed_mu"] == BOT_MU["strong"][Pool.TWO_PLAYER]
