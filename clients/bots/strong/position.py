"""What the strong bot works out from a seat's view once per decision: scores, money,
and how near the game is to its end."""

from __future__ import annotations

from collections.abc import Mapping

from .knowledge import COST, money, points
from .table import SeatView

BASE_PILES = ("copper", "curse", "estate", "silver", "duchy", "gold", "province")


class Position:
    """One seat's view, summed up."""

    __slots__ = ("holdings", "lead", "money", "my_points", "piles", "rival_points", "view")

    def __init__(self, view: SeatView) -> None:
        self.view = view
        seat = view.seat
        self.holdings: Mapping[str, int] = view.holdings(seat)
        self.my_points = points(self.holdings)
        others = [points(view.holdings(other)) for other in range(view.seats) if other != seat]
        self.rival_points = max(others, default=0)
        self.lead = self.my_points - self.rival_points
        self.money = money(self.holdings)
        self.piles = {card: view.supply(card) for card in (*BASE_PILES, *view.kingdom)}

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
        empty = sum(1 for count in self.piles.values() if not count)
        smallest = sorted(count for count in self.piles.values() if count)
        needed = self.piles_to_end - empty
        return min(self.piles["province"], sum(smallest[:max(needed, 0)]))

    def ends_game(self, card: str, taken: int = 1) -> bool:
        """Whether gaining `taken` copies of `card` ends the game."""
        left = self.piles.get(card, 0) - taken
        if left > 0:
            return False
        if card == "province":
            return True
        empty = sum(1 for other, count in self.piles.items() if not count and other != card)
        return empty + 1 >= self.piles_to_end

    def affordable(self, coins: int) -> list[str]:
        """Supply cards (not empty) costing at most `coins`."""
        return [card for card, count in self.piles.items() if count and COST[card] <= coins]
