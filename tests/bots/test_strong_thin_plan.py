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
    assert choose_plan(without_lab, 2) == replace(CHAPEL_WITCH, support="market")
    festival = (*(card for card in without_lab if card != "market"), "festival")
    assert choose_plan(festival, 2) == replace(CHAPEL_WITCH, support="festival")
    plain = tuple(card for card in festival if card != "festival")
    assert choose_plan(plain, 2) == replace(CHAPEL_WITCH, support=None)
    assert choose_plan(KINGDOM, 4).thinner is None
    assert choose_plan(KINGDOM, 2, Level.NO_ATTACKS).thinner is None
    no_chapel = tuple(card for card in KINGDOM if card != "chapel")
    assert choose_plan(no_chapel, 2).card == PLANS["witch"].card
    assert choose_plan(no_chapel, 2).thinner is None


def bought(view: View, *cards: str) -> list[str | None]:
    choice = buy(*cards)
    return chosen_cards(StrongBot().choose(choice, view), choice)


def test_without_a_laboratory_the_witch_is_followed_by_a_market() -> None:
    kingdom = tuple(card for card in KINGDOM if card != "laboratory")
    mine = {"copper": 4, "estate": 1, "chapel": 1, "witch": 1}
    view = View(coins=5, kingdom=kingdom, mine=mine)
    assert bought(view, "market", "silver") == ["market"]


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


def test_a_thin_deck_takes_duchies_over_gold_from_four_gains_to_the_end() -> None:
    thin = {"gold": 3, "silver": 2, "witch": 1, "chapel": 1, "province": 2}
    five_left = View(coins=6, kingdom=KINGDOM, mine=thin, piles={"province": 5})
    assert bought(five_left, "duchy", "gold") == ["gold"]
    four_left = View(coins=6, kingdom=KINGDOM, mine=thin, piles={"province": 4})
    assert bought(four_left, "duchy", "gold") == ["duchy"]


def test_chapel_trashes_junk_and_coppers_beyond_four_coins() -> None:
    mine = {"copper": 7, "estate": 3, "curse": 1, "chapel": 1, "witch": 1}
    choice = decision("trash", ["copper", "copper", "copper", "copper", "curse"],
                      source="chapel", least=0, most=4)
    view = View(kingdom=KINGDOM, mine=mine)
    assert sorted(chosen_cards(StrongBot().choose(choice, view), choice), key=str) == [
        "copper", "copper", "copper", "curse"]
    few = View(kingdom=KINGDOM, mine={**mine, "copper": 5})
    assert chosen_cards(StrongBot().choose(choice, few), choice) == ["curse", "copper"]
