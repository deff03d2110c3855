"""Positions for the strong bot's tests: a seat's view laid out by hand."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from dominion.bots.strong.knowledge import CardFacts
from dominion.bots.wire import WireDecision, WireOption
from dominion.server.engine.cards import all_cards

CATALOGUE = CardFacts(all_cards())
START = {"copper": 7, "estate": 3}
PILES = {"copper": 46, "curse": 10, "estate": 8, "silver": 40, "duchy": 8, "gold": 30,
         "province": 8}


@dataclass
class View:
    """A `SeatView` with what a test says: seat 0 of `seats`, the others' holdings given."""

    kingdom: Sequence[str] = ("cellar", "chapel", "moat", "village", "smithy", "militia",
                              "remodel", "mine", "market", "laboratory")
    coins: int = 0
    actions: int = 1
    buys: int = 1
    held: Sequence[str] = ()
    mine: Mapping[str, int] = field(default_factory=lambda: dict(START))
    others: Sequence[Mapping[str, int]] = field(default_factory=lambda: [dict(START)])
    piles: Mapping[str, int] = field(default_factory=dict)
    seat: int = 0
    catalogue: CardFacts = field(default_factory=lambda: CATALOGUE)

    @property
    def seats(self) -> int:
        return 1 + len(self.others)

    def supply(self, card: str) -> int:
        if card in self.piles:
            return self.piles[card]
        if card in PILES:
            return PILES[card]
        return 10 if card in self.kingdom else 0

    def owned(self, card: str) -> int:
        return self.mine.get(card, 0)

    def hand(self) -> Sequence[str]:
        return self.held

    def holdings(self, seat: int) -> Mapping[str, int]:
        return Counter(self.mine if seat == 0 else self.others[seat - 1])


def decision(kind: str, cards: Sequence[str | None] = (), option: str = "card", *,
             source: str | None = None, least: int = 1, most: int = 1,
             extra: Sequence[tuple[str, str | None]] = ()) -> WireDecision:
    """A decision whose options are `cards` (of the `option` kind), then `extra`."""
    options = (*(WireOption(option, card) for card in cards),
               *(WireOption(kind_, card) for kind_, card in extra))
    return WireDecision(1, 0, kind, source, options, least, most)


def buy(*cards: str) -> WireDecision:
    """A Buy decision after the Treasures are played: these cards, then end."""
    return decision("buy", cards, "buy", extra=[("end_phase", None)])


def chosen_cards(answer: Sequence[int], choice: WireDecision) -> list[str | None]:
    return [choice.options[i].card for i in answer]
