"""What a plan is: Big Money built around one Kingdom card, and plain Big Money. Which
plan a Kingdom gets is plans.py's choice, from the cards' entries (cards.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class Plan:
    card: str | None
    """The Kingdom card the money is built around (None: plain money)."""
    copies: int = 0
    spacing: int = 0
    """Cards owned beyond the starting ten per copy already owned, before the next copy."""
    over_gold: bool = False
    """Bought before Gold (else after it, before Silver)."""
    support: str | None = None
    """A second card bought in place of Silver once `card` is satisfied (a non-terminal
    such as Laboratory, unless `support_copies` is small)."""
    support_copies: int = 10
    province_money: int = 16
    """Coins in Treasures needed before a Province is worth more than a Gold."""
    duchy_at: int = 4
    """Gains left to the end at which a Duchy beats a Gold."""
    thinner: str | None = None
    """A trasher opened with, for a deck thinned to a few Treasures (thin_plan.py; None:
    Big Money's thick deck)."""


MONEY: Final = Plan(None, province_money=18)
"""Big Money Ultimate: no Kingdom card at all."""
