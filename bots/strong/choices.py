"""Reading a decision's options, and the bot's ranking of the cards least worth keeping."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..strategies import DecisionLike

if TYPE_CHECKING:
    from .knowledge import CardFacts

SPARE_TERMINAL = 0.5
"""What a second terminal in hand is worth: less than a Copper."""


def option_cards(decision: DecisionLike) -> list[str | None]:
    return [option.card for option in decision.options]


def kind_at(decision: DecisionLike, kind: str) -> int | None:
    return next((i for i, option in enumerate(decision.options) if option.kind == kind), None)


def yes(decision: DecisionLike, wanted: bool) -> list[int]:
    """The yes (or no) option; the first if there is none."""
    found = kind_at(decision, "yes" if wanted else "no")
    return [found if found is not None else 0]


def worst_first(cards: Sequence[str | None], count: int, facts: CardFacts) -> list[int]:
    """The positions of the `count` cards least worth keeping in hand: a terminal beyond
    the best one is worth little, having no action to be played with."""
    values = [facts.hand_value(card) for card in cards]
    terminals = sorted((i for i, card in enumerate(cards) if facts.is_terminal(card)),
                       key=lambda i: -values[i])
    for i in terminals[1:]:
        values[i] = SPARE_TERMINAL
    ranked = sorted(range(len(cards)), key=lambda i: (values[i], i))
    return ranked[:count]
