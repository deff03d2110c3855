"""bench/levels.py puts the bots on the rating scale: the ratings under which the
project's model expects the scores their games against each other made (a few games
here: the figures come from full runs, docs/BOTS.md "Levels")."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture(scope="module")
def levels() -> Iterator[ModuleType]:
    sys.path.insert(0, str(BENCH))
    try:
        import levels
    finally:
        sys.path.remove(str(BENCH))
    yield levels


def test_the_fit_finds_the_ratings_that_made_the_scores(levels: ModuleType) -> None:
    true = {"a": 1480.0, "b": 1700.0, "c": 2100.0}
    results = {}
    for first, second in (("a", "b"), ("a", "c"), ("b", "c")):
        score = levels.win_chance(true[first], true[second])
        results[first, second] = levels.Result(400, score, score - 0.04, score + 0.04)
    rated = levels.fit(results, "a", 1480.0)
    assert rated["a"]["mu"] == 1480 and rated["a"]["interval"] is None
    for name in ("b", "c"):
        assert abs(rated[name]["mu"] - true[name]) <= 2
        low, high = rated[name]["interval"]
        assert low < rated[name]["mu"] < high


def test_a_better_score_is_a_higher_rating(levels: ModuleType) -> None:
    ratings = [levels.fit({("b", "a"): levels.Result(100, score, score, score)}, "a",
                          1500.0)["b"]["mu"] for score in (0.2, 0.4, 0.6, 0.8)]
    assert ratings == sorted(ratings) and ratings[1] < 1500 < ratings[2]


def test_every_pair_plays_from_both_seats_on_both_editions(levels: ModuleType) -> None:
    results = levels.play_pairs(["big_money", "smithy_big_money", "strong:1"], 2, seed=1,
                                jobs=1)
    assert sorted(results) == [("big_money", "smithy_big_money"), ("big_money", "strong:1"),
                               ("smithy_big_money", "strong:1")]
    assert all(result.games == 4 for result in results.values())  # 2 per Kingdom kind


def test_the_fit_finds_multiplayer_ratings_from_one_seat_against_copies(
        levels: ModuleType) -> None:
    true = {"a": 1710.0, "b": 2000.0, "c": 2400.0}
    results = {}
    for first, second in (("a", "b"), ("a", "c"), ("b", "c")):
        score = levels.win_chance(true[first], true[second], 4)
        results[first, second] = levels.Result(400, score, score - 0.04, score + 0.04, 4)
    rated = levels.fit(results, "a", 1710.0)
    for name in ("b", "c"):
        assert abs(rated[name]["mu"] - true[name]) <= 2


def test_a_multiplayer_pair_sits_one_against_copies(levels: ModuleType) -> None:
    results = levels.play_pairs(["big_money", "smithy_big_money"], 3, seed=1, jobs=1,
                                players=3)
    (result,) = results.values()
    assert result.players == 3 and result.games == 6  # 3 per Kingdom kind
    assert levels.win_chance(1500.0, 1500.0, 3) == pytest.approx(1 / 3, abs=0.01)
