"""Small flows that ask one question and turn the answer back into cards or a yes/no.

A question whose outcome is forced (every legal answer has the same effect) is not
asked: that changes no rule and spares players pointless clicks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .decisions import DecisionKind, OptionKind
from .options import option

if TYPE_CHECKING:
    from .game import Flow, Game
    from .state import PlayerState


def choose_cards(
    game: Game,
    p: PlayerState,
    cards: list[str],
    kind: DecisionKind,
    prompt: str,
    source: str | None,
    min_count: int,
    max_count: int,
) -> Flow[list[str]]:
    """Choose between min_count and max_count of `cards` (card instances, may repeat)."""
    max_count = min(max_count, len(cards))
    min_count = min(min_count, max_count)
    if max_count == 0:
        return []
    if min_count == max_count and (min_count == len(cards) or len(set(cards)) == 1):
        return cards[:min_count]
    options = tuple(option(OptionKind.CARD, card) for card in cards)
    picked = yield game.decide(p.seat, kind, prompt, source, options, min_count, max_count)
    return [cards[i] for i in picked]


def choose_card(
    game: Game,
    p: PlayerState,
    cards: list[str],
    kind: DecisionKind,
    prompt: str,
    source: str | None,
    *,
    optional: bool = False,
) -> Flow[str | None]:
    """Choose one of `cards` (or none, if optional); None when there is nothing to choose."""
    chosen = yield from choose_cards(game, p, cards, kind, prompt, source,
                                     0 if optional else 1, 1)
    return chosen[0] if chosen else None


def choose_gain(
    game: Game,
    p: PlayerState,
    source: str,
    max_cost: int,
    *,
    treasure: bool = False,
) -> Flow[str | None]:
    """Choose a Supply card costing up to `max_cost` to gain; None when there is none."""
    cards = game.cards
    supply = game.supply
    candidates = [
        c for c in game.supply_order
        if supply[c] > 0 and cards[c].cost <= max_cost and (cards[c].is_treasure or not treasure)
    ]
    what = "a Treasure" if treasure else "a card"
    return (yield from choose_card(game, p, candidates, DecisionKind.GAIN,
                                   f"Gain {what} costing up to {max_cost}.", source))


def yes_no(
    game: Game,
    p: PlayerState,
    kind: DecisionKind,
    prompt: str,
    source: str | None,
    card: str | None = None,
) -> Flow[bool]:
    options = (option(OptionKind.YES, card), option(OptionKind.NO, card))
    (choice,) = yield game.decide(p.seat, kind, prompt, source, options)
    return choice == 0


def choose_fate(
    game: Game,
    p: PlayerState,
    card: str,
    fates: tuple[OptionKind, ...],
    prompt: str,
    source: str,
) -> Flow[OptionKind]:
    """Say what happens to one card: one of `fates` (trash, discard, keep)."""
    options = tuple(option(fate, card) for fate in fates)
    (choice,) = yield game.decide(p.seat, DecisionKind.CHOOSE_FATE, prompt, source, options)
    return fates[choice]


def choose_order(
    game: Game, p: PlayerState, cards: list[str], prompt: str, source: str
) -> Flow[list[str]]:
    """Order cards to put back on the deck, top first; returned bottom first, top last."""
    if len(set(cards)) <= 1:
        return list(cards)
    options = tuple(option(OptionKind.CARD, card) for card in cards)
    picked = yield game.decide(p.seat, DecisionKind.ORDER, prompt, source, options,
                               len(cards), len(cards), ordered=True)
    return [cards[i] for i in reversed(picked)]
