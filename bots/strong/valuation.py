"""The strong bot's own valuation of cards (not the rules: those come from the server's
catalogue, knowledge.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

HAND_VALUE: Final[Mapping[str, float]] = {
    "gold": 3.0, "silver": 2.0, "copper": 1.0, "witch": 3.6, "laboratory": 3.4,
    "smithy": 3.0, "library": 3.0, "council_room": 3.2, "market": 3.0, "festival": 2.4,
    "militia": 2.4, "bandit": 2.6, "moneylender": 1.8, "sentry": 2.2, "village": 1.6,
}
"""What a card in hand is worth to the turn, roughly in coins (Victory cards: 0; a Curse:
-1; any other card `OTHER_HAND_VALUE`)."""
OTHER_HAND_VALUE: Final = 1.5
