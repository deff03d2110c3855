"""The strong bot's answers to the questions cards ask, by the kind of question; a card
whose entry (cards.py) has its own answer to a kind gets that one instead. The Action and
Buy phases are the bot's own, in bot.py."""

from __future__ import annotations

from collections.abc import Callable

from ..strategies import DecisionLike, sensible_choice
from .actions import best_to_repeat
from .buying import priority
from .cards import bot_card
from .choices import kind_at, option_cards, worst_first, yes
from .knowledge import CardFacts
from .money_plan import Plan
from .position import Position
from .roles import Thinning
from .tactics import early


def gain(decision: DecisionLike, position: Position, plan: Plan) -> list[int]:
    """A gain: the first card the buying rules want with the dearest option's cost."""
    cards = option_cards(decision)
    offered = [card for card in cards if card is not None]
    if not offered:
        return sensible_choice(decision)
    own = bot_card(decision.source).on_gain
    if own is not None:
        return own(decision, position, plan)
    cost = position.facts.cost
    budget = max(cost(card) for card in offered)
    for card in priority(plan, position, budget):
        if card in cards and card != decision.source:  # no Feast for a Feast
            return [cards.index(card)]
    if decision.min == 0:
        return []
    # nothing wanted, one must be taken: the one least bad to own
    judged = position.facts.bot_card
    return [max(range(len(cards)), key=lambda i: (not judged(cards[i]).thinned_any_time,
                                                  cost(cards[i])))]


def discard(decision: DecisionLike, position: Position, plan: Plan) -> list[int]:
    """Discard the required number (Militia, Poacher), worst first."""
    own = bot_card(decision.source).on_discard
    if own is not None:
        return own(decision, position, plan)
    return worst_first(option_cards(decision), decision.min, position.facts)


def trash(decision: DecisionLike, position: Position, plan: Plan) -> list[int]:
    own = bot_card(decision.source).on_trash
    if own is not None:
        return own(decision, position, plan)
    return worst_first(option_cards(decision), decision.min, position.facts)


def topdeck(decision: DecisionLike, position: Position, plan: Plan) -> list[int]:
    own = bot_card(decision.source).on_topdeck
    if own is not None:
        return own(decision, position, plan)
    # Bureaucrat: any Victory card
    return worst_first(option_cards(decision), decision.min, position.facts)


def fate(decision: DecisionLike, position: Position, mine: bool) -> list[int]:
    """Sentry's and Spy's card (`mine`: from the bot's own deck): trash or discard what
    does not help, keep what does; another player's, the other way round."""
    card = decision.options[0].card
    facts = position.facts
    thinning = facts.bot_card(card).thinning
    bad = facts.is_junk(card) or thinning is Thinning.SPARE
    if not mine:
        wanted = "keep" if bad else "discard"
    elif (thinning is Thinning.ALWAYS
          or (thinning is Thinning.EARLY and early(position))
          or (thinning is Thinning.SPARE and position.money > 7)):
        wanted = "trash"
    else:
        wanted = "discard" if bad else "keep"
    found = kind_at(decision, wanted)
    if found is None:
        found = kind_at(decision, "discard" if wanted == "trash" else "keep")
    return [found if found is not None else 0]


def order(decision: DecisionLike, facts: CardFacts) -> list[int]:
    """Cards back onto the deck: the best on top (the first chosen ends on top)."""
    cards = option_cards(decision)
    return sorted(range(len(cards)), key=lambda i: (-facts.hand_value(cards[i]), i))


def play(decision: DecisionLike, facts: CardFacts) -> list[int]:
    """Throne Room's card, or whether to play Vassal's."""
    if kind_at(decision, "yes") is not None:
        return yes(decision, True)
    best = best_to_repeat(option_cards(decision), facts)
    if best is None:
        return [] if decision.min == 0 else [0]
    return [best]


def set_aside(decision: DecisionLike, position: Position) -> list[int]:
    """Library: skip an Action drawn when no action is left to play it."""
    return yes(decision, position.view.actions == 0)


ANSWERS: dict[str, Callable[[DecisionLike, Position, Plan], list[int]]] = {
    "gain": gain,
    "discard": discard,
    "trash": trash,
    "topdeck": topdeck,
    "order": lambda decision, position, plan: order(decision, position.facts),
    "play": lambda decision, position, plan: play(decision, position.facts),
    "set_aside": lambda decision, position, plan: set_aside(decision, position),
    "react": lambda decision, position, plan: yes(decision, True),
    "yes_no": lambda decision, position, plan: yes(decision, True),
}
"""Answers by decision kind (Chancellor's yes/no: the deck into the discard pile)."""
