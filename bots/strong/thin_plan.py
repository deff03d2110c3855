"""Chapel/Witch: the plan the strong bot plays, 2-player, where the Kingdom holds both.

Big Money around Witch wins a Curse war only when it gives more Curses than it takes;
against a rival's Chapel, which trashes them, it does not (docs/BOTS.md, "Against the
simulators' reference strategies"). So where Chapel and Witch are both offered the bot
thins as Chapel/Witch does: a Chapel opened at $3 or less, one Witch, Chapel trashing
Curses, Estates and the Coppers beyond a few coins of Treasure, and a Laboratory (else a
Market, else a Festival) for the thin deck. It waits for more money than Chapel/Witch
before its first Province, and takes its Duchies later (measured: docs/BOTS.md). It does
not contest a Gardens rush as the other plans do: against Workshop/Gardens that scored a
point lower on the same deals.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..strategies import DecisionLike
from .choices import option_cards
from .money_plan import Plan

if TYPE_CHECKING:
    from .position import Position

THIN_MONEY: Final = 4
"""Coins in Treasures kept: Chapel trashes Coppers only beyond them."""
OPENING_CARDS: Final = 11
"""At most so many cards owned: the opening's two buys (a Chapel comes then or never)."""
ESTATES_KEPT_AT: Final = 4
"""Gains to the end from which Estates are trashed only where nothing else is."""

THIN_SUPPORTS: Final = ("laboratory", "market", "festival")
"""Non-terminals the thin deck buys with $5 once it owns its Witch: the first of these the
Kingdom holds (measured: docs/BOTS.md, "Against the simulators' reference strategies")."""

CHAPEL_WITCH: Final = Plan("witch", 1, over_gold=True, province_money=14, duchy_at=4,
                           support="laboratory", thinner="chapel")


def thin_priority(plan: Plan, position: Position, coins: int) -> list[str]:
    """The plan's gains with `coins`, best first (before the endgame's checks)."""
    to_end = position.gains_to_end()
    cost, piles = position.facts.cost, position.piles
    wanted: list[str] = []
    if coins >= 8 and position.money >= plan.province_money:
        wanted.append("province")
    card = plan.card
    if card is not None and coins >= cost(card) and position.owned(card) < plan.copies:
        wanted.append(card)
    if coins >= 5 and 0 < to_end <= plan.duchy_at:
        wanted.append("duchy")
    if coins >= 2 and 0 < to_end <= 2:
        wanted.append("estate")
    if coins >= 6:
        wanted.append("gold")
    support = plan.support
    if (support is not None and piles.get(support) and coins >= cost(support)
            and card is not None and position.owned(card)):
        wanted.append(support)
    thinner = plan.thinner
    if (thinner is not None and coins <= 3 and piles.get(thinner) and not position.owned(thinner)
            and position.cards <= OPENING_CARDS):
        wanted.append(thinner)
    if coins >= 3:
        wanted.append("silver")
    if to_end <= 3:
        wanted.append("copper")
    return wanted


def thin_trash(decision: DecisionLike, position: Position) -> list[int]:
    """Chapel's cards: Curses; Estates while the end is far; Coppers beyond `THIN_MONEY`
    (all but the opening hand of $5 that buys the Witch); Estates while the end is not
    near; at most four."""
    cards = option_cards(decision)
    to_end = position.gains_to_end()
    money = position.money
    keep_five = not position.owned("witch") and sum(
        position.facts.coins(card) for card in position.view.hand()) == 5
    left = dict(enumerate(cards))
    chosen: list[int] = []
    while len(chosen) < decision.max:
        wanted = ["curse"]
        if to_end > ESTATES_KEPT_AT:
            wanted.append("estate")
        if money > THIN_MONEY and not keep_five:
            wanted.append("copper")
        if to_end > 2:
            wanted.append("estate")
        pick = next((i for card in wanted for i, option in left.items() if option == card), None)
        if pick is None:
            break
        if left.pop(pick) == "copper":
            money -= 1
        chosen.append(pick)
    return chosen
