"""Resigning: a player gives up; the game ends once fewer than two players remain."""

from __future__ import annotations

import pytest

from dominion.server.engine import (
    Answer,
    EventKind,
    Game,
    IllegalAnswer,
    Resignation,
    ResignReason,
    Setup,
    event_record,
    replay,
)
from dominion.server.play.answer_log import AnswerLog
from dominion.server.replays.format import answer_entry, answer_record


def test_resigning_in_a_two_player_game_ends_it_and_the_other_wins() -> None:
    game = Game(Setup.create(2, kingdom="First Game"), seed=3)
    events = game.resign(0)
    assert game.over and game.pending is None
    assert [e.kind for e in events] == [EventKind.RESIGNED, EventKind.GAME_ENDED]
    assert game.result is not None
    assert game.result.winners == (1,) and game.result.resigned == (0,)


def test_a_resigned_player_cannot_win_even_with_more_points() -> None:
    game = Game(Setup.create(3, kingdom="First Game"), seed=3)
    game.players[2].hand.extend(["province"] * 3)
    game.count_holdings()
    game.resign(2)
    assert not game.over
    game.resign(0)
    assert game.over and game.result is not None
    assert game.result.winners == (1,)
    assert game.result.scores[2] > game.result.scores[1]


@pytest.mark.parametrize(("seat", "code"), [(5, "bad_player"), (-1, "bad_player"),
                                            (True, "bad_player")])
def test_bad_resignations_change_nothing(seat: int, code: str) -> None:
    game = Game(Setup.create(3, kingdom="First Game"), seed=3)
    before = (game.snapshot(), len(game.events), list(game.answers))
    with pytest.raises(IllegalAnswer) as refused:
        game.resign(seat)
    assert refused.value.code == code
    assert (game.snapshot(), len(game.events), list(game.answers)) == before


def test_resigning_twice_or_after_the_end_is_refused() -> None:
    game = Game(Setup.create(3, kingdom="First Game"), seed=3)
    game.resign(1)
    with pytest.raises(IllegalAnswer) as again:
        game.resign(1)
    assert again.value.code == "already_resigned"
    game.resign(0)
    with pytest.raises(IllegalAnswer) as over:
        game.resign(2)
    assert over.value.code == "game_over"


def test_a_timed_out_resignation_says_why_and_replays_the_same() -> None:
    game = Game(Setup.create(3, kingdom="First Game"), seed=3)
    events = game.resign(1, ResignReason.TIMED_OUT)
    assert events[0].data == {"reason": "timed_out"} and game.timed_out == [1]
    game.resign(0)  # the player's own: no reason
    assert game.over and game.result is not None
    assert game.result.to_dict()["timed_out"] == [1]
    assert [e.data for e in game.events if e.kind == EventKind.RESIGNED] == [
        {"reason": "timed_out"}, None]
    again = replay(game.setup, game.seed, game.answers)
    assert [event_record(e) for e in again.events] == [event_record(e) for e in game.events]
    assert game.answers[0] == Resignation(1, ResignReason.TIMED_OUT)


def test_a_result_without_time_outs_keeps_its_old_keys() -> None:
    game = Game(Setup.create(2, kingdom="First Game"), seed=3)
    game.resign(0)
    assert game.result is not None and "timed_out" not in game.result.to_dict()


def test_the_reason_survives_every_log_a_resignation_is_kept_in() -> None:
    entries = [Answer(0, 1, (1,)), Resignation(1, ResignReason.TIMED_OUT), Resignation(0)]
    assert list(AnswerLog(entries)) == entries  # the room's, in memory
    assert [answer_entry(answer_record(entry)) for entry in entries] == entries  # replays
    assert answer_record(entries[2]) == {"player": 0, "resign": True}  # as before clocks
