"""Small flows that ask one question and turn the answer back into cards or a yes/no.

A question whose outcome is forced (every legal answer has the same effect) is not
asked when everyone can tell that it is forced: that changes no rule and spares
players pointless clicks. When only the decider can tell (it depends on the cards in
their hand, say), skipping it would tell the others about those cards, so it is asked
anyway, marked `forced` for the decider alone (docs/ENGINE.md, "Questions that tell
nothing").
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING

from .decisions import DecisionKind, OptionKind
from .options import option

if TYPE_CHECKING:
    from .game import Flow, Game
    from .state import PlayerState


class Known(Enum):
    """What the other players know of the cards a question chooses among, and so whether
    they can tell that its answer is forced."""

    CARDS = "cards"
    """The cards themselves: revealed cards, the Supply."""
    COUNT = "count"
    """How many, not which: a hand (or whether a discard pile is empty, which its top
    card shows). A question forced by their number alone is skipped."""
    NOTHING = "nothing"
    """Not even how many: the Victory cards in a hand. Always asked."""


def choose_positions(
    game: Game,
    p: PlayerState,
    cards: list[str],
    kind: DecisionKind,
    prompt: str,
    source: str | None,
    min_count: int,
    max_count: int,
    *,
    known: Known,
) -> Flow[list[int]]:
    """Choose between min_count and max_count of `cards` (card instances, may repeat):
    the positions in `cards` of the copies chosen (each option's id is its position).

    `known`: what the others know of `cards`. A forced answer is only skipped when
    that is enough for them to tell it is forced; otherwise the question is asked,
    marked forced."""
    max_count = min(max_count, len(cards))
    min_count = min(min_count, max_count)
    by_count = max_count == 0 or min_count == max_count == len(cards)
    if by_count or (min_count == max_count and len(set(cards)) == 1):
        if known is Known.NOTHING or (known is Known.COUNT and not by_count):
            yield game.decide(p.seat, kind, prompt, source,
                              tuple(option(OptionKind.CARD, card) for card in cards[:min_count]),
                              forced=True)
        return list(range(min_count))
    options = tuple(option(OptionKind.CARD, card) for card in cards)
    picked = yield game.decide(p.seat, kind, prompt, source, options, min_count, max_count)
    return list(picked)


def choose_cards(
    game: Game,
    p: PlayerState,
    cards: list[str],
    kind: DecisionKind,
    prompt: str,
    source: str | None,
    min_count: int,
    max_count: int,
    *,
    known: Known,
) -> Flow[list[str]]:
    """As `choose_positions`, giving the cards chosen rather than their positions."""
    positions = yield from choose_positions(game, p, cards, kind, prompt, source, min_count,
                                            max_count, known=known)
    return [cards[i] for i in positions]


def choose_card(
    game: Game,
    p: PlayerState,
    cards: list[str],
    kind: DecisionKind,
    prompt: str,
    source: str | None,
    *,
    optional: bool = False,
    known: Known,
) -> Flow[str | None]:
    """Choose one of `cards` (or none, if optional); None when there is nothing to choose.
    `known` as for `choose_cards`."""
    chosen = yield from choose_cards(game, p, cards, kind, prompt, source,
                                     0 if optional else 1, 1, known=known)
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
                                   f"Gain {what} costing up to {max_cost}.", source,
                                   known=Known.CARDS))


def yes_no(
    game: Game,
    p: PlayerState,
    kind: DecisionKind,
    prompt: str,
    source: str | None,
    card: str | None = None,
    *,
    possible: bool = True,
) -> Flow[bool]:
    """Yes or no; when yes is not `possible` (a Moat the player does not hold in hand), a
    forced "no": the caller asks whenever the others cannot tell."""
    if not possible:
        yield game.decide(p.seat, kind, prompt, source, (option(OptionKind.NO, card),),
                          forced=True)
        return False
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
    """Order cards to put back on the deck, top first; returned bottom first, top last.

    Not asked for one card or none (everyone knows how many go back); asked, forced, for
    identical cards, which only their owner has seen."""
    if len(cards) <= 1:
        return list(cards)
    options = tuple(option(OptionKind.CARD, card) for card in cards)
    picked = yield game.decide(p.seat, DecisionKind.ORDER, prompt, source, options,
                               len(cards), len(cards), ordered=True,
                               forced=len(set(cards)) == 1)
    return [cards[i] for i in reversed(picked)]
