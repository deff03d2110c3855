"""The terminal client shows the clocks: each player's time left beside their name (the
running one counting down from its frame), and a warning when yours is under 30 s."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from dominion.clients.board import clock_line, clock_text, low_time_line, player_lines
from dominion.clients.i18n import use
from dominion.clients.render import Names, log_lines, result_line
from dominion.clients.state import GameState
from dominion.server.engine import Game, Setup, view


@pytest.fixture
def english() -> Iterator[None]:
    use("en")
    yield
    use("en")


def clocked_state(seat: int | None, remaining: list[int], running: int | None) -> GameState:
    game = Game(Setup.create(["Ann", "Bob"], kingdom="First Game", first_player=0), 7)
    state = GameState("g-1")
    state.apply_snapshot(game.event_count, view(game, seat),
                         {"remaining_ms": remaining, "running": running,
                          "initial_ms": 600_000, "increment_ms": 5_000})
    return state


@pytest.mark.parametrize(("ms", "text"), [(600_000, "10:00"), (59_001, "1:00"),
                                          (1, "0:01"), (0, "0:00"), (3_723_000, "1:02:03")])
def test_a_clock_reads_as_minutes_and_seconds(ms: int, text: str) -> None:
    assert clock_text(ms) == text


def test_each_player_has_their_time_beside_their_name_counting_down(english: None) -> None:
    state = clocked_state(1, [598_000, 600_000], running=0)
    at = state.clocks_at
    lines = player_lines(state, Names(), now=at + 3.2)
    assert "Ann [9:55]" in lines[1] and "Bob [10:00]" in lines[2]
    assert state.remaining_ms(0, at + 3.2) == 594_800  # only the running clock moves
    assert clock_line(state, at) == "Clocks: Ann 9:58 · Bob 10:00"


def test_a_table_without_a_clock_shows_none(english: None) -> None:
    game = Game(Setup.create(["Ann", "Bob"], kingdom="First Game", first_player=0), 7)
    state = GameState("g-1")
    state.apply_snapshot(game.event_count, view(game, 0))
    assert "[" not in "\n".join(player_lines(state, Names()))
    assert clock_line(state) is None and low_time_line(state) is None


def test_your_own_low_time_is_a_warning_in_your_language() -> None:
    state = clocked_state(0, [29_000, 600_000], running=0)
    at = state.clocks_at
    try:
        use("en")
        assert low_time_line(state, at + 1) == (
            "Hurry: your clock has 0:28 left; at 0:00 you lose the game.")
        use("pl")
        assert low_time_line(state, at + 1) == (
            "Pospiesz się: na twoim zegarze zostało 0:28; przy 0:00 przegrywasz grę.")
    finally:
        use("en")
    assert low_time_line(clocked_state(0, [31_000, 1_000], running=1)) is None  # not yours
    assert low_time_line(clocked_state(None, [1_000, 1_000], running=0)) is None  # watching


def test_a_player_the_clock_resigned_is_said_to_be_out_of_time(english: None) -> None:
    # a time-out read as any resignation ("Ann resigns."), where the web page said why
    players = ["Ann", "Bob"]
    timed_out = {"kind": "resigned", "player": 0, "data": {"reason": "timed_out"}}
    assert list(log_lines([timed_out, {"kind": "resigned", "player": 1}], players,
                          Names())) == ["Ann is out of time and resigns.", "Bob resigns."]
    result = {"scores": [3, 3], "winners": [1], "resigned": [0], "timed_out": [0]}
    assert result_line(result, players) == (
        "Scores: Ann 3, Bob 3. Out of time, so resigned: Ann. Winner: Bob.")
    try:
        use("pl")
        assert "Koniec czasu, a więc poddanie się: Ann." in result_line(result, players)
    finally:
        use("en")
