"""The strong bot's answers to the questions cards ask, card by card (the Action and Buy
phases are the bot's own, in bot.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..strategies import DecisionLike, sensible_choice
from .actions import TERMINALS_BEST_FIRST, best_to_repeat, remodel_target
from .buying import priority
from .knowledge import CardFacts
from .plans import Plan
from .position import Position

SPARE_TERMINAL = 0.5
"""What a second terminal in hand is worth: less than a Copper."""


def _cards(decision: DecisionLike) -> list[str | None]:
    return [option.card for option in decision.options]


def _kind_at(decision: DecisionLike, kind: str) -> int | None:
    return next((i for i, option in enumerate(decision.options) if option.kind == kind), None)


def _yes(decision: DecisionLike, yes: bool) -> list[int]:
    found = _kind_at(decision, "yes" if yes else "no")
    return [found if found is not None else 0]


def _worst_first(cards: Sequence[str | None], count: int, facts: CardFacts) -> list[int]:
    """The positions of the `count` cards least worth keeping in hand: a terminal beyond
    the best one is worth little, having no action to be played with."""
    values = [facts.hand_value(card) for card in cards]
    terminals = sorted((i for i, card in enumerate(cards) if card in TERMINALS_BEST_FIRST),
                       key=lambda i: -values[i])
    for i in terminals[1:]:
        values[i] = SPARE_TERMINAL
    ranked = sorted(range(len(cards)), key=lambda i: (values[i], i))
    return ranked[:count]


def gain(decision: DecisionLike, position: Position, plan: Plan) -> list[int]:
    """A gain: the first card the buying rules want with the dearest option's cost."""
    cards = _cards(decision)
    offered = [card for card in cards if card is not None]
    if not offered:
        return sensible_choice(decision)
    if decision.source == "thief":  # any of the trashed Treasures: all but Copper
        return [i for i, card in enumerate(cards) if card in ("silver", "gold")][:decision.max]
    cost = position.facts.cost
    budget = max(cost(card) for card in offered)
    for card in priority(plan, position, budget):
        if card in cards and card != decision.source:  # no Feast for a Feast
            return [cards.index(card)]
    if decision.min == 0:
        return []
    # nothing wanted, one must be taken: the one least bad to own
    return [max(range(len(cards)), key=lambda i: (cards[i] not in ("curse", "copper"),
                                                  cost(cards[i])))]


def discard(decision: DecisionLike, facts: CardFacts) -> list[int]:
    """Discard the required number (Militia, Poacher), worst first; Cellar: all junk."""
    cards = _cards(decision)
    if decision.source == "cellar":
        return [i for i, card in enumerate(cards) if facts.is_junk(card)][:decision.max]
    return _worst_first(cards, decision.min, facts)


def trash(decision: DecisionLike, position: Position) -> list[int]:
    cards, facts = _cards(decision), position.facts
    source = decision.source
    kinds = {option.kind for option in decision.options}
    if "yes" in kinds:  # Moneylender's question
        return _yes(decision, True)
    if source == "remodel":
        targets = [i for i, card in enumerate(cards) if card and remodel_target(card, position)]
        return targets[:1] or _worst_first(cards, decision.min, facts)
    if source == "mine":
        for card in ("silver", "copper"):
            if card in cards and (card != "silver" or position.piles.get("gold")):
                return [cards.index(card)]
        return _worst_first(cards, decision.min, facts)
    if source in ("bandit", "thief"):  # losing the least (Bandit), or taking the most (Thief)
        treasures = [i for i, card in enumerate(cards) if facts.is_treasure(card)]
        if not treasures:
            return list(range(decision.min))
        pick = max if source == "thief" else min
        return [pick(treasures, key=lambda i: facts.cost(cards[i]))]
    if source == "chapel":
        return _chapel(cards, position)
    return _worst_first(cards, decision.min, facts)


def _chapel(cards: Sequence[str | None], position: Position) -> list[int]:
    chosen = [i for i, card in enumerate(cards) if card == "curse"]
    if position.gains_to_end() > 6:
        chosen += [i for i, card in enumerate(cards) if card == "estate"]
    spare = position.money - 6  # Coppers beyond what the deck needs to buy Gold
    for i, card in enumerate(cards):
        if card == "copper" and spare > 0:
            chosen.append(i)
            spare -= 1
    return chosen[:4]


def fate(decision: DecisionLike, position: Position, mine: bool) -> list[int]:
    """Sentry's and Spy's card (`mine`: from the bot's own deck): trash or discard what
    does not help, keep what does; another player's, the other way round."""
    card = decision.options[0].card
    bad = position.facts.is_junk(card) or card == "copper"
    if not mine:
        wanted = "keep" if bad else "discard"
    elif (card == "curse" or (card == "estate" and position.gains_to_end() > 6)
          or (card == "copper" and position.money > 7)):
        wanted = "trash"
    else:
        wanted = "discard" if bad else "keep"
    found = _kind_at(decision, wanted)
    if found is None:
        found = _kind_at(decision, "discard" if wanted == "trash" else "keep")
    return [found if found is not None else 0]


def topdeck(decision: DecisionLike, position: Position, plan: Plan) -> list[int]:
    cards, facts = _cards(decision), position.facts
    if decision.source == "harbinger":  # the best card of the discard pile, if any is good
        best = max(range(len(cards)), key=lambda i: facts.hand_value(cards[i]), default=None)
        return [best] if best is not None and facts.hand_value(cards[best]) >= 2 else []
    if decision.source == "artisan":
        return [_artisan_back(cards, position)]
    return _worst_first(cards, decision.min, facts)  # Bureaucrat: any Victory card


def _artisan_back(cards: Sequence[str | None], position: Position) -> int:
    """An Action that cannot be played this turn, else the least useful card now."""
    facts = position.facts
    if not position.view.actions:
        actions = [i for i, card in enumerate(cards) if facts.is_action(card)]
        if actions:
            return max(actions, key=lambda i: facts.hand_value(cards[i]))
    return _worst_first(cards, 1, facts)[0]


def order(decision: DecisionLike, facts: CardFacts) -> list[int]:
    """Cards back onto the deck: the best on top (the first chosen ends on top)."""
    cards = _cards(decision)
    return sorted(range(len(cards)), key=lambda i: (-facts.hand_value(cards[i]), i))


def play(decision: DecisionLike, facts: CardFacts) -> list[int]:
    """Throne Room's card, or whether to play Vassal's."""
    if _kind_at(decision, "yes") is not None:
        return _yes(decision, True)
    best = best_to_repeat(_cards(decision), facts)
    if best is None:
        return [] if decision.min == 0 else [0]
    return [best]


def set_aside(decision: DecisionLike, position: Position) -> list[int]:
    """Library: skip an Action drawn when no action is left to play it."""
    return _yes(decision, position.view.actions == 0)


ANSWERS: dict[str, Callable[[DecisionLike, Position, Plan], list[int]]] = {
    "gain": gain,
    "discard": lambda decision, position, plan: discard(decision, position.facts),
    "trash": lambda decision, position, plan: trash(decision, position),
    "topdeck": topdeck,
    "order": lambda decision, position, plan: order(decision, position.facts),
    "play": lambda decision, position, plan: play(decision, position.facts),
    "set_aside": lambda decision, position, plan: set_aside(decision, position),
    "react": lambda decision, position, plan: _yes(decision, True),
    "yes_no": lambda decision, position, plan: _yes(decision, True),
}
"""Answers by decision kind (Chancellor's yes/no: the deck into the discard pile)."""
