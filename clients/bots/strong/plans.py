"""The family of money strategies the strong bot chooses from, and its choice per Kingdom.

Each plan is Big Money built around one Kingdom card (Witch, Smithy, Library...), with a
non-terminal bought beside it where the Kingdom has one that helps. Only the Kingdom and
the number of players decide which: both are public, so the choice is honest.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final


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
    """A non-terminal bought with 5 coins, in place of Silver, once `card` is satisfied."""
    province_money: int = 16
    """Coins in Treasures needed before a Province is worth more than a Gold."""
    duchy_at: int = 4
    """Gains left to the end at which a Duchy beats a Gold."""


MONEY: Final = Plan(None, province_money=18)
"""Big Money Ultimate: no Kingdom card at all."""

PLANS: Final[Mapping[str, Plan]] = {
    "witch": Plan("witch", 2, over_gold=True, province_money=15, duchy_at=5),
    "laboratory": Plan("laboratory", 10, province_money=15),
    "library": Plan("library", 2, 6, province_money=15),
    "smithy": Plan("smithy", 2, 6, province_money=15),
    "council_room": Plan("council_room", 1, province_money=15),
    "militia": Plan("militia", 2, 6, province_money=16),
    "bandit": Plan("bandit", 2, 6, province_money=16),
    "moneylender": Plan("moneylender", 1, province_money=16),
    "sentry": Plan("sentry", 2, 6, province_money=16),
    "market": Plan("market", 8, province_money=16),
    "bureaucrat": Plan("bureaucrat", 2, 6, province_money=16),
    "moat": Plan("moat", 2, 6, province_money=16),
}
"""The plan around each card that has one."""

SUPPORTS: Final = ("laboratory", "market")
"""Non-terminals that help a plan around a terminal, best first."""

RANKING: Final[Mapping[int, Sequence[str]]] = {
    2: ("witch", "library", "smithy", "council_room", "laboratory", "militia", "bandit",
        "moneylender", "sentry", "market", "bureaucrat", "moat"),
    4: ("witch", "militia", "smithy", "library", "laboratory", "bandit", "council_room",
        "moneylender", "sentry", "market", "bureaucrat", "moat"),
}
"""Plans by strength, by number of players (3 plays as 2; 5 and 6 as 4): measured with
bench/strength.py (docs/BOTS.md)."""


def choose_plan(kingdom: Sequence[str], seats: int) -> Plan:
    """The strongest plan this Kingdom allows for this many players."""
    ranking = RANKING[2 if seats <= 3 else 4]
    available = set(kingdom)
    for card in ranking:
        if card in available:
            plan = PLANS[card]
            if card not in SUPPORTS:
                support = next((c for c in SUPPORTS if c in available), None)
                plan = replace(plan, support=support)
            return plan
    return MONEY
