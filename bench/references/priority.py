"""A priority-list strategy, the form Dominiate's and DominionSim's bots are written in."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from dominion.bots.strategies import DecisionLike, Strategy, Table, sensible_choice
from dominion.bots.strong import SeatView


class Seen:
    """What a reference's conditions read: its seat's view (public and its own cards),
    and its own count of the turns it has taken."""

    __slots__ = ("trashed", "turns", "view")

    def __init__(self, view: SeatView, turns: int) -> None:
        self.view = view
        self.turns = turns
        self.trashed: list[str] = []
        """Cards chosen to trash so far in this decision (Chapel's list is read again
        after each)."""

    @property
    def coins(self) -> int:
        return self.view.coins

    def owned(self, card: str) -> int:
        return self.view.owned(card) - self.trashed.count(card)

    def supply(self, card: str) -> int:
        return self.view.supply(card)

    @property
    def cards(self) -> int:
        return sum(self.view.holdings(self.view.seat).values()) - len(self.trashed)

    @property
    def total_money(self) -> int:
        """The coins of every Treasure owned (the simulators' getTotalMoney)."""
        coins = self.view.catalogue.coins
        holdings = self.view.holdings(self.view.seat)
        return sum(coins(card) * count for card, count in holdings.items()) - sum(
            coins(card) for card in self.trashed)

    def treasure_in_hand(self) -> int:
        coins = self.view.catalogue.coins
        hand = list(self.view.hand())
        for card in self.trashed:
            if card in hand:
                hand.remove(card)
        return sum(coins(card) for card in hand)

    def gains_to_end(self) -> int:
        """Dominiate's gainsToEndGame: the Provinces left, or the smallest three piles
        (four with five or more players) together, whichever is fewer."""
        view = self.view
        piles = sorted(view.supply(card) for card in (*BASE, *view.kingdom))
        return min(view.supply("province"), sum(piles[:4 if view.seats >= 5 else 3]))


BASE = ("copper", "curse", "estate", "silver", "duchy", "gold", "province")
Condition = Callable[[Seen], bool]


def always(seen: Seen) -> bool:
    return True


@dataclass(frozen=True)
class Rule:
    card: str
    when: Condition = always


@dataclass(frozen=True)
class Reference:
    """A reference strategy: what it needs in the Kingdom, and its priority lists."""

    name: str
    source: str
    """Its simulator's file and commit."""
    requires: tuple[str, ...]
    gains: tuple[Rule, ...]
    actions: tuple[str, ...] = ()
    trashes: tuple[Rule, ...] = field(default=())

    def __call__(self) -> Strategy:
        """A player of this strategy for one game."""
        return PriorityPlayer(self)


class PriorityPlayer:
    """Plays one game by a reference's lists."""

    def __init__(self, reference: Reference) -> None:
        self.reference = reference
        self.name = reference.name
        self.turns = 0

    def choose(self, decision: DecisionLike, table: Table) -> list[int]:
        options = decision.options
        kind = decision.kind
        if kind == "buy" and any(o.kind == "play_all_treasures" for o in options):
            self.turns += 1  # a turn's first Buy decision offers to play the Treasures
            return [next(i for i, o in enumerate(options) if o.kind == "play_all_treasures")]
        seen = Seen(table, self.turns)  # type: ignore[arg-type]  # a SeatTable: a SeatView
        if kind in ("buy", "gain"):
            offered = {o.card: i for i, o in enumerate(options) if o.kind in ("buy", "card")
                       and o.card is not None}
            for rule in self.reference.gains:
                if rule.card in offered and rule.when(seen):
                    return [offered[rule.card]]
            if kind == "buy" or decision.min == 0:
                return [len(options) - 1] if kind == "buy" else []
            return sensible_choice(decision)
        if kind == "play_action":
            playable = {o.card: i for i, o in enumerate(options) if o.kind == "play"}
            for card in self.reference.actions:
                if card in playable:
                    return [playable[card]]
            return [len(options) - 1]  # end_phase is last
        if kind == "trash" and self.reference.trashes and decision.source == "chapel":
            return self._trash(decision, seen)
        return sensible_choice(decision)

    def _trash(self, decision: DecisionLike, seen: Seen) -> list[int]:
        left = {i: o.card for i, o in enumerate(decision.options) if o.card is not None}
        chosen: list[int] = []
        while len(chosen) < decision.max:
            pick = next((i for rule in self.reference.trashes if rule.when(seen)
                         for i, card in left.items() if card == rule.card), None)
            if pick is None:
                break
            chosen.append(pick)
            seen.trashed.append(left.pop(pick) or "")
        return chosen if len(chosen) >= decision.min else sensible_choice(decision)


def rules(*pairs: str | tuple[str, Condition]) -> tuple[Rule, ...]:
    """A priority list: a card, or a card and its condition."""
    return tuple(Rule(item) if isinstance(item, str) else Rule(*item) for item in pairs)
