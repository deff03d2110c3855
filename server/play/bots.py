"""In-process bots: strategies answering a live engine game, seat by seat, each from its
seat's view map and nothing else (docs/BOTS.md, "Honest by construction")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from dominion.bots import Strategy
from dominion.bots.seat import SeatTable
from dominion.bots.strong.knowledge import CardFacts

from ..engine import Event, Game
from ..engine.cards import all_cards
from ..engine.view import Ownership, seat_view

CARD_FACTS: Final = CardFacts(all_cards())
"""The catalogue the server publishes, as the strong bot reads it."""


def seat_table(game: Game, seat: int, ownership: Ownership | None = None,
               events: Sequence[Event] = ()) -> SeatTable:
    """What `seat` may know of `game` now, as a bot reads it: the part of the view the
    server sends that seat that bots read (`seat_view`; the decision aside: the bot
    receives that apart) and the published catalogue. A copy, holding nothing of the
    game. `ownership` and the game's latest `events`: as `board_views` takes them, to
    count again only what changed hands."""
    return SeatTable(seat_view(game, seat, ownership, events), CARD_FACTS)


def play_out(game: Game, strategies: Sequence[Strategy], max_decisions: int = 100_000) -> int:
    """Let one strategy per seat answer until the game ends; return the decisions answered."""
    ownership = Ownership()
    events: Sequence[Event] = ()
    answered = 0
    while (decision := game.pending) is not None:
        if answered >= max_decisions:
            raise RuntimeError(f"game did not end within {max_decisions} decisions")
        seat = decision.player
        table = seat_table(game, seat, ownership, events)
        events = game.answer(seat, decision.id, strategies[seat].choose(decision, table))
        answered += 1
    return answered
