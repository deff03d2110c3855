"""The strong bot's Chapel/Witch plan (bots/strong/thin_plan.py): where a 2-player Kingdom
offers both, it thins its deck as Chapel/Witch does."""

from __future__ import annotations

from dataclasses import replace

from dominion.bots.strong import Level, StrongBot
from dominion.bots.strong.plans import PLANS, choose_plan
from dominion.bots.strong.thin_plan import CHAPEL_WITCH

from .strong_positions import View, buy, chosen_cards, decision

KINGDOM = ("chapel", "witch", "laboratory", "village", "cellar", "moat", "smithy", "militia",
           "market", "remodel")


def test_a_two_player_kingdom_with_chapel_and_witch_gets_the_thin_plan() -> None:
    assert choose_plan(KINGDOM, 2) == CHAPEL_WITCH
    without_lab = tuple(card for card in KINGDOM if card != "laboratory")
    assert choose_plan(without_lab, 2) == replace(CHAPEL_WITCH, support=None)
    assert choose_plan(KINGDOM, 4).thinner is None
    assert choose_plan(KINGDOM, 2, Level.NO_ATTACKS).thinner is None
    no_chapel = tuple(card for card in KINGDOM if card != "chapel")
    assert choose_plan(no_chapel, 2).card == PLANS["witch"].card
    assert choose_plan(no_chapel, 2).thinner is None


def bought(view: View, *cards: str) -> list[str | None]:
    choice = buy(*cards)
    return chosen_cards(StrongBot().choose(choice, view), choice)


def test_it_opens_chapel_at_three_and_witch_at_five() -> None:
    assert bought(View(coins=3, kingdom=KINGDOM), "chapel", "silver") == ["chapel"]
    assert bought(View(coins=5, kingdom=KINGDOM), "witch", "laboratory", "silver") == ["witch"]
    later = View(coins=3, kingdom=KINGDOM, mine={"copper": 7, "estate": 3, "silver": 2})
    assert bought(later, "chapel", "silver") == ["silver"]


def test_a_thin_deck_waits_for_fourteen_coins_before_a_province() -> None:
    thin = {"gold": 2, "silver": 2, "witch": 1, "chapel": 1}
    assert bought(View(coins=8, kingdom=KINGDOM, mine=thin), "province", "gold") == ["gold"]
    rich = {**thin, "gold": 4}
    assert bought(View(coins=8, kingdom=KINGDOM, mine=rich), "province", "gold") == ["province"]


def test_chapel_trashes_junk_and_coppers_beyond_four_coins() -> None:
    mine = {"copper": 7, "estate": 3, "curse": 1, "chapel": 1, "witch": 1}
    choice = decision("trash", ["copper", "copper", "copper", "copper", "curse"],
                      source="chapel", least=0, most=4)
    view = View(kingdom=KINGDOM, mine=mine)
    assert sorted(chosen_cards(StrongBot().choose(choice, view), choice), key=str) == [
        "copper", "copper", "copper", "curse"]
    few = View(kingdom=KINGDOM, mine={**mine, "copper": 5})
    assert chosen_cards(StrongBot().choose(choice, few), choice) == ["curse", "copper"]
