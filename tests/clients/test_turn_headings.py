"""One definition of a turn everywhere: a turn is named by its player's own count ("Bob's
turn 5"), never by the table's (the tenth turn taken). The same moment of a game, headed
by the terminal's status line, its log and replay headings, the replay screen, the text
replay download and the web page (its log and its turn line's title, under Node)."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from dominion.bots import make_strategy
from dominion.bots.wire import WireDecision
from dominion.clients.board import Board, status_line
from dominion.clients.render import Names, log_lines, replay_turns, summary_line
from dominion.clients.replay_view import steps
from dominion.clients.state import GameState
from dominion.server.engine import Game, Setup, decision_view, event_record, view
from dominion.server.play.bots import seat_table
from dominion.server.replays.text_log import text_log

JS = Path(__file__).resolve().parents[2] / "clients" / "web" / "js"
NODE = shutil.which("node")
HEADING = "Bob's turn 5"
"""The table's tenth turn: Bob's fifth (Ann began)."""


def tenth_turn() -> Game:
    """A game of Ann and Bob, at the start of the table's tenth turn."""
    game = Game(Setup.create(["Ann", "Bob"], edition=2, kingdom="First Game"), seed=2)
    strategy = make_strategy("big_money", random.Random(2))
    while game.turn.number < 10:
        pending = game.pending
        assert pending is not None
        decision = WireDecision.from_map(decision_view(pending, pending.player))
        game.answer(pending.player, pending.id,
                    strategy.choose(decision, seat_table(game, pending.player)))
    assert (game.turn.player, game.players[1].turns) == (1, 5)
    return game


def replay_of(game: Game) -> dict[str, object]:
    return {"game": {"id": "g-1", "edition": 2, "kingdom": list(game.setup.kingdom)},
            "players": [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Bob"}],
            "setup": {"players": ["Ann", "Bob"]}, "complete": True,
            "events": [event_record(event) for event in game.events]}


def test_every_python_client_heads_the_moment_with_the_players_own_turn() -> None:
    game = tenth_turn()
    names = Names()
    state = GameState(game="g-1")
    state.apply_snapshot(game.event_count, view(game, 0))
    assert HEADING in status_line(Board(game="g-1", names=names, state=state))
    replay = replay_of(game)
    players = ["Ann", "Bob"]
    assert f"── {HEADING} ──" in log_lines(replay["events"], players, names)  # type: ignore[arg-type]
    assert [turn.heading for turn in replay_turns(replay, names)][-1] == HEADING
    _log, shown = steps(replay, names)
    assert shown[-1].hands.splitlines()[0] == HEADING  # `dominion replay show`
    assert f"\n{HEADING}\n" in text_log(replay)
    for heading in ("Turn 10", "turn 10"):
        assert heading not in text_log(replay) and heading not in status_line(
            Board(game="g-1", names=names, state=state))


@pytest.mark.integration  # the command, a program
@pytest.mark.skipif(NODE is None, reason="Node.js is not installed (.ci/run installs it)")
def test_the_web_page_heads_the_moment_with_the_players_own_turn() -> None:
    game = tenth_turn()
    started = [event_record(e) for e in game.events if e.kind == "turn_started"][-1]
    seen = view(game, None)
    describe_js = json.dumps((JS / "describe.js").as_uri())
    script = (f"import {{ describe, turnTitle }} from {describe_js};\n"
              f"import {{ I18n }} from {json.dumps((JS / 'i18n.js').as_uri())};\n"
              "const i18n = new I18n(null, ['en']);\n"
              f"const event = {json.dumps(started)};\n"
              f"const turn = {json.dumps(seen['turn'])};\n"
              "console.log(JSON.stringify([describe(event, ['Ann', 'Bob'], i18n).text,\n"
              "  turnTitle(i18n, ['Ann', 'Bob'], turn.player, turn.player_turn)]));")
    assert NODE is not None
    done = subprocess.run([NODE, "--input-type=module", "-e", script], capture_output=True,
                          text=True, check=True, timeout=60)
    assert json.loads(done.stdout) == [HEADING, HEADING]


def test_a_listing_counts_the_tables_turns_and_names_none() -> None:
    """`dominion list` shows how many turns the table has taken: a count, not a turn."""
    summary = {"id": "g-1", "state": "playing", "edition": 2, "turn": 10,
               "seats": [{"name": "Ann"}, {"name": "Bob"}]}
    line = summary_line(summary, Names())
    assert "10 turns played" in line and "turn 10" not in line
    assert "0 turns played" in summary_line({**summary, "turn": "ten"}, Names())
