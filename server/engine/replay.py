"""Rebuild a game from its set-up, seed and answers."""

from __future__ import annotations

from collections.abc import Iterable

from .decisions import Answer, Resignation
from .game import Game
from .setup import Setup


def replay(setup: Setup, seed: int, answers: Iterable[Answer | Resignation], *,
           history: bool = True) -> Game:
    """The game those answers produce; raises `IllegalAnswer` at the first one that is not legal."""
    game = Game(setup, seed, history=history)
    for entry in answers:
        game.apply(entry)
    return game
