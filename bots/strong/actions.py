"""Which Action the strong bot plays first: more actions before what needs them, draw
before what the drawn cards feed, and a card only where it does some good (each card's
role, place and tactics: its entry in cards.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from .cards import CARDS
from .knowledge import CardFacts
from .position import Position

PLAY_ORDER: Final[Mapping[str, tuple[int, int]]] = {
    card.id: (card.role, card.play_rank) for card in CARDS.values() if card.role is not None}
"""Each Action the bot plays, by its place in the Action phase (role, then rank)."""
REPEAT_ORDER: Final[Mapping[str, int]] = {
    card.id: card.repeat_rank for card in CARDS.values() if card.repeat_rank is not None}


def worth_playing(card: str, hand: Sequence[str], position: Position) -> bool:
    """Whether playing `card` from `hand` helps (a forced trash or discard may not)."""
    worth = CARDS[card].worth_playing if card in CARDS else None
    if worth is None:
        return True
    others = list(hand)
    others.remove(card)
    return worth(others, position)


def play_order(playable: Sequence[str], hand: Sequence[str], position: Position) -> list[str]:
    """The Actions worth playing now, the first to play first."""
    useful = [card for card in playable
              if card in PLAY_ORDER and worth_playing(card, hand, position)]
    return sorted(useful, key=PLAY_ORDER.__getitem__)


def best_to_repeat(options: Sequence[str | None], facts: CardFacts) -> int | None:
    """The option Throne Room should play twice (None: none worth it)."""
    ranked = [i for i, card in enumerate(options) if card in REPEAT_ORDER]
    if ranked:
        return min(ranked, key=lambda i: REPEAT_ORDER[options[i] or ""])
    return next((i for i, card in enumerate(options) if card is not None
                 and not facts.is_treasure(card)), None)
