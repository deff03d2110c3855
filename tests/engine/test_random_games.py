"""Thousands of random-bot games: no exception, cards conserved, every game ends,
replays reproduce every event, and no view shows what docs/RULES.md hides."""

from __future__ import annotations

import os
import random

import pytest

from dominion.bots import NoTable, make_strategy
from dominion.server.engine import Game, Setup, replay

from .invariants import (
    check_decision_shape,
    check_event_redaction,
    check_view_ignores_hidden,
    check_view_shapes,
)

RANDOM_GAMES_ENV = "DOMINION_RANDOM_GAMES"
"""How many games to play (tests/engine/test_pure_python.py plays fewer)."""
GAMES = int(os.environ.get(RANDOM_GAMES_ENV, "1200"))
BATCHES = 12
MAX_DECISIONS = 20_000
VIEW_CHECKS_PER_GAME = 6


def play_random_game(index: int) -> Game:
    rng = random.Random(index)
    players = 2 + index % 5
    edition = 1 + (index // 5) % 2
    setup = Setup.create(players, edition=edition, rng=rng)
    game = Game(setup, seed=rng.getrandbits(64))
    bots = [make_strategy("random", random.Random(rng.getrandbits(32))) for _ in range(players)]
    total = game.card_total()
    viewers: list[int | None] = [None, *range(players)]
    check_at = set(rng.sample(range(400), VIEW_CHECKS_PER_GAME))
    answered = 0
    while (decision := game.pending) is not None:
        assert answered < MAX_DECISIONS, "game did not end"
        assert game.card_total() == total, "cards were created or lost"
        if answered in check_at:
            check_view_shapes(game, viewers)
            for viewer in viewers:
                check_view_ignores_hidden(game, viewer, rng)
        check_decision_shape(decision)
        choice = bots[decision.player].choose(decision, NoTable())
        game.answer(decision.player, decision.id, choice)
        answered += 1
    assert game.card_total() == total
    assert game.result is not None
    check_view_shapes(game, viewers)
    check_event_redaction(game, viewers)
    return game


@pytest.mark.system  # thousands of games
@pytest.mark.parametrize("batch", range(BATCHES))
def test_random_games(batch: int) -> None:
    for index in range(batch, GAMES, BATCHES):
        game = play_random_game(index)
        again = replay(game.setup, game.seed, game.answers)
        assert again.events == game.events, f"replay of game {index} differs"
        assert again.result == game.result
