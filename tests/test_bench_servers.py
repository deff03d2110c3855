"""The benches that play against a server over the network (tests/test_bench.py says
why they have a file of their own): each still runs and reports what
docs/BENCHMARKS.md says it measures."""

from __future__ import annotations

import pytest

from .bench_run import BENCH, run_json

pytestmark = pytest.mark.system  # each benchmark run for a moment


@pytest.mark.parametrize("protocol", ["1", "2"])
def test_server_load_plays_over_both_protocol_versions(protocol: str) -> None:
    result = run_json(str(BENCH / "server_load.py"), "--games", "4", "--seconds", "1",
                      "--protocol", protocol)
    server = result["server"]
    # the clients' acks are counted (how many a second is the bench's figure, not a test's)
    assert server["answers"] >= 4, server
    assert server["refused"] == 0, server  # and none of their answers was refused
    assert server["latency_ms"]["count"] > 0
    assert server["live_games_min"] >= 1 and server["games_created"] >= 4
    assert result["echo"]["round_trips_per_second"] > 0
    floor = result["floor"]  # the I/O floor's seats took turns, and each answer was acked
    assert floor["answers_per_second"] > 0 and floor["server_cpu_us_per_answer"] > 0
    # every accepted answer was committed, in group commits read from /metrics
    assert server["commits_per_second"] > 0 and server["writes_per_commit"] >= 1
    assert server["server_cpu_ms_per_game_setup"] > 0  # games were set up before play
    # every game created was stored, and every accepted answer (the warm-up game's too)
    stored = server["stored"]
    assert stored["games"] > server["games_created"] and stored["answers"] > server["answers"]
    assert stored["bytes_per_game"] > 0
    assert result["server_log_lines"] == 0  # no warning or error from the server


def test_the_rated_population_bench_plays_rated_games_into_the_ledger() -> None:
    # Random and Strong, one account each, at every table (in-server bots fill the rest):
    # Strong wins, so the leaderboards' order holds after a handful of games
    result = run_json(str(BENCH / "rated_population.py"), "--games", "4",
                      "--strategies", "random,strong", "--players-per-strategy", "1",
                      "--tables", "1", "--bot-seats", "0")
    assert result["games"] == result["ledger_games"] == 4  # the outbox applied every game
    assert result["in_known_order"] is True and result["server_faults"] == 0
    assert result["in_server_seats"] > 0  # the 3-6-player tables' other seats
    for pool in ("2p", "3-6p"):
        scores = result["pools"][pool]
        assert scores["games"] == 2
        board = scores["leaderboard"]  # the accounts played over the network, and rank
        assert board["random"]["games"] == board["strong"]["games"] == 2
        assert board["random"]["mean_rating"] < board["strong"]["mean_rating"]
    two = result["pools"]["2p"]  # the second game was predicted from the first
    assert two["log_loss"] < two["uniform_log_loss"] and two["brier"] < two["uniform_brier"]


def test_the_strong_load_bench_times_the_bots_decisions_and_the_probe() -> None:
    result = run_json(str(BENCH / "strong_load.py"), "--games", "3", "--seconds", "2",
                      "--cost-games", "1", "--think", "0.05")
    cost = result["cost"]
    assert cost["first_decision_ms"] > 0 and cost["decision"]["count"] > 50
    load = result["load"]
    assert load["against_strong"]["count"] > 0, "the people played the strong bot"
    assert load["probe"]["count"] > 0 and load["answers_stored"] > 0
    assert load["server_faults"] == 0
