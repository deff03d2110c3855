"""Rebuild a game from its set-up, seed and answers."""

from __future__ import annotations

from collections.abc import Iterable

from .decisions import Answer
from .game import Game
from .setup import Setup


def replay(setup: Setup, seed: int, answers: Iterable[Answer]) -> Game:
    """The game those answers produce; raises `IllegalAnswer` at the first one that is not legal."""
    game = Game(setup, seed)
    for answer in answers:
        game.answer(answer.player, answer.decision, answer.choices)
    return game
