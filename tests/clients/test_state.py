"""The client's game state, kept from events alone, agrees with the engine at every step.

A seat's client (or a spectator's) sees only `visible_event(event, seat)`; from those it
keeps the Supply, the turn's coins, everyone's cards owned, hand sizes, the top card of
every discard pile (as a snapshot would show it) and its own hand. Random games of
every Kingdom card (both editions) check each number after every event.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from dominion.clients.bots import make_strategy
from dominion.clients.bots.wire import WireDecision
from dominion.clients.state import GameState, ReplayHands
from dominion.server.engine import (
    DecisionKind,
    Game,
    Setup,
    decision_view,
    event_record,
    view,
    visible_event,
)
from dominion.server.engine.cards import kingdom_cards
from dominion.server.play.bots import EngineTable


def owned(game: Game, seat: int) -> Counter[str]:
    return Counter(card for zone in game.players[seat].zones() for card in zone)


def kingdoms(edition: int, games: int, rng: random.Random) -> list[list[str]]:
    cards = list(kingdom_cards(edition))
    chosen = [cards[i:i + 10] for i in range(0, len(cards) - 9, 10)]
    chosen += [rng.sample(cards, 10) for _ in range(games - len(chosen))]
    return chosen


@pytest.mark.parametrize("edition", [1, 2])
def test_state_from_events_matches_the_engine(edition: int) -> None:
    rng = random.Random(edition)
    for number, kingdom in enumerate(kingdoms(edition, 8, rng)):
        players = 2 + number % 3
        game = Game(Setup.create(players, edition=edition, kingdom=kingdom), seed=number)
        strategy = make_strategy("random", random.Random(number))
        # every seat, and a spectator
        states = [GameState(game="g", seat=seat) for seat in [*range(players), None]]
        replay = ReplayHands()
        seen = 0
        steps = 0
        while game.pending is not None and steps < 3000:
            for event in game.events[seen:]:
                seen += 1
                replay.apply(seen, event_record(event))
                for state in states:
                    state.apply_event(seen, visible_event(event, state.seat))
            # between answers, every client's numbers are the engine's
            for state in states:
                assert state.seq == len(game.events)
                assert state.supply == game.supply
                if game.pending.kind is not DecisionKind.REACT:
                    # A client counts an Attack's +coins when it is played; the engine,
                    # once every Moat has answered (docs/RULES.md: Moat comes first).
                    assert state.coins == game.turn.coins, state.seat
                assert state.trash == game.trash
                snapshot = view(game, state.seat)
                for seat in range(players):
                    # public: what a client that reconnected now would be shown
                    assert state.players[seat].discard_top == \
                        snapshot["players"][seat]["discard_top"], (state.seat, seat)
                    assert +state.players[seat].owned == owned(game, seat)
                    assert state.players[seat].hand_size == len(game.players[seat].hand)
                    assert sorted(replay.hand(seat)) == sorted(game.players[seat].hand)
                if state.seat is None:
                    continue
                mine = state.players[state.seat]
                assert sorted(mine.hand or ()) == sorted(game.players[state.seat].hand)
                assert sorted(mine.in_play) == sorted(game.players[state.seat].in_play)
            pending = game.pending
            decision = WireDecision.from_map(decision_view(pending, pending.player))
            game.answer(pending.player, pending.id,
                        strategy.choose(decision, EngineTable(game, decision.player)))
            steps += 1
