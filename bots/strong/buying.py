"""What the strong bot gains, best first: Big Money Ultimate's money and endgame rules
around its plan's Kingdom card, with the endgame seen through the scores.

The endgame rules: take a card that ends the game when that wins it; never end the game
when that loses it; Duchies and Estates once the end is near ("Duchy dancing"). The
Penultimate Province Rule (leave the next-to-last Province when the rival would win by
taking the last) lost 8 points of win rate against Big Money, which takes Provinces
whenever it can: it is left out (docs/BOTS.md).
"""

from __future__ import annotations

from .money_plan import Plan
from .position import Position
from .reading import giving_curses, rushing_gardens
from .thin_plan import thin_priority

CONTEST_WORKSHOPS = 2
"""Workshops the bot gains to contest a Gardens rush (each gains a Gardens at $4)."""
CURSE_WAR_PROVINCE_MONEY = 20
"""Coins in Treasures before a Province beats a Gold when an opponent gives Curses: the
Curses slow the game, so Gold pays for longer (measured: docs/BOTS.md)."""
ESTATE_AT = 2
"""Gains left to the end at which an Estate beats a Gold (one more: beats a Silver)."""
DUCHY_OVER_SILVER = 2
"""Gains to the end beyond the plan's `duchy_at` at which a Duchy beats a Silver."""
CURSE_WAR_GREENING = 1
"""In a Curse war, gains to the end by which Estates come sooner and a Duchy beats a
Silver later: the Curses keep both scores low, so an Estate counts for more, while the
deck needs its Silver longer (measured: docs/BOTS.md)."""


def wants(plan: Plan, position: Position, card: str | None) -> bool:
    """Whether another copy of `card`, the plan's, is wanted now."""
    if card is None or not position.piles.get(card):
        return False
    owned = position.owned(card)
    return owned < plan.copies and position.cards >= 10 + plan.spacing * owned


def priority(plan: Plan, position: Position, coins: int) -> list[str]:
    """Cards worth gaining with `coins` (a budget: a buy's coins, or a gain's cost cap),
    best first; a card not listed is not worth it."""
    if plan.thinner is not None:
        return _endgame(position, coins, thin_priority(plan, position, coins))
    to_end = position.gains_to_end()
    wanted: list[str] = []
    curse_war = giving_curses(position)
    greening = CURSE_WAR_GREENING if curse_war else 0
    estate_at, duchy_over_silver = ESTATE_AT + greening, DUCHY_OVER_SILVER - greening
    province_money = plan.province_money
    if curse_war:
        province_money = max(province_money, CURSE_WAR_PROVINCE_MONEY)
    if coins >= 8 and (position.money >= province_money or to_end <= 6):
        wanted.append("province")
    wanted += _contest_gardens(position, coins)
    if coins >= 5 and to_end <= plan.duchy_at:
        wanted.append("duchy")
    if coins >= 2 and to_end <= estate_at:
        wanted.append("estate")
    card = plan.card
    cost = position.facts.cost
    if plan.over_gold and card is not None and coins >= cost(card) and wants(plan, position, card):
        wanted.append(card)
    if coins >= 6:
        wanted.append("gold")
    if coins >= 5 and to_end <= plan.duchy_at + duchy_over_silver:
        wanted.append("duchy")
    if (not plan.over_gold and card is not None and coins >= cost(card)
            and wants(plan, position, card)):
        wanted.append(card)
    support = plan.support
    if (support is not None and coins >= cost(support) and position.piles.get(support)
            and position.owned(support) < plan.support_copies and not wants(plan, position, card)):
        wanted.append(support)
    if 2 <= coins <= 3 and curse_war and position.piles.get("moat") and not position.owned("moat"):
        wanted.append("moat")  # one Moat: it blocks some Curses, in place of a Silver
    if coins >= 3:
        wanted.append("silver")
    if coins >= 2 and to_end <= estate_at + 1:
        wanted.append("estate")
    return _endgame(position, coins, wanted)


def _contest_gardens(position: Position, coins: int) -> list[str]:
    """Against a Gardens rush, below a Province's cost: the Gardens it needs (one is worth
    more to the rusher's big deck than a Duchy to the bot's), and a Workshop or two at $3
    to gain more of them (measured: docs/BOTS.md)."""
    if coins >= 8 or coins < 3 or not rushing_gardens(position):
        return []
    piles = position.piles
    if coins >= 4 and piles.get("gardens"):
        return ["gardens"]
    if coins == 3 and piles.get("workshop") and position.owned("workshop") < CONTEST_WORKSHOPS:
        return ["workshop"]
    return []


def _endgame(position: Position, coins: int, wanted: list[str]) -> list[str]:
    if not position.one_gain_ends:
        return wanted
    lead, value = position.lead, position.facts.value
    # a card whose gain ends the game with this seat ahead: the game is won
    finishing = [card for card in position.affordable(coins)
                 if position.ends_game(card) and lead + value(card) > 0]
    finishing.sort(key=lambda card: -value(card))
    kept = []
    for card in wanted:
        if position.ends_game(card) and lead + value(card) <= 0:
            continue  # ends the game lost or tied
        kept.append(card)
    return [*finishing, *(card for card in kept if card not in finishing)]
