"""What the strong bot works out from a seat's view once per decision: scores, money,
and how near the game is to its end."""

from __future__ import annotations

from collections.abc import Mapping

from .knowledge import CardFacts
from .table import SeatView

BASE_PILES = ("copper", "curse", "estate", "silver", "duchy", "gold", "province")


class Position:
    """One seat's view, summed up."""

    __slots__ = ("_lead", "_to_end", "empty", "facts", "holdings", "money", "piles", "view")

    def __init__(self, view: SeatView) -> None:
        self.view = view
        self.facts: CardFacts = view.catalogue
        self.holdings: Mapping[str, int] = view.holdings(view.seat)
        self.money = self.facts.money(self.holdings)
        self.piles = {card: view.supply(card) for card in (*BASE_PILES, *view.kingdom)}
        self.empty = sum(1 for count in self.piles.values() if not count)
        self._lead: int | None = None
        self._to_end: int | None = None

    @property
    def lead(self) -> int:
        """The bot's points less the best of the others'."""
        if self._lead is None:
            view = self.view
            points = self.facts.points
            others = [points(view.holdings(other)) for other in range(view.seats)
                      if other != view.seat]
            self._lead = points(self.holdings) - max(others, default=0)
        return self._lead

    @property
    def cards(self) -> int:
        return sum(self.holdings.values())

    def owned(self, card: str) -> int:
        return self.holdings.get(card, 0)

    @property
    def piles_to_end(self) -> int:
        """Empty piles that end the game."""
        return 4 if self.view.seats >= 5 else 3

    def gains_to_end(self) -> int:
        """The fewest gains that could end the game: the Provinces, or the smallest piles."""
        if self._to_end is None:
            smallest = sorted(count for count in self.piles.values() if count)
            needed = self.piles_to_end - self.empty
            self._to_end = min(self.piles["province"], sum(smallest[:max(needed, 0)]))
        return self._to_end

    @property
    def one_gain_ends(self) -> bool:
        """Whether some single gain could end the game."""
        return self.piles["province"] <= 1 or self.empty + 1 >= self.piles_to_end

    def ends_game(self, card: str) -> bool:
        """Whether gaining `card` ends the game (never, when its pile is empty already)."""
        if self.piles.get(card, 0) != 1:
            return False
        return card == "province" or self.empty + 1 >= self.piles_to_end

    def affordable(self, coins: int) -> list[str]:
        """Supply cards (not empty) costing at most `coins`."""
        cost = self.facts.cost
        return [card for card, count in self.piles.items() if count and cost(card) <= coins]
