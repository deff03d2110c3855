"""The reference strategies ported into bench/references play by their lists, and the
strength bench plays the strong bot against them (a few games: the figures come from
full runs, docs/BOTS.md)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from dominion.bots.strategies import BigMoney
from dominion.server.engine import Game, Setup
from dominion.server.play.bots import play_out, seat_table

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture(scope="module")
def strength() -> Iterator[ModuleType]:
    sys.path.insert(0, str(BENCH))
    try:
        import strength
    finally:
        sys.path.remove(str(BENCH))
    yield strength


KINGDOM = ("workshop", "gardens", "witch", "chapel", "smithy", "militia", "library",
           "council_room", "village", "moat")


def test_every_reference_plays_a_game_with_its_cards(strength: ModuleType) -> None:
    for name, reference in strength.REFERENCES.items():
        assert set(reference.requires) <= set(KINGDOM), name
        game = Game(Setup.create(2, edition=2, kingdom=KINGDOM), seed=3, history=False)
        play_out(game, [reference(), BigMoney()])
        assert game.result is not None
        owned = seat_table(game, 0).holdings(0)
        assert all(owned.get(card, 0) for card in reference.requires
                   if card != "village"), (name, owned)


def test_workshop_gardens_gains_gardens_with_its_workshops(strength: ModuleType) -> None:
    game = Game(Setup.create(2, edition=2, kingdom=KINGDOM), seed=4, history=False)
    play_out(game, [strength.REFERENCES["workshop_gardens"](), BigMoney()])
    owned = seat_table(game, 0).holdings(0)
    assert owned["workshop"] >= 9 and owned["gardens"] >= 4, owned


def test_the_bench_scores_the_strong_bot_against_each_reference(
        strength: ModuleType) -> None:
    matchups = [(name, 2) for name in ("workshop_gardens", "chapel_witch")]
    report = strength.measure("strong", matchups, ["random1"], 2)
    for entry in report["matchups"]:
        row = entry["random_kingdoms"]
        assert row["games"] == 2
        low, high = row["score_interval"]
        assert 0 <= low <= row["score"] <= high <= 1
        assert "target_met" in row
    assert report["reference_average"]["target"] == 0.65


def test_a_table_of_four_seats_three_different_references_with_their_cards(
        strength: ModuleType) -> None:
    pool = tuple(strength.REFERENCES)
    task = strength.Task("strong", strength.TABLE, 4, "random1", 5, 0, 16, (), pool)
    games = list(strength.games_of(task))
    assert [seat for *_, seat in games] == [0, 1, 2, 3] * 4
    for deal in range(4):
        table = strength.table_of(task, deal)
        assert len(set(table)) == 3 and set(table) <= set(pool)
        needed = {card for name in table for card in strength.REFERENCES[name].requires}
        kingdoms = {kingdom for _, kingdom, _, _ in games[4 * deal:4 * deal + 4]}
        assert len(kingdoms) == 1 and needed <= set(kingdoms.pop())
    report = strength.measure("strong", [(strength.TABLE, 4)], ["random1"], 4, pool=pool)
    row = report["matchups"][0]["random_kingdoms"]
    assert row["games"] == 4 and row["target"] == strength.TABLE_TARGET
