"""The family of money strategies the strong bot chooses from, and its choice per Kingdom.

Each plan is Big Money built around one Kingdom card (Witch, Smithy, Library...), with a
non-terminal bought beside it where the Kingdom has one that helps. Only the Kingdom and
the number of players decide which: both are public, so the choice is honest. A card's
plan, its places in the rankings and its worth as a support are its entry in cards.py.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from enum import IntEnum
from typing import Final

from .cards import CARDS, BotCard
from .money_plan import MONEY, Plan
from .thin_plan import CHAPEL_WITCH, THIN_SUPPORTS

__all__ = ["DEFAULT_LEVEL", "MONEY", "PLANS", "RANKING", "SUPPORTS", "Level", "Plan",
           "choose_plan"]


class Level(IntEnum):
    """How well the bot plays: which plans it may choose (docs/BOTS.md, "Levels")."""

    MONEY = 1
    """Plain money on every Kingdom, with the endgame rules."""
    NO_ATTACKS = 2
    """Money around the Kingdom's best card that attacks no one (no Witch, no Militia)."""
    FULL = 3
    """Money around the Kingdom's best card: the strongest, the default."""


DEFAULT_LEVEL: Final = Level.FULL

PLANS: Final[Mapping[str, Plan]] = {
    card.id: card.plan for card in CARDS.values() if card.plan is not None}
"""The plan around each card worth one (the others lost to plain money when measured)."""


def _rank_by(rank: Callable[[BotCard], int | None]) -> tuple[str, ...]:
    """The cards that `rank` places, first place first."""
    placed = [(place, card.id) for card in CARDS.values() if (place := rank(card)) is not None]
    return tuple(card for _, card in sorted(placed))


SUPPORTS: Final = _rank_by(lambda card: card.support_rank)
"""Non-terminals that help a plan around a terminal, best first."""

RANKING: Final[Mapping[int, Sequence[str]]] = {
    2: _rank_by(lambda card: card.rank_two_players),
    4: _rank_by(lambda card: card.rank_four_players),
}
"""Plans by strength, by number of players (3 plays as 2; 5 and 6 as 4): each plan's
win rate against Big Money, measured on random Kingdoms that hold its card; in 2-player
games Smithy comes first of the rest as it alone holds even against Smithy Big Money
(docs/BOTS.md, "How it was tuned")."""


FOUR_PLAYER_DUCHIES: Final = 3
"""Gains to the end added to a plan's `duchy_at` with 4 or more players: three rivals take
Provinces between two of the bot's turns, so its Duchies come sooner (measured against
three Big Money bots: docs/BOTS.md, "How it was tuned")."""


def choose_plan(kingdom: Sequence[str], seats: int, level: Level = DEFAULT_LEVEL,
                attacks: Callable[[str], bool] = lambda card: False) -> Plan:
    """The strongest plan this Kingdom allows for this many players at `level`
    (`attacks`: whether a card is an Attack, as the catalogue says)."""
    plan = _strongest(kingdom, seats, level, attacks)
    if seats <= 3:
        return plan
    return replace(plan, duchy_at=plan.duchy_at + FOUR_PLAYER_DUCHIES)


def _strongest(kingdom: Sequence[str], seats: int, level: Level,
               attacks: Callable[[str], bool]) -> Plan:
    if level == Level.MONEY:
        return MONEY
    if (level == Level.FULL and seats == 2 and CHAPEL_WITCH.card in kingdom
            and CHAPEL_WITCH.thinner in kingdom):
        support = next((card for card in THIN_SUPPORTS if card in kingdom), None)
        return replace(CHAPEL_WITCH, support=support)
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
