"""`dominion-sim` and the in-process strategies."""

from __future__ import annotations

import json

import pytest

from dominion.server import sim
from dominion.server.sim import main, simulate


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main([*args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_json_report(capsys: pytest.CaptureFixture[str]) -> None:
    report = run_json(capsys, "--games", "40", "--strategies", "big_money,smithy_big_money",
                      "--kingdom", "First Game", "--seed", "3")
    assert report["games"] == 40
    wins = report["wins"]
    assert isinstance(wins, dict) and set(wins) == {"big_money", "smithy_big_money"}
    assert sum(wins.values()) + report["ties"] == 40  # type: ignore[operator]
    assert 20 < report["average_turns"] < 80  # type: ignore[operator]


def test_same_seed_same_games(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--games", "30", "--players", "3", "--strategies", "random,big_money", "--seed", "9")
    first, second = run_json(capsys, *args), run_json(capsys, *args)
    assert first["wins"] == second["wins"] and first["average_turns"] == second["average_turns"]
    assert first["strategies"] == ["random", "big_money", "random"]


def test_first_edition_and_card_list_kingdom(capsys: pytest.CaptureFixture[str]) -> None:
    kingdom = "adventurer,bureaucrat,chancellor,chapel,feast,laboratory,market,mine,thief,spy"
    report = run_json(capsys, "--games", "10", "--edition", "1", "--kingdom", kingdom,
                      "--strategies", "random,random,random,random", "--seed", "1")
    assert report["games"] == 10


def test_smithy_beats_plain_big_money() -> None:
    report = simulate(["big_money", "smithy_big_money"], 400, kingdom="First Game", seed=5)
    assert report.wins["smithy_big_money"] > 2 * report.wins["big_money"]


def test_big_money_mirror_takes_canonical_length_and_counts_each_seat() -> None:
    report = simulate(["big_money", "big_money"], 200, kingdom="First Game", seed=6).to_dict()
    assert 14 < report["average_turns_per_player"] < 22
    # one strategy's wins merge both seats; by seat and by turn order they are apart
    assert len(report["wins_by_seat"]) == len(report["wins_by_turn_order"]) == 2
    assert sum(report["wins_by_seat"]) == sum(report["wins_by_turn_order"]) == report[
        "wins"]["big_money"]
    assert all(wins > 40 for wins in report["wins_by_seat"])


def test_each_seat_and_each_place_in_turn_order_is_counted() -> None:
    """Random Kingdoms, three seats: who won is told by seat and by turn order."""
    report = simulate(["big_money", "smithy_big_money", "random"], 60, seed=4)
    assert sum(report.seat_wins.values()) == sum(report.wins.values())
    assert report.seat_wins[1] == report.wins["smithy_big_money"]
    assert sum(report.order_wins.values()) == sum(report.wins.values())
    assert report.order_wins != report.seat_wins  # the first player is drawn per game


@pytest.mark.integration  # a real server or socket
def test_processes_play_the_same_games_as_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """`--jobs`: each game's Kingdom, seed and bots are drawn in order before any process
    plays it, so the report does not depend on who played what."""
    monkeypatch.setattr(sim, "CHUNK", 7)  # 60 games: 9 tasks, more than two a worker
    reports = [simulate(["random", "smithy_big_money", "big_money"], 60, seed=11, jobs=jobs)
               for jobs in (1, 2, 3)]
    for report in reports:
        report.seconds = 0.0  # the one thing that differs
    assert reports[0] == reports[1] == reports[2] and reports[0].games == 60


@pytest.mark.parametrize(
    "args",
    [
        ("--jobs", "0"),
        ("--strategies", "nobody"),
        ("--games", "0"),
        ("--kingdom", "No Such Set"),
        ("--players", "7", "--strategies", "random"),
    ],
)
def test_bad_arguments_exit_2(args: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(list(args)) == 2
    assert capsys.readouterr().err


def test_the_strong_bot_plays_in_dominion_sim(capsys: pytest.CaptureFixture[str]) -> None:
    report = run_json(capsys, "--games", "60", "--strategies", "strong,big_money", "--seed", "2",
                      "--jobs", "1")
    wins = report["wins"]
    assert isinstance(wins, dict) and wins["strong"] > 2 * wins["big_money"]
