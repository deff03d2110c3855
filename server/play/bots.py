"""In-process bots: strategies answering a live engine game, seat by seat."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import chain
from typing import Final

from dominion.bots import Strategy
from dominion.bots.strong.knowledge import CardFacts

from ..engine import Game
from ..engine.cards import all_cards

CARD_FACTS: Final = CardFacts(all_cards())
"""The catalogue the server publishes, as the strong bot reads it."""


class EngineTable:
    """A `Table` over an engine game, limited to what one seat may know; also the rest of
    that seat's view (the strong bot's `SeatView`): the turn's counters, the Kingdom, what
    each player owns (public), the seat's own hand and the published catalogue."""

    __slots__ = ("_game", "_player", "seat")

    def __init__(self, game: Game, seat: int) -> None:
        self._game = game
        self._player = game.players[seat]
        self.seat = seat

    @property
    def coins(self) -> int:
        return self._game.turn.coins

    @property
    def actions(self) -> int:
        return self._game.turn.actions

    @property
    def buys(self) -> int:
        return self._game.turn.buys

    @property
    def seats(self) -> int:
        return len(self._game.players)

    @property
    def kingdom(self) -> Sequence[str]:
        return self._game.setup.kingdom

    def hand(self) -> Sequence[str]:
        return tuple(self._player.hand)

    def holdings(self, seat: int) -> dict[str, int]:
        return Counter(chain(*self._game.players[seat].zones()))

    def supply(self, card: str) -> int:
        return self._game.supply.get(card, 0)

    def piles(self) -> dict[str, int]:
        """Every Supply pile's count (public)."""
        return dict(self._game.supply)

    def owned(self, card: str) -> int:
        return sum(zone.count(card) for zone in self._player.zones())

    @property
    def catalogue(self) -> CardFacts:
        return CARD_FACTS


def play_out(game: Game, strategies: Sequence[Strategy], max_decisions: int = 100_000) -> int:
    """Let one strategy per seat answer until the game ends; return the decisions answered."""
    tables = [EngineTable(game, seat) for seat in range(len(game.players))]
    answered = 0
    while (decision := game.pending) is not None:
        if answered >= max_decisions:
            raise RuntimeError(f"game did not end within {max_decisions} decisions")
        seat = decision.player
        game.answer(seat, decision.id, strategies[seat].choose(decision, tables[seat]))
        answered += 1
    return answered
