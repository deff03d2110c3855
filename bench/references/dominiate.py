"""Dominiate's reference strategies (github.com/rspeer/dominiate), ported from
`strategies/*.coffee` at commit edc75b4e8c9162d0679d4d03a1a5837396273734.

Without Colonies in the Kingdom Dominiate's `countInSupply("Colony")` is 0, so its
"Province if Colony <= 6" is a plain "Province", and its Colony and Platinum lines never
apply (left out). The play lists are the order in which Dominiate's default
`actionPriority` (basicAI.coffee) plays the cards each strategy buys.
"""

from __future__ import annotations

from .priority import Condition, Reference, Seen, rules


def near_end(most: int) -> Condition:
    """Dominiate's `0 < state.gainsToEndGame() <= most`."""
    return lambda seen: 0 < seen.gains_to_end() <= most


def fewer(card: str, than: int) -> Condition:
    return lambda seen: seen.owned(card) < than


def has_gold(seen: Seen) -> bool:
    return seen.owned("gold") > 0


BIG_MONEY_ULTIMATE = Reference(
    "big_money_ultimate", "strategies/BigMoney.coffee ('Big Money', WanderingWinder)", (),
    rules(("province", lambda seen: seen.total_money > 18), ("duchy", near_end(4)),
          ("estate", near_end(2)), "gold", ("duchy", near_end(6)), "silver"))
"""Big Money Ultimate (Dominiate's "Big Money"; `gainsToEndGame() <= 4` there has no
lower bound, the same for a game still going)."""

BIG_SMITHY = Reference(
    "big_smithy", "strategies/BigSmithy.coffee", ("smithy",),
    rules("province", ("duchy", near_end(5)), ("estate", near_end(2)), "gold",
          ("smithy", lambda seen: seen.owned("smithy") < 2 and seen.cards >= 16),
          ("smithy", fewer("smithy", 1)), "silver",
          ("copper", lambda seen: seen.gains_to_end() <= 3)),
    actions=("smithy",))

DOUBLE_WITCH = Reference(
    "double_witch", "strategies/DoubleWitch.coffee", ("witch",),
    rules(("province", has_gold), ("witch", fewer("witch", 2)), ("duchy", near_end(5)),
          ("estate", near_end(2)), "gold", "silver"),
    actions=("witch",))

DOUBLE_MILITIA = Reference(
    "double_militia", "strategies/DoubleMilitia.coffee", ("militia",),
    rules("province", ("duchy", near_end(5)), ("militia", fewer("militia", 2)),
          ("estate", near_end(2)), "gold", "silver",
          ("copper", lambda seen: seen.gains_to_end() <= 3)),
    actions=("militia",))

CHAPEL_WITCH = Reference(
    "chapel_witch", "strategies/ChapelWitch.coffee", ("chapel", "witch"),
    rules("province", ("witch", fewer("witch", 1)), ("duchy", near_end(5)),
          ("estate", near_end(2)), "gold",
          ("chapel", lambda seen: seen.coins <= 3 and seen.owned("chapel") == 0
           and seen.turns <= 2),
          "silver", ("copper", lambda seen: seen.gains_to_end() <= 3)),
    actions=("witch", "chapel"),
    trashes=rules(
        "curse", ("estate", lambda seen: seen.gains_to_end() > 4),
        ("copper", lambda seen: seen.total_money > 4
         and not (seen.owned("witch") == 0 and seen.treasure_in_hand() == 5)),
        ("estate", lambda seen: seen.gains_to_end() > 2)))
"""Chapel/Witch. `my.turnsTaken <= 2` is the bot's own count of its turns (its first two
Buy phases)."""

LIBRARY_BIG_MONEY = Reference(
    "library_big_money", "strategies/BM_Library.coffee ('BM Library')", ("library",),
    rules("province", ("duchy", near_end(5)), ("estate", near_end(2)), "gold", "library",
          "silver"),
    actions=("library",))

DOMINIATE = (BIG_MONEY_ULTIMATE, BIG_SMITHY, DOUBLE_WITCH, DOUBLE_MILITIA, CHAPEL_WITCH,
             LIBRARY_BIG_MONEY)
