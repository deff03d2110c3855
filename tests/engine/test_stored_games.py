"""Games stored before secret questions, or before events told a discard pile's new top,
still replay exactly as they were played.

`data/legacy_games.json` holds four random-bot games (both editions, Kingdoms full of
forced questions: Moat, Militia, Library, Bureaucrat, Throne Room, Mine, Moneylender,
Chancellor, Sentry) recorded by the engine of commit 37353af, which skipped every
question whose answer was forced: their set-ups (as stored, without
`secret_questions`), seeds, answers and a digest of their events.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from dominion.server.engine import (
    Answer,
    Game,
    IllegalAnswer,
    InvalidSetup,
    Resignation,
    Setup,
    replay,
)
from dominion.server.engine.view import event_record

DATA = Path(__file__).parent / "data"
GAMES: list[dict[str, Any]] = json.loads((DATA / "legacy_games.json").read_text())["games"]
BEFORE_TOPS: list[dict[str, Any]] = json.loads(
    (DATA / "games_before_discard_tops.json").read_text())["games"]
"""Random-bot games with Harbingers and Vassals taking cards off discard piles, recorded by
the engine of commit d280a7f, whose events did not say the piles' new tops (and whose
Harbinger took the lowest copy of the card picked)."""


def entries(game: dict[str, Any]) -> list[Answer | Resignation]:
    return [Resignation(*entry) if len(entry) == 1 else Answer(entry[0], entry[1],
                                                                tuple(entry[2]))
            for entry in game["answers"]]


def digest(game: Game) -> str:
    text = json.dumps([event_record(e) for e in game.events], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.mark.parametrize("stored", GAMES, ids=lambda g: f"edition{g['setup']['edition']}-"
                         f"{len(g['setup']['players'])}p")
def test_a_game_stored_before_secret_questions_replays_as_it_was_played(
        stored: dict[str, Any]) -> None:
    setup = Setup.from_dict(stored["setup"])
    assert not setup.secret_questions
    assert setup.to_dict() == stored["setup"]  # so its game_started event is unchanged
    game = replay(setup, stored["seed"], entries(stored))
    assert game.over
    assert (len(game.events), digest(game)) == (stored["events"], stored["events_sha256"])
    # The same answers do not make the same game under today's rule: the fixture
    # exercises the questions that the rule now asks.
    with pytest.raises(IllegalAnswer):
        replay(replace(setup, secret_questions=True), stored["seed"], entries(stored))


@pytest.mark.parametrize("stored", BEFORE_TOPS, ids=lambda g: f"{len(g['setup']['players'])}p")
def test_a_game_stored_before_discard_tops_replays_as_it_was_played(
        stored: dict[str, Any]) -> None:
    setup = Setup.from_dict(stored["setup"])
    assert setup.secret_questions and not setup.discard_tops
    assert setup.to_dict() == stored["setup"]
    game = replay(setup, stored["seed"], entries(stored))
    assert game.over
    assert (len(game.events), digest(game)) == (stored["events"], stored["events_sha256"])
    # Today's events say more, and Harbinger takes the copy picked: the fixture takes
    # cards off discard piles, so its answers make another game (or stop fitting).
    try:
        today = digest(replay(replace(setup, discard_tops=True), stored["seed"],
                              entries(stored)))
    except IllegalAnswer:
        today = "illegal"
    assert today != stored["events_sha256"]


@pytest.mark.parametrize(("flag", "code"), [("secret_questions", "bad_secret_questions"),
                                            ("discard_tops", "bad_discard_tops")])
def test_new_set_ups_follow_the_latest_rules_and_say_so(flag: str, code: str) -> None:
    setup = Setup.create(2)
    assert getattr(setup, flag)
    assert setup.to_dict()[flag] is True
    assert Setup.from_dict(setup.to_dict()) == setup
    with pytest.raises(InvalidSetup) as refused:
        Setup.from_dict(setup.to_dict() | {flag: "yes"})
    assert refused.value.code == code
