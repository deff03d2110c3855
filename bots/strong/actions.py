"""Which Action the strong bot plays first: more actions before what needs them, draw
before what the drawn cards feed, and a card only where it does some good."""

from __future__ import annotations

from collections.abc import Sequence

from .knowledge import CardFacts
from .position import Position

TERMINALS_BEST_FIRST = ("witch", "council_room", "library", "smithy", "bandit", "militia",
                        "moneylender", "bureaucrat", "mine", "artisan", "remodel", "moat",
                        "adventurer", "woodcutter", "chancellor", "vassal", "workshop",
                        "feast", "chapel", "thief")
CANTRIPS_BEST_FIRST = ("laboratory", "market", "sentry", "spy", "merchant", "harbinger",
                       "poacher", "cellar")


def worth_playing(card: str, hand: Sequence[str], position: Position) -> bool:
    """Whether playing `card` from `hand` helps (a forced trash or discard may not)."""
    others = list(hand)
    others.remove(card)
    if card == "remodel":
        return any(remodel_target(c, position) for c in others)
    if card == "mine":
        return any(c in ("copper", "silver") for c in others)
    if card == "moneylender":
        return "copper" in others
    if card == "chapel":
        return any(c in ("curse", "estate") for c in others)
    if card == "cellar":
        return any(position.facts.is_junk(c) for c in others)
    if card == "throne_room":
        return any(position.facts.is_action(c) and c != "throne_room" for c in others)
    if card == "library":
        return len(others) < 7
    return True


def remodel_target(card: str, position: Position) -> bool:
    """Whether Remodel should trash `card`: junk early, Gold into a Province late."""
    late = position.gains_to_end() <= 6
    if card == "gold":
        return late and bool(position.piles.get("province"))
    if card == "curse":
        return True
    return card == "estate" and not late


def play_order(playable: Sequence[str], hand: Sequence[str], position: Position) -> list[str]:
    """The Actions worth playing now, the first to play first."""
    useful = [card for card in playable if worth_playing(card, hand, position)]
    # more actions first (they cost none), the one that draws before the one that pays
    ordered: list[str] = [card for card in ("village", "festival") if card in useful]
    if "throne_room" in useful:
        ordered.append("throne_room")
    ordered += [card for card in CANTRIPS_BEST_FIRST if card in useful]
    ordered += [card for card in TERMINALS_BEST_FIRST if card in useful]
    return ordered


def best_to_repeat(options: Sequence[str | None], facts: CardFacts) -> int | None:
    """The option Throne Room should play twice (None: none worth it)."""
    ranking = ("witch", "laboratory", "smithy", "council_room", "market", "festival",
               "militia", "bandit", "village", "library", "sentry", "moneylender")
    for card in ranking:
        if card in options:
            return options.index(card)
    return next((i for i, card in enumerate(options) if card is not None
                 and not facts.is_treasure(card)), None)
