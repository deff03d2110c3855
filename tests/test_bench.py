"""The benchmarks still run and still measure what docs/BENCHMARKS.md says they do
(a short run each; the figures themselves come from full runs, not from tests). The
benches that play against a server over the network are in test_bench_servers.py, the
abuse bench in test_bench_abuse.py: `--dist loadfile` runs a file on one worker, and the
three together kept one worker busy for about eight minutes."""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from dominion.server.accounts.sqlite_store import SqliteAccountStore
from dominion.server.ratings.ledger import RatedGame, RatedSeat

from .bench_run import BENCH, run_json

pytestmark = pytest.mark.system  # each benchmark run for a moment


def test_engine_bench_plays_its_games() -> None:
    result = run_json(str(BENCH / "engine.py"), "--games", "20", "--repeat", "1")
    assert result["games"] == 20
    assert result["direct_games_per_second"] > 0 and result["interface_games_per_second"] > 0
    assert result["answers"] > 20 * 50  # every answer of the 20 games was recorded
    assert result["answer_path_us_per_answer"] > 0


def test_the_archive_bench_archives_prunes_and_reads_back_every_game() -> None:
    result = run_json(str(BENCH / "archive.py"), "--games", "10")
    assert result["games"] == 10 and result["archive"] == "sqlite"
    assert 0 < result["zstd_bytes"] < result["msgpack_bytes"]
    assert 0 < result["replay_zstd_bytes"] < result["replay_bytes"]
    assert result["archive_cpu_ms_per_game"] > 0 and result["read_back_cpu_ms_per_game"] > 0


def test_the_ratings_bench_ranks_the_bots_in_their_known_order() -> None:
    result = run_json(str(BENCH / "ratings.py"), "--games", "400", "--seed", "1")
    assert result["in_known_order"] is True
    for pool in ("2p", "3-6p"):
        scores = result["pools"][pool]
        assert scores["games"] == 200
        mus = [scores["strategies"][name]["mu"]
               for name in ("random", "big_money", "smithy_big_money", "strong")]
        assert mus == sorted(mus), (pool, mus)  # weakest first, as the bench claims
        # the ratings predict: better than a uniform guess of the winner
        assert scores["log_loss"] < scores["uniform_log_loss"]
        assert scores["brier"] < scores["uniform_brier"]


async def test_the_ratings_bench_scores_a_real_ledger(tmp_path: Path) -> None:
    db = tmp_path / "games.accounts.sqlite3"
    store = SqliteAccountStore(db)
    await store.start()
    try:
        ada = await store.create_account("Ada", "ada", "h", datetime.now(UTC))
        for number in range(6):  # Ada beats Random every time: the predictions get surer
            await store.apply_rated_game(RatedGame(f"g-{number}", "2026-12-01T10:00:00Z", (
                RatedSeat(0, 0, account_id=ada.id), RatedSeat(1, 1, bot="random"))),
                datetime.now(UTC))
    finally:
        await store.close()
    result = run_json(str(BENCH / "ratings.py"), "--ledger", str(db))
    two, more = result["pools"]["2p"], result["pools"]["3-6p"]
    assert two["games"] == 6 and more["games"] == 0
    assert two["log_loss"] < two["uniform_log_loss"] and two["brier"] < two["uniform_brier"]


def test_strength_bench_plays_both_seat_orders_and_reports_intervals() -> None:
    result = run_json(str(BENCH / "strength.py"), "--games", "4", "--kingdoms",
                      "random2,random1,fixed", "--jobs", "2")
    matchups = {(m["opponent"], m["players"]): m for m in result["matchups"]}
    assert set(matchups) == {("random", 2), ("big_money", 2), ("smithy_big_money", 2),
                             ("big_money", 4)}
    for (opponent, players), matchup in matchups.items():
        assert set(matchup["kingdoms"]) == {"random2", "random1", "fixed"}
        for row in matchup["kingdoms"].values():
            assert row["games"] == 4 and row["wins"] + row["ties"] <= 4
            low, high = row["win_interval"]
            assert 0 <= low <= row["win_rate"] <= high <= 1
            assert row["decision_cpu_us_mean"] > 0
        summary = matchup["random_kingdoms"]
        assert summary["games"] == 8
        assert ("target" in summary) == ((opponent, players) != ("random", 2))


def test_strength_bench_seats_the_bot_once_per_seat_on_each_deal() -> None:
    sys.path.insert(0, str(BENCH))
    try:
        import strength
    finally:
        sys.path.remove(str(BENCH))
    task = strength.Task("strong", "big_money", 4, "random2", 7, 0, 8)
    games = list(strength.games_of(task))
    assert [seat for *_, seat in games] == [0, 1, 2, 3, 0, 1, 2, 3]
    assert len({(kingdom, seed) for _, kingdom, seed, _ in games[:4]}) == 1
    assert games[0][1:3] != games[4][1:3]
    for kind in ("random1", "fixed"):
        witch = strength.Task("strong", "big_money", 2, kind, 7, 0, 12, ("witch",))
        assert all("witch" in kingdom for _, kingdom, _, _ in strength.games_of(witch))
    low, high = strength.wilson(8, 10)  # the textbook's 0.490 to 0.943
    assert round(low, 3) == 0.490 and round(high, 3) == 0.943


def test_the_restart_bench_times_a_start_on_stored_games() -> None:
    result = run_json(str(BENCH / "restart.py"), "--games", "20", "--answers", "10",
                      "--repeat", "1", "--memory")
    assert result["games"] == 20 and result["read_s"] > 0 and result["rebuild_s"] > 0
    assert result["wake_s"] > 0 and 0 < result["dormant_kib"] < result["replayed_kib"]
    assert 0 < result["ready_s"] <= result["playable_s"] <= result["restored_s"]
    assert result["restored_cpu_s"] > 0
    assert 0 < result["bare_ready_s"] <= result["bare_playable_s"]


def test_the_export_bench_reads_every_archived_game_in_each_format_and_coding() -> None:
    result = run_json(str(BENCH / "export.py"), "--games", "12", "--limit", "5",
                      "--repeat", "1")
    assert set(result["variants"]) == {"x-ndjson+identity", "x-ndjson+gzip", "x-ndjson+zstd",
                                       "msgpack+identity", "msgpack+zstd"}
    for figures in result["variants"].values():
        assert figures["replays"] == 12 and figures["replays_per_second"] > 0
    assert result["probe_alone"]["count"] > 0  # the probing game's answers came back


def test_stats_bench_refreshes_and_times_each_query() -> None:
    pytest.importorskip("duckdb", reason="pip install -e '.[stats]'")
    result = run_json(str(BENCH / "stats.py"), "--games", "10", "--scale-to", "300",
                      "--parts", "2", "--queries", "5")
    assert result["games"] >= 300 and result["refresh"]["seconds"] > 0
    assert set(result["queries"]) == {"cards", "openings", "first_player", "lengths"}
    assert all(times["p95_ms"] > 0 for times in result["queries"].values())
    assert result["cards_over_http"]["p95_ms"] > 0


def test_a_dump_loads_into_duckdb_and_gives_the_statistics_benchs_figures(
        tmp_path: Path) -> None:
    pytest.importorskip("duckdb", reason="pip install -e '.[stats]'")
    pytest.importorskip("pyarrow", reason="pip install -e '.[dumps]'")
    from dominion.server.main import main

    db = str(tmp_path / "games.sqlite3")
    month = datetime.now(UTC).strftime("%Y-%m")
    assert main(["fill", "--db", db, "--games", "3", "--seed", "1"]) == 0
    assert main(["dump", "--db", db, "--period", month, "--out", str(tmp_path)]) == 0
    result = run_json(str(BENCH / "dump_load.py"), str(tmp_path), month)
    assert result["games"]["rows"] == result["replays"]["rows"] == 3
    assert result["replays"]["answers"] > 3 * 20
    assert result["seats"]["rows"] == 6 and result["gains"]["rows"] > 0
    assert 0 <= result["first_player"]["win_rate"] <= 1
    # the statistics bench over these real games, as over a million of them
    statistics = run_json(str(BENCH / "stats.py"), "--dumps", str(tmp_path), "--queries", "2")
    assert statistics["games"] == 3 and statistics["refresh"]["cpu_seconds"] > 0
    assert set(statistics["queries"]) == {"cards", "openings", "first_player", "lengths"}
    assert statistics["cards_over_http"]["p95_ms"] > 0
