"""What `dominion play` shows: the screen names every part (its numbers are the view's:
tests/clients/test_state.py, tests/clients/test_turn_headings.py)."""

from __future__ import annotations

import re

from dominion.clients.board import (
    Board,
    decision_lines,
    mine_lines,
    player_lines,
    status_line,
    supply_lines,
)
from dominion.clients.i18n import use
from dominion.clients.render import Names
from dominion.clients.state import GameState
from dominion.server.engine import Game, Setup, view
from dominion.server.engine.cards import all_cards


def board_text(lang: str) -> str:
    """Every part of a board as the line mode and the full screen draw it."""
    game = Game(Setup.create(["Ann", "Bob"], edition=2, kingdom="First Game"), seed=1)
    state = GameState(game="g-1", seat=0)
    state.apply_snapshot(len(game.events), view(game, 0))
    state.turn_player = 0
    state.players[1].discard_top = "silver"
    state.players[0].in_play = ["copper", "copper"]
    decision = {"id": 9, "player": 0, "kind": "order", "prompt": "Put these back.",
                "source": "sentry", "min": 2, "max": 2, "ordered": True,
                "options": [{"id": 0, "kind": "card", "card": "copper"},
                            {"id": 1, "kind": "card", "card": "estate"}]}
    use(lang)
    try:
        names = Names(all_cards(), lang)
        board = Board(game="g-1", names=names, state=state, decision=decision,
                      log=["Ann buys Silver."])
        return "\n".join([status_line(board), *supply_lines(state, names),
                          *player_lines(state, names), *mine_lines(state, names),
                          *decision_lines(board, 80)])
    finally:
        use("en")


def test_the_screen_shows_every_part() -> None:
    text = board_text("en")
    for part in ("Supply", "Province", "Market", "Player", "Discard", "Silver",
                 "In play: 2× Copper", "Your hand:", "Actions 1 · Buys 1 · $0",
                 "Sentry: Put these cards back onto your deck, in order.", "1. Copper",
                 "2. Estate", "Choose 2 options", "ends on top", "'s turn", "Buy phase"):
        assert part in text, part
    assert "order" not in text.split()  # no internal names


def test_the_screen_in_polish_has_no_english_left() -> None:
    text = board_text("pl")
    for part in ("Zasoby", "Prowincja", "Targowisko", "Gracz", "Odrzucone", "Srebrniki",
                 "W grze: 2× Miedziaki", "Twoja ręka:", "Akcje 1 · Zakupy 1 · monety: 0",
                 "Wartownik: Połóż te karty", "1. Miedziaki", "2. Posiadłość",
                 "Wybierz tyle opcji: 2", "na wierzchu", "tura", "faza zakupu"):
        assert part in text, part
    english = {"Supply", "Player", "Hand", "Turns", "Copper", "Your", "Actions", "Buys",
               "Choose", "turn", "phase", "In", "play"}
    assert not english & set(re.findall(r"[A-Za-z]+", text))


def test_a_rated_tables_players_show_their_ratings_beside_their_names() -> None:
    game = Game(Setup.create(["Ann", "Bob"], edition=2, kingdom="First Game"), seed=1)
    state = GameState(game="g-1", seat=0)
    state.apply_snapshot(len(game.events), view(game, 0))
    seats = [{"seat": 0, "name": "Ann", "account": True,
              "rating": {"rating": 1523, "provisional": True}},
             {"seat": 1, "name": "Bob", "bot_account": True,
              "rating": {"rating": 1610, "provisional": False}}]
    lines = player_lines(state, Names(all_cards()), seats)
    assert "Ann 1523? (you)" in lines[1] and "Bob [bot] 1610" in lines[2]
    unrated = player_lines(state, Names(all_cards()), [{"seat": 0}, {"seat": 1}])
    assert "Ann (you)" in unrated[1]
