"""The strong bot reads its opponents' plans from their public gains and answers them."""

from __future__ import annotations

from dominion.bots.strong import StrongBot
from dominion.bots.wire import WireDecision

from .strong_positions import START, View, buy, chosen_cards

GARDENS = ("workshop", "gardens", "smithy", "village", "cellar")
RUSHER = {**START, "workshop": 4}


def answer(choice: WireDecision, view: View) -> list[str | None]:
    return chosen_cards(StrongBot().choose(choice, view), choice)


def test_it_contests_the_gardens_of_a_rush() -> None:
    offered = buy("silver", "smithy", "gold", "workshop", "gardens")
    assert answer(offered, View(coins=6, kingdom=GARDENS, others=[RUSHER])) == ["gardens"]
    assert answer(offered, View(coins=3, kingdom=GARDENS, others=[RUSHER])) == ["workshop"]
    two = {**START, "workshop": 2}
    assert answer(offered, View(coins=3, kingdom=GARDENS, others=[RUSHER],
                                mine=two)) == ["silver"]


def test_gardens_are_left_alone_without_a_rush_and_provinces_come_first() -> None:
    offered = buy("silver", "smithy", "gold", "workshop", "gardens", "province")
    assert answer(offered, View(coins=6, kingdom=GARDENS)) == ["gold"]
    rich = {**START, "gold": 3, "silver": 3}
    assert answer(offered, View(coins=8, kingdom=GARDENS, others=[RUSHER],
                                mine=rich)) == ["province"]


WITCHES = ("witch", "moat", "smithy", "village", "cellar")
CURSER = {**START, "witch": 1}


def test_in_a_curse_war_gold_comes_before_an_early_province() -> None:
    offered = buy("gold", "province")
    money = {**START, "gold": 2, "silver": 2}  # 15 coins: enough for the Witch plan
    assert answer(offered, View(coins=8, kingdom=WITCHES, mine=money)) == ["province"]
    assert answer(offered, View(coins=8, kingdom=WITCHES, mine=money,
                                others=[CURSER])) == ["gold"]


def test_one_moat_answers_a_witch() -> None:
    offered = buy("copper", "moat", "silver")
    assert answer(offered, View(coins=3, kingdom=WITCHES)) == ["silver"]
    assert answer(offered, View(coins=3, kingdom=WITCHES, others=[CURSER])) == ["moat"]
    moated = {**START, "moat": 1}
    assert answer(offered, View(coins=3, kingdom=WITCHES, others=[CURSER],
                                mine=moated)) == ["silver"]


def test_in_a_curse_war_estates_come_sooner_and_duchies_later() -> None:
    near = {"province": 3}  # three gains to the end
    offered = buy("estate", "silver")
    assert answer(offered, View(coins=4, kingdom=WITCHES, piles=near)) == ["silver"]
    assert answer(offered, View(coins=4, kingdom=WITCHES, piles=near,
                                others=[CURSER])) == ["estate"]
    further = {"province": 7}  # the Witch plan's Duchy beats a Silver from 7 gains
    offered = buy("duchy", "silver")
    assert answer(offered, View(coins=5, kingdom=WITCHES, piles=further, mine={
        **START, "witch": 2})) == ["duchy"]
    assert answer(offered, View(coins=5, kingdom=WITCHES, piles=further, mine={
        **START, "witch": 2}, others=[CURSER])) == ["silver"]
