"""In-process bots: strategies answering a live engine game, seat by seat, each from its
seat's view map and nothing else (docs/BOTS.md, "Honest by construction")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from dominion.bots import Strategy
from dominion.bots.seat import SeatTable
from dominion.bots.strong.knowledge import CardFacts

from ..engine import Game
from ..engine.cards import all_cards
from ..engine.view import Ownership

CARD_FACTS: Final = CardFacts(all_cards())
"""The catalogue the server publishes, as the strong bot reads it."""


def seat_table(game: Game, seat: int, ownership: Ownership | None = None) -> SeatTable:
    """What `seat` may know of `game` now, as a bot reads it: the part of the view the
    server sends that seat that bots read (the decision aside: the bot receives that
    apart) and the published catalogue, from their parts (no view map is built). Holds
    nothing of the game: the seat's hand is a copy, and what it shares (the Kingdom, the
    Supply's counts, what each player owns) is replaced, never changed. `ownership`, kept
    between a game's decisions, copies the Supply only after a change that gained."""
    if ownership is None:
        ownership = Ownership()
    ownership.update(game)
    turn = game.turn
    return SeatTable(seat, ownership.kingdom, ownership.supply, turn.actions, turn.buys,
                     turn.coins, ownership.owned, list(game.players[seat].hand), CARD_FACTS)


def play_out(game: Game, strategies: Sequence[Strategy], max_decisions: int = 100_000) -> int:
    """Let one strategy per seat answer until the game ends; return the decisions answered."""
    ownership = Ownership()
    answered = 0
    while (decision := game.pending) is not None:
        if answered >= max_decisions:
            raise RuntimeError(f"game did not end within {max_decisions} decisions")
        seat = decision.player
        table = seat_table(game, seat, ownership)
        game.answer(seat, decision.id, strategies[seat].choose(decision, table))
        answered += 1
    return answered
