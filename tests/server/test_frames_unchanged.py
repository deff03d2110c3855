"""The frames of a fixed set of games, every viewer's in both protocol versions, do not
change: work on the answer path (server/play/frames.py, the codec, the engine's views)
must keep the wire byte for byte."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator

from dominion.bots import make_strategy
from dominion.protocol import ClockState
from dominion.server.engine import Event, Game, Setup
from dominion.server.engine.cards import kingdom_cards
from dominion.server.engine.view import Ownership
from dominion.server.play.frames import change_frames
from tests.clients.view_games import answer_as

GAME_ID = "g-0123456789abcdef"
WIRE_DIGEST = "427d18cdb961f7235bf0fcc0ef84cdab5bb67c89aa5f96cc410e0e24371c4e7e"
"""sha256 of every frame of `GAMES` (2026-12-02, main at 854efea)."""
GAMES = [(edition, number) for edition in (1, 2) for number in range(3)]


def games(edition: int, number: int, answers: int = 150
          ) -> Iterator[tuple[Game, list[Event], ClockState | None]]:
    """Each change of a random game: the game, its latest events and a clock state."""
    players = 2 + number % 3
    kingdom = random.Random(number).sample(list(kingdom_cards(edition)), 10)
    game = Game(Setup.create(players, edition=edition, kingdom=kingdom), seed=number,
                history=False)
    strategy = make_strategy("random", random.Random(number))
    events = list(game.events)
    for count in range(answers):
        clocks = None if number % 2 else ClockState(
            remaining_ms=tuple(60_000 - 7 * count * (seat + 1) for seat in range(players)),
            running=None if game.pending is None else game.pending.player,
            initial_ms=60_000, increment_ms=2_000)
        yield game, events, clocks
        if game.pending is None:
            return
        events = answer_as(strategy, game)


def test_the_frames_of_fixed_games_are_unchanged() -> None:
    digest = hashlib.sha256()
    for edition, number in GAMES:
        ownership = Ownership()
        for game, events, clocks in games(edition, number):
            viewers: list[int | None] = [*range(len(game.players)), None]
            audiences = [(viewer, version) for viewer in viewers for version in (1, 2)]
            frames = change_frames(GAME_ID, game, events, audiences, ownership, clocks)
            for audience in audiences:
                for frame in frames[audience]:
                    digest.update(len(frame).to_bytes(4, "big") + frame)
    assert digest.hexdigest() == WIRE_DIGEST
