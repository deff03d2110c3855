"""Random games of every Kingdom card (both editions), as the server tells each viewer
about them: the `update` frames of every change (server/play/frames.py, encoded and
decoded as on the wire), and the engine's own view to compare a client's state with."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from dominion.bots import Strategy, make_strategy
from dominion.bots.wire import WireDecision
from dominion.protocol import Update, decode_server
from dominion.server.engine import Event, Game, Setup, decision_view, view
from dominion.server.engine.cards import kingdom_cards
from dominion.server.play.bots import seat_table
from dominion.server.play.frames import change_frames

GAME_ID = "g-000000000001"


@dataclass(frozen=True)
class Change:
    """One viewer's `update` after one answer, and what the engine says they may see."""

    game: str
    viewer: int | None
    update: Update
    expected: dict[str, Any]
    """`view(game, viewer)` now: the snapshot a client that joined now would get."""


def kingdoms(edition: int) -> list[list[str]]:
    """Tens of Kingdom cards that together hold every one of the edition's, then one more
    random ten."""
    cards = list(kingdom_cards(edition))
    chosen = [cards[i:i + 10] for i in range(0, len(cards), 10)]
    chosen[-1] = cards[-10:]
    return [*chosen, random.Random(edition).sample(cards, 10)]


def changes(edition: int, number: int, kingdom: list[str], answers: int = 400
            ) -> Iterator[Change]:
    """Every viewer's update after every answer of one random game (seats and a
    spectator), the first one, after the start, included."""
    players = 2 + number % 3
    game = Game(Setup.create(players, edition=edition, kingdom=kingdom), seed=number)
    strategy = make_strategy("random", random.Random(number))
    viewers: list[int | None] = [*range(players), None]
    audiences = [(viewer, 2) for viewer in viewers]
    name = f"edition {edition} game {number}"
    events = list(game.events)
    for _ in range(answers):
        frames = change_frames(GAME_ID, game, events, audiences)
        for viewer in viewers:
            update = decode_server(frames[viewer, 2][0])
            assert isinstance(update, Update)
            yield Change(name, viewer, update, view(game, viewer))
        if game.pending is None:
            return
        events = answer_as(strategy, game)


def answer_as(strategy: Strategy, game: Game) -> list[Event]:
    """The pending decision answered as `strategy` would over the wire; its events."""
    pending = game.pending
    assert pending is not None
    decision = WireDecision.from_map(decision_view(pending, pending.player))
    return game.answer(pending.player, pending.id,
                       strategy.choose(decision, seat_table(game, decision.player)))
