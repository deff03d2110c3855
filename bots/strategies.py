"""Random, Big Money and Smithy-Big Money, written against decisions as data.

Kinds are compared as strings, so the engine's str enums and a decoded wire
decision work alike.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from dominion.protocol.buy_menu import BuyMenu


class OptionLike(Protocol):
    @property
    def kind(self) -> str: ...
    @property
    def card(self) -> str | None: ...


class DecisionLike(Protocol):
    @property
    def kind(self) -> str: ...
    @property
    def options(self) -> Sequence[OptionLike]: ...
    @property
    def min(self) -> int: ...
    @property
    def max(self) -> int: ...
    @property
    def source(self) -> str | None: ...


class Table(Protocol):
    """What the deciding player knows: their coins, the Supply, their own cards."""

    @property
    def coins(self) -> int: ...
    def supply(self, card: str) -> int: ...
    def owned(self, card: str) -> int:
        """How many of `card` the player owns (they saw every card they gained)."""
        ...


class NoTable:
    """A `Table` for strategies that read nothing from it (the random bot)."""

    coins = 0

    def supply(self, card: str) -> int:
        return 0

    def owned(self, card: str) -> int:
        return 0


class Strategy(Protocol):
    name: str

    def choose(self, decision: DecisionLike, table: Table) -> list[int]: ...


# The strategies' own valuations, not the rules (which only the server applies): how
# little a card is worth keeping (higher: more worth discarding or trashing), and how much
# a card is worth gaining (the base cards; any other card 4).
_JUNK = {"curse": 5, "estate": 4, "duchy": 3, "province": 3, "gardens": 3, "copper": 2}
_WORTH = {"copper": 0, "curse": 0, "estate": 2, "silver": 3, "duchy": 5, "gold": 6,
          "province": 8}


def _junk(card: str | None) -> int:
    return _JUNK.get(card or "", 0)


def _find(decision: DecisionLike, kind: str, card: str | None = None) -> int | None:
    for i, option in enumerate(decision.options):
        if option.kind == kind and (card is None or option.card == card):
            return i
    return None


def _buy_menu(decision: DecisionLike) -> BuyMenu:
    """The engine's menu of a Buy decision, or one read from its options (a decision
    decoded from the wire has none)."""
    menu = getattr(decision, "menu", None)
    if isinstance(menu, BuyMenu):
        return menu
    play_all: int | None = None
    buys: dict[str, int] = {}
    for i, option in enumerate(decision.options):  # one pass: each option's kind read once
        kind = option.kind
        if kind == "play_all_treasures":  # what the bot answers then: no buys needed
            play_all = i
            buys = {}
            break
        card = option.card
        if kind == "buy" and card is not None:
            buys[card] = i
    return BuyMenu(buys, play_all)


def sensible_choice(decision: DecisionLike) -> list[int]:
    """A reasonable answer to any decision other than the Action and Buy phases."""
    options = decision.options
    kind = decision.kind
    if decision.min == decision.max == len(options):  # one answer: all (forced, or an order)
        return list(range(len(options)))
    if kind in ("react", "set_aside", "yes_no", "play"):
        yes = _find(decision, "yes")
        return [yes if yes is not None else 0]
    if kind == "choose_fate":
        card = options[0].card
        wanted = "trash" if _junk(card) >= 4 else "discard" if _junk(card) >= 2 else "keep"
        found = _find(decision, wanted)
        return [found if found is not None else len(options) - 1]
    ranked = sorted(range(len(options)), key=lambda i: -_junk(options[i].card))
    if kind == "gain":
        best = max(range(len(options)),
                   key=lambda i: (_WORTH.get(options[i].card or "", 4), -i))
        return [best]
    if kind == "topdeck" and decision.source == "harbinger":
        best = max(range(len(options)), key=lambda i: _WORTH.get(options[i].card or "", 4))
        return [best] if _junk(options[best].card) < 2 else []
    # discard, trash, topdeck: the required number, then any extra pure junk.
    chosen = ranked[: decision.min]
    extra_bar = 4 if kind == "trash" else 3
    for i in ranked[decision.min : decision.max]:
        if _junk(options[i].card) >= extra_bar:
            chosen.append(i)
    return chosen


class RandomBot:
    """Picks a random legal answer: for tests that explore every path."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def choose(self, decision: DecisionLike, table: Table) -> list[int]:
        count = self._rng.randint(decision.min, decision.max)
        return self._rng.sample(range(len(decision.options)), count)


class BigMoney:
    """The canonical Big Money: Province at 8, Gold at 6-7, Silver at 3-5, Duchies late."""

    name = "big_money"
    actions: tuple[str, ...] = ()

    def choose(self, decision: DecisionLike, table: Table) -> list[int]:
        kind = decision.kind
        if kind == "buy":
            menu = _buy_menu(decision)
            if menu.play_all is not None:
                return [menu.play_all]
            buys = menu.buys
            for card in self.buy_priority(table):
                if card in buys:
                    return [buys[card]]
            return [len(decision.options) - 1]  # end_phase is last
        if kind == "play_action":
            for card in self.actions:
                found = _find(decision, "play", card)
                if found is not None:
                    return [found]
            return [len(decision.options) - 1]  # end_phase is last
        return sensible_choice(decision)

    def buy_priority(self, table: Table) -> list[str]:
        coins = table.coins
        left = table.supply("province")
        wanted: list[str] = []
        if coins >= 8:
            wanted.append("province")
        if coins >= 5 and left <= 4:
            wanted.append("duchy")
        if coins >= 2 and left <= 2:
            wanted.append("estate")
        if coins >= 6:
            wanted.append("gold")
        if coins >= 5 and left <= 5:
            wanted.append("duchy")
        if coins >= 3:
            wanted.append("silver")
        return wanted


class SmithyBigMoney(BigMoney):
    """Big Money that buys a Smithy early and another one per eleven or so cards."""

    name = "smithy_big_money"
    actions: tuple[str, ...] = ("smithy",)

    def buy_priority(self, table: Table) -> list[str]:
        wanted = super().buy_priority(table)
        if 4 <= table.coins <= 5 and wanted[:1] != ["duchy"] and self._wants_smithy(table):
            return ["smithy", *wanted]
        return wanted

    @staticmethod
    def _wants_smithy(table: Table) -> bool:
        if not table.supply("smithy"):
            return False
        smithies = table.owned("smithy")
        if smithies != 1:
            return smithies == 0
        return sum(table.owned(c) for c in ("copper", "silver", "gold")) >= 11


STRATEGIES: dict[str, Callable[[Callable[[], random.Random]], Strategy]] = {
    "random": lambda generator: RandomBot(generator()),
    "big_money": lambda generator: BigMoney(),
    "smithy_big_money": lambda generator: SmithyBigMoney(),
}
"""Strategy factories by name; each is given a way to make its random generator, if any."""


def make_strategy(name: str, rng: random.Random | int | None = None) -> Strategy:
    """A strategy by name; `rng` (a generator, or a seed for one) seeds the random bot.

    A strategy that draws no random numbers gets no generator: seeding one costs about
    as much as a turn of the game, and dominion-sim makes a strategy per seat and game."""
    if name not in STRATEGIES:
        # for programmers: a person's command line is checked first (clients/args.py)
        raise KeyError(f"unknown strategy {name!r}; known: {', '.join(STRATEGIES)}")

    def generator() -> random.Random:
        return rng if isinstance(rng, random.Random) else random.Random(rng)

    return STRATEGIES[name](generator)
