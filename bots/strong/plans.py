"""The family of money strategies the strong bot chooses from, and its choice per Kingdom.

Each plan is Big Money built around one Kingdom card (Witch, Smithy, Library...), with a
non-terminal bought beside it where the Kingdom has one that helps. Only the Kingdom and
the number of players decide which: both are public, so the choice is honest.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import IntEnum
from typing import Final


class Level(IntEnum):
    """How well the bot plays: which plans it may choose (docs/BOTS.md, "Levels")."""

    MONEY = 1
    """Plain money on every Kingdom, with the endgame rules."""
    NO_ATTACKS = 2
    """Money around the Kingdom's best card that attacks no one (no Witch, no Militia)."""
    FULL = 3
    """Money around the Kingdom's best card: the strongest, the default."""


DEFAULT_LEVEL: Final = Level.FULL


@dataclass(frozen=True, slots=True)
class Plan:
    card: str | None
    """The Kingdom card the money is built around (None: plain money)."""
    copies: int = 0
    spacing: int = 0
    """Cards owned beyond the starting ten per copy already owned, before the next copy."""
    over_gold: bool = False
    """Bought before Gold (else after it, before Silver)."""
    support: str | None = None
    """A second card bought in place of Silver once `card` is satisfied (a non-terminal
    such as Laboratory, unless `support_copies` is small)."""
    support_copies: int = 10
    province_money: int = 16
    """Coins in Treasures needed before a Province is worth more than a Gold."""
    duchy_at: int = 4
    """Gains left to the end at which a Duchy beats a Gold."""


MONEY: Final = Plan(None, province_money=18)
"""Big Money Ultimate: no Kingdom card at all."""

PLANS: Final[Mapping[str, Plan]] = {
    "witch": Plan("witch", 2, over_gold=True, province_money=15, duchy_at=5),
    "smithy": Plan("smithy", 2, 6, province_money=15),
    "militia": Plan("militia", 2, 6),
    "council_room": Plan("council_room", 1, province_money=15),
    "bandit": Plan("bandit", 2, 6),
    "library": Plan("library", 2, 6, province_money=15),
    "market": Plan("market", 8),
    "bureaucrat": Plan("bureaucrat", 2, 6),
    "laboratory": Plan("laboratory", 10, province_money=15),
    "sentry": Plan("sentry", 2, 6),
    "festival": Plan("festival", 3),
    "chancellor": Plan("chancellor", 1),
    "moneylender": Plan("moneylender", 1),
    "mine": Plan("mine", 1),
    "poacher": Plan("poacher", 2, 4),
    "remodel": Plan("remodel", 1),
    "woodcutter": Plan("woodcutter", 2, 6),
}
"""The plan around each card worth one (the others lost to plain money when measured)."""

SUPPORTS: Final = ("laboratory", "market")
"""Non-terminals that help a plan around a terminal, best first."""

RANKING: Final[Mapping[int, Sequence[str]]] = {
    2: ("witch", "smithy", "militia", "council_room", "bandit", "library", "market",
        "bureaucrat", "laboratory", "sentry", "festival", "chancellor", "moneylender", "mine",
        "poacher", "remodel", "woodcutter"),
    4: ("witch", "smithy", "militia", "library", "council_room", "sentry", "laboratory",
        "market", "moneylender", "chancellor", "poacher", "festival", "woodcutter", "bandit",
        "bureaucrat", "remodel"),
}
"""Plans by strength, by number of players (3 plays as 2; 5 and 6 as 4): each plan's
win rate against Big Money, measured on random Kingdoms that hold its card; in 2-player
games Smithy comes first of the rest as it alone holds even against Smithy Big Money
(docs/BOTS.md, "How it was tuned")."""


def choose_plan(kingdom: Sequence[str], seats: int, level: Level = DEFAULT_LEVEL,
                attacks: Callable[[str], bool] = lambda card: False) -> Plan:
    """The strongest plan this Kingdom allows for this many players at `level`
    (`attacks`: whether a card is an Attack, as the catalogue says)."""
    if level == Level.MONEY:
        return MONEY
    ranking = RANKING[2 if seats <= 3 else 4]
    available = {card for card in kingdom if level > Level.NO_ATTACKS or not attacks(card)}
    for card in ranking:
        if card in available:
            plan = PLANS[card]
            if card not in SUPPORTS:
                support = next((c for c in SUPPORTS if c in available), None)
                plan = replace(plan, support=support)
            return plan
    return MONEY
