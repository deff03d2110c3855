"""The strong bot's own knowledge of the cards: costs, coins and roles, as it values them.

Clients do not import the engine (docs/ARCHITECTURE.md), so the bot keeps the few facts
it plays by; the server's rules stay the only ones that count.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

COST: Final[Mapping[str, int]] = {
    "copper": 0, "curse": 0, "estate": 2, "silver": 3, "duchy": 5, "gold": 6, "province": 8,
    "cellar": 2, "chapel": 2, "moat": 2, "harbinger": 3, "merchant": 3, "vassal": 3,
    "village": 3, "workshop": 3, "chancellor": 3, "woodcutter": 3, "bureaucrat": 4,
    "gardens": 4, "militia": 4, "moneylender": 4, "poacher": 4, "remodel": 4, "smithy": 4,
    "throne_room": 4, "feast": 4, "spy": 4, "thief": 4, "bandit": 5, "council_room": 5,
    "festival": 5, "laboratory": 5, "library": 5, "market": 5, "mine": 5, "sentry": 5,
    "witch": 5, "artisan": 6, "adventurer": 6,
}
TREASURE_COINS: Final[Mapping[str, int]] = {"copper": 1, "silver": 2, "gold": 3}
VICTORY_POINTS: Final[Mapping[str, int]] = {"estate": 1, "duchy": 3, "province": 6,
                                            "curse": -1}
"""Points per card (Gardens count apart: a point per ten cards owned)."""
JUNK: Final = frozenset({"curse", "estate", "duchy", "province", "gardens"})
"""Cards that do nothing in hand."""
ACTIONS: Final = frozenset(COST) - frozenset(TREASURE_COINS) - JUNK - {"copper", "curse"}

HAND_VALUE: Final[Mapping[str, float]] = {
    "gold": 3.0, "silver": 2.0, "copper": 1.0, "witch": 3.6, "laboratory": 3.4,
    "smithy": 3.0, "library": 3.0, "council_room": 3.2, "market": 3.0, "festival": 2.4,
    "militia": 2.4, "bandit": 2.6, "moneylender": 1.8, "sentry": 2.2, "village": 1.6,
}
"""What a card in hand is worth to the turn, roughly in coins (others: 1.5; junk: 0)."""


def hand_value(card: str | None) -> float:
    if card is None or card in JUNK:
        return -1.0 if card == "curse" else 0.0
    return HAND_VALUE.get(card, 1.5)


def points(holdings: Mapping[str, int]) -> int:
    """The victory points of what a player owns."""
    score = sum(VICTORY_POINTS.get(card, 0) * count for card, count in holdings.items())
    gardens = holdings.get("gardens", 0)
    if gardens:
        score += gardens * (sum(holdings.values()) // 10)
    return score


def money(holdings: Mapping[str, int]) -> int:
    """The coins a player's Treasures make in all."""
    return sum(TREASURE_COINS.get(card, 0) * count for card, count in holdings.items())
