"""What `dominion play` shows: Actions, Buys and the tops of discard piles kept from
events agree with the engine's view at every step; the screen names every part."""

from __future__ import annotations

import random

import pytest
from rich.console import Console

from dominion.clients.bots import make_strategy
from dominion.clients.bots.wire import WireDecision
from dominion.clients.play import Screen
from dominion.clients.render import Names
from dominion.clients.state import GameState
from dominion.server.bots import EngineTable
from dominion.server.engine import Game, Setup, decision_view, view, visible_event
from dominion.server.engine.cards import kingdom_cards


@pytest.mark.parametrize("edition", [1, 2])
def test_actions_buys_and_discard_tops_match_the_engine(edition: int) -> None:
    cards = list(kingdom_cards(edition))
    for number in range(6):
        rng = random.Random(number)
        kingdom = rng.sample(cards, 10)
        players = 2 + number % 3
        game = Game(Setup.create(players, edition=edition, kingdom=kingdom), seed=number)
        strategy = make_strategy("random", rng)
        states = [GameState(game="g", seat=seat) for seat in range(players)]
        seen = steps = known = 0
        while game.pending is not None and steps < 2000:
            for event in game.events[seen:]:
                seen += 1
                for state in states:
                    state.apply_event(seen, visible_event(event, state.seat))
            for state in states:
                assert (state.actions, state.buys) == (game.turn.actions, game.turn.buys)
                shown = view(game, state.seat)["players"]
                for player, seen_by_engine in zip(state.players, shown, strict=True):
                    # None when the events do not tell (Chancellor, Harbinger, Vassal)
                    assert player.discard_top in (None, seen_by_engine["discard_top"])
                    known += player.discard_top == seen_by_engine["discard_top"]
            pending = game.pending
            decision = WireDecision.from_map(decision_view(pending, pending.player))
            table = EngineTable(game, pending.player)
            game.answer(pending.player, pending.id, strategy.choose(decision, table))
            steps += 1
        assert known > 0.9 * steps * players * players


def test_the_screen_shows_every_part() -> None:
    game = Game(Setup.create(2, edition=2, kingdom="First Game"), seed=1)
    state = GameState(game="g-1", seat=0)
    snapshot = view(game, 0)
    state.apply_snapshot(len(game.events), snapshot)
    state.players[1].discard_top = "silver"
    state.players[1].in_play = ["copper", "copper"]
    console = Console(record=True, width=100, force_terminal=False)
    decision = {"id": 9, "player": 0, "kind": "order", "prompt": "Put these back.",
                "source": "sentry", "min": 2, "max": 2, "ordered": True,
                "options": [{"id": 0, "kind": "card", "card": "copper"},
                            {"id": 1, "kind": "card", "card": "estate"}]}
    Screen(console, Names(lang="en"), "g-1").draw(state, ["Ann buys Silver."], decision,
                                                  "The server refused that: stale_decision")
    text = console.export_text()
    for part in ("Supply", "Province", "Market", "Players", "Discard top", "In play",
                 "Your hand:", "Your play area:", "Actions 1 · Buys 1 · Coins 0",
                 "Ann buys Silver.", "Your decision: order", "Put these back.",
                 "Because of: Sentry", "1. Copper", "2. Estate",
                 "Choose exactly 2 of the options 1-2",
                 "the first one you choose ends on top", "Help: Put the cards back",
                 "stale_decision", "2 Copper"):
        assert part in text, part
