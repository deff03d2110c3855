"""Card statistics from the dumps' Parquet tables (server/replays/statistics.py,
docs/STATISTICS.md), over parts written by hand whose figures are counted here."""

from __future__ import annotations

from pathlib import Path

import pytest

from dominion.server.replays.statistics import Filters, Rate, Statistics, Who, dump_parts, wilson

from .stats_parts import KINGDOM, gain, game, seat, write_part

pytest.importorskip("duckdb", reason="pip install -e '.[stats]'")
pytest.importorskip("pyarrow", reason="pip install -e '.[stats]'")


def december(folder: Path) -> None:
    """Three 2-player games people played, one abandoned, one bots played."""
    games = [game("g1", first=0), game("g2", first=1), game("g3", first=1),
             game("g4", state="abandoned"), game("g5", first=0)]
    seats = [seat("g1", 0, winner=True, turns=15), seat("g1", 1, winner=False, turns=14),
             seat("g2", 0, winner=False, turns=18), seat("g2", 1, winner=True, turns=18),
             seat("g3", 0, winner=True, turns=15), seat("g3", 1, winner=False, turns=15),
             seat("g4", 0, winner=False), seat("g4", 1, winner=False),
             seat("g5", 0, winner=True, kind="bot"), seat("g5", 1, winner=False, kind="bot")]
    gains = [gain("g1", 0, "smithy", 1), gain("g1", 0, "silver", 2),
             gain("g1", 1, "silver", 1), gain("g1", 1, "silver", 2),
             gain("g2", 0, "silver", 1), gain("g2", 0, "silver", 2),
             gain("g2", 1, "smithy", 3), gain("g3", 1, "smithy", 1),
             gain("g4", 0, "smithy", 1), gain("g5", 0, "smithy", 1)]
    write_part(folder, "2026-12", games, seats, gains)


def read(folder: Path) -> Statistics:
    made = Statistics(folder)
    assert made.refresh() == ["2026-12"]
    return made


@pytest.fixture(scope="module")
def statistics(tmp_path_factory: pytest.TempPathFactory) -> Statistics:
    folder = tmp_path_factory.mktemp("december")
    december(folder)
    return read(folder)


def test_the_wilson_interval() -> None:
    assert wilson(0, 0) == (0.0, 0.0)
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    assert wilson(10, 10)[1] == pytest.approx(1.0) and wilson(0, 10)[0] == pytest.approx(0.0)


def test_a_card_is_counted_over_the_seats_of_games_with_it_in_the_supply(
        statistics: Statistics) -> None:
    cards = {figures.card: figures for figures in statistics.cards(Filters())}
    assert sorted(cards) == sorted(KINGDOM)
    smithy = cards["smithy"]
    assert smithy.in_supply == 6  # people's seats of g1-g3: g4 was abandoned, g5 bots'
    assert smithy.gain_rate == Rate.of(3, 6)
    assert (smithy.with_card.hits, smithy.with_card.n) == (2, 3)
    assert (smithy.without_card.hits, smithy.without_card.n) == (1, 3)
    assert smithy.with_card.low < 2 / 3 < smithy.with_card.high
    assert cards["village"].gain_rate.n == 6 and cards["village"].with_card.n == 0


def test_bots_are_counted_apart_from_people(statistics: Statistics) -> None:
    bots = {figures.card: figures for figures in statistics.cards(Filters(who=Who.BOTS))}
    assert bots["smithy"].in_supply == 2 and bots["smithy"].with_card == Rate.of(1, 1)
    assert [(row.players, row.wins.hits, row.wins.n)
            for row in statistics.first_player(Filters(who=Who.BOTS))] == [(2, 1, 1)]


def test_openings_are_the_gains_of_a_players_turns_one_and_two(
        statistics: Statistics) -> None:
    total, openings = statistics.openings(Filters(), 3)
    assert total == 6
    assert [(o.cards, o.share.hits, o.wins.hits) for o in openings] == [
        ((), 2, 2), (("silver", "silver"), 2, 0), (("silver", "smithy"), 1, 1)]


def test_the_first_players_wins_and_the_lengths_of_games(statistics: Statistics) -> None:
    [two] = statistics.first_player(Filters())
    assert (two.players, two.wins.hits, two.wins.n, two.fair) == (2, 2, 3, 0.5)
    assert [(row.turns, row.games) for row in statistics.lengths(Filters())] == [(15, 2),
                                                                                 (18, 1)]


def test_filters_narrow_every_figure(statistics: Statistics) -> None:
    assert statistics.first_player(Filters(players=3)) == []
    assert statistics.cards(Filters(edition=1)) == []
    assert statistics.lengths(Filters(rated_only=True)) == []
    assert statistics.openings(Filters(band=1400), 5) == (0, [])


def test_a_rating_band_counts_the_seats_rated_in_it(tmp_path: Path) -> None:
    write_part(tmp_path, "2026-11",
               [game("r1", rated=True), game("r2", rated=True)],
               [seat("r1", 0, winner=True, rating=1450), seat("r1", 1, winner=False, rating=1620),
                seat("r2", 0, winner=False, rating=1500), seat("r2", 1, winner=True, rating=1300)],
               [gain("r1", 0, "smithy", 1), gain("r2", 1, "smithy", 1)])
    statistics = Statistics(tmp_path)
    statistics.refresh()
    smithy = {f.card: f for f in statistics.cards(Filters(band=1400))}["smithy"]
    assert smithy.in_supply == 2 and smithy.with_card == Rate.of(1, 1)
    assert smithy.without_card == Rate.of(0, 1)
    # a game's band is its seats' mean: r1 1535, r2 1400
    assert [row.wins.n for row in statistics.first_player(Filters(band=1400))] == [2]
    assert statistics.first_player(Filters(band=1600)) == []


def test_a_refresh_reads_new_and_changed_parts_once(tmp_path: Path) -> None:
    december(tmp_path)
    statistics = read(tmp_path)
    assert statistics.refresh() == []
    write_part(tmp_path, "2027-01", [game("n1")],
               [seat("n1", 0, winner=True), seat("n1", 1, winner=False)], [])
    assert statistics.refresh() == ["2027-01"]
    assert statistics.first_player(Filters())[0].wins.n == 4
    write_part(tmp_path, "2027-01", [game("n1"), game("n2")],
               [seat("n1", 0, winner=True), seat("n1", 1, winner=False),
                seat("n2", 0, winner=True), seat("n2", 1, winner=False)], [])
    assert statistics.refresh() == ["2027-01"]  # remade: read again, not added twice
    assert statistics.first_player(Filters())[0].wins.n == 5
    (tmp_path / "dominion-2027-01.manifest.json").unlink()
    assert statistics.refresh() == []
    assert statistics.first_player(Filters())[0].wins.n == 3
    assert [part.period for part in statistics.parts] == ["2026-12"]


def test_a_days_dump_is_left_out_when_its_months_is_there(tmp_path: Path) -> None:
    for period in ("2026-12", "2026-12-01", "2026-11-30", "all"):
        (tmp_path / f"dominion-{period}.manifest.json").write_text("{}")
    assert sorted(dump_parts(tmp_path)) == ["2026-11-30", "2026-12"]


def test_a_part_that_cannot_be_read_leaves_the_figures_as_they_were(tmp_path: Path) -> None:
    december(tmp_path)
    statistics = read(tmp_path)
    write_part(tmp_path, "2027-01", [game("n1")],
               [seat("n1", 0, winner=True), seat("n1", 1, winner=False)], [])
    (tmp_path / "dominion-2027-01.seats.parquet").write_bytes(b"not parquet")
    with pytest.raises(Exception, match=r"(?i)parquet"):
        statistics.refresh()
    assert statistics.first_player(Filters())[0].wins.n == 3
    assert [part.period for part in statistics.parts] == ["2026-12"]
    write_part(tmp_path, "2027-01", [game("n1")],
               [seat("n1", 0, winner=True), seat("n1", 1, winner=False)], [])
    assert statistics.refresh() == ["2027-01"]
    assert statistics.first_player(Filters())[0].wins.n == 4
