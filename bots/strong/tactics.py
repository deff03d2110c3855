"""Cards' own tactics, named by their entries in cards.py: when playing the card does
good (`Worth`), and its answers to the questions it asks that differ from the bot's answer
for every card (`Answer`). They read the other cards' entries through `position.facts`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..strategies import DecisionLike
from .choices import kind_at, option_cards, worst_first
from .money_plan import Plan
from .roles import Role, Thinning
from .thin_plan import THIN_MONEY, thin_trash

if TYPE_CHECKING:
    from .knowledge import CardFacts
    from .position import Position

LATE = 6
"""Gains left to the end at or below which the game is late (the end is near)."""


def early(position: Position) -> bool:
    """Whether the end of the game is still far."""
    return position.gains_to_end() > LATE


# -- when playing a card does good (the rest of the hand given) ---------------------------

def card_to_remodel(others: Sequence[str], position: Position) -> bool:
    return any(remodel_target(card, position) for card in others)


def treasure_to_mine(others: Sequence[str], position: Position) -> bool:
    return any(card in ("copper", "silver") for card in others)


def copper_in_hand(others: Sequence[str], position: Position) -> bool:
    return "copper" in others


def junk_to_chapel(others: Sequence[str], position: Position) -> bool:
    """A card Chapel would trash early (a Curse, an Estate), or a Copper beyond the coins a
    thin plan keeps (the bot owns a Chapel only in one: thin_plan.py)."""
    bot_card = position.facts.bot_card
    return (any(bot_card(card).thinning in (Thinning.ALWAYS, Thinning.EARLY) for card in others)
            or ("copper" in others and position.money > THIN_MONEY))


def junk_in_hand(others: Sequence[str], position: Position) -> bool:
    return any(position.facts.is_junk(card) for card in others)


def another_action(others: Sequence[str], position: Position) -> bool:
    """An Action for Throne Room to play twice (not another Throne Room)."""
    facts = position.facts
    return any(facts.is_action(card) and facts.bot_card(card).role is not Role.THRONE
               for card in others)


def hand_not_full(others: Sequence[str], position: Position) -> bool:
    """Library draws up to 7 cards."""
    return len(others) < 7


def remodel_target(card: str, position: Position) -> bool:
    """Whether Remodel should trash `card`: junk early, Gold into a Province late."""
    thinning = position.facts.bot_card(card).thinning
    if thinning is Thinning.LATE:
        return not early(position) and bool(position.piles.get("province"))
    return thinning is Thinning.ALWAYS or (thinning is Thinning.EARLY and early(position))


# -- a card's own answers ---------------------------------------------------------------

def remodel_trash(decision: DecisionLike, position: Position, plan: Plan) -> list[int]:
    cards = option_cards(decision)
    targets = [i for i, card in enumerate(cards) if card and remodel_target(card, position)]
    return targets[:1] or worst_first(cards, decision.min, position.facts)


def mine_trash(decision: DecisionLike, position: Position, plan: Plan) -> list[int]:
    """Silver into Gold, else Copper into Silver."""
    cards = option_cards(decision)
    for card in ("silver", "copper"):
        if card in cards and (card != "silver" or position.piles.get("gold")):
            return [cards.index(card)]
    return worst_first(cards, decision.min, position.facts)


def moneylender_trash(decision: DecisionLike, position: Position, plan: Plan) -> list[int]:
    """Trash the Copper (the second edition asks yes or no)."""
    found = kind_at(decision, "yes")
    if found is not None:
        return [found]
    return worst_first(option_cards(decision), decision.min, position.facts)


def bandit_trash(decision: DecisionLike, position: Position, plan: Plan) -> list[int]:
    """A victim's: lose the cheapest Treasure."""
    return _treasure_by_cost(decision, position.facts, dearest=False)


def thief_trash(decision: DecisionLike, position: Position, plan: Plan) -> list[int]:
    """A victim's Treasure to take: the dearest."""
    return _treasure_by_cost(decision, position.facts, dearest=True)


def _treasure_by_cost(decision: DecisionLike, facts: CardFacts, *, dearest: bool) -> list[int]:
    cards = option_cards(decision)
    treasures = [i for i, card in enumerate(cards) if facts.is_treasure(card)]
    if not treasures:
        return list(range(decision.min))
    pick = max if dearest else min
    return [pick(treasures, key=lambda i: facts.cost(cards[i]))]


def chapel_trash(decision: DecisionLike, position: Position, plan: Plan) -> list[int]:
    """Curses, Estates while the end is far, Coppers beyond what the deck needs to buy
    Gold; at most 4 (a thin plan's own rules: thin_plan.py)."""
    if plan.thinner is not None:
        return thin_trash(decision, position)
    cards, bot_card = option_cards(decision), position.facts.bot_card
    thinning = [bot_card(card).thinning for card in cards]
    chosen = [i for i, kind in enumerate(thinning) if kind is Thinning.ALWAYS]
    if early(position):
        chosen += [i for i, kind in enumerate(thinning) if kind is Thinning.EARLY]
    spare = position.money - 6
    for i, kind in enumerate(thinning):
        if kind is Thinning.SPARE and spare > 0:
            chosen.append(i)
            spare -= 1
    return chosen[:4]


def thief_gain(decision: DecisionLike, position: Position, plan: Plan) -> list[int]:
    """Of the Treasures trashed, all that make more than a Copper."""
    coins = position.facts.coins
    return [i for i, card in enumerate(option_cards(decision)) if coins(card) > 1][:decision.max]


def cellar_discard(decision: DecisionLike, position: Position, plan: Plan) -> list[int]:
    """All the junk."""
    is_junk = position.facts.is_junk
    return [i for i, card in enumerate(option_cards(decision)) if is_junk(card)][:decision.max]


def harbinger_topdeck(decision: DecisionLike, position: Position, plan: Plan) -> list[int]:
    """The best card of the discard pile, if any is good."""
    cards, value = option_cards(decision), position.facts.hand_value
    best = max(range(len(cards)), key=lambda i: value(cards[i]), default=None)
    return [best] if best is not None and value(cards[best]) >= 2 else []


def artisan_topdeck(decision: DecisionLike, position: Position, plan: Plan) -> list[int]:
    """An Action that cannot be played this turn, else the least useful card now."""
    cards, facts = option_cards(decision), position.facts
    if not position.view.actions:
        actions = [i for i, card in enumerate(cards) if facts.is_action(card)]
        if actions:
            return [max(actions, key=lambda i: facts.hand_value(cards[i]))]
    return [worst_first(cards, 1, facts)[0]]

