"""The strong bot's answer to each card's question, and its Buy and Action phases: a
wrong play is a bug."""

from __future__ import annotations

from dataclasses import replace

import pytest

from dominion.bots import make_strategy
from dominion.bots.strategies import NoTable
from dominion.bots.strong import DEFAULT_LEVEL, Level, NotASeatView, StrongBot
from dominion.bots.strong.plans import FOUR_PLAYER_DUCHIES, MONEY, PLANS, choose_plan
from dominion.bots.wire import WireDecision

from .strong_positions import CATALOGUE, View, buy, chosen_cards, decision

LATE = {"province": 3}
"""Piles of a game near its end."""


def answer(choice: WireDecision, view: View, bot: StrongBot | None = None) -> list[str | None]:
    return chosen_cards((bot or StrongBot()).choose(choice, view), choice)


# -- the plan ---------------------------------------------------------------------------

def test_the_plan_is_built_around_the_kingdoms_best_card() -> None:
    assert choose_plan(("witch", "smithy", "village", "cellar"), 2).card == "witch"
    smithy = choose_plan(("smithy", "laboratory", "village", "cellar"), 2)
    assert smithy.card == "smithy" and smithy.support == "laboratory"
    assert choose_plan(("chapel", "cellar", "village"), 2) is MONEY


@pytest.mark.parametrize("level", list(Level))
def test_with_four_players_the_duchies_come_sooner(level: Level) -> None:
    kingdom = ("witch", "smithy", "laboratory", "village", "cellar")
    for seats in (2, 3):
        assert choose_plan(kingdom, seats, level) == choose_plan(kingdom, 2, level)
    two = choose_plan(kingdom, 2, level)
    for seats in (4, 6):
        assert choose_plan(kingdom, seats, level).duchy_at == two.duchy_at + FOUR_PLAYER_DUCHIES


def test_a_level_names_the_plans_the_bot_may_choose() -> None:
    kingdom = ("witch", "smithy", "laboratory", "village", "cellar")
    attacks = CATALOGUE.is_attack
    assert choose_plan(kingdom, 2, Level.MONEY, attacks) is MONEY
    assert choose_plan(kingdom, 2, Level.NO_ATTACKS, attacks) == replace(
        PLANS["smithy"], support="laboratory")
    assert choose_plan(kingdom, 2, Level.FULL, attacks) == replace(
        PLANS["witch"], support="laboratory")
    assert choose_plan(kingdom, 2) == choose_plan(kingdom, 2, DEFAULT_LEVEL, attacks)


@pytest.mark.parametrize(("name", "bought"), [
    ("strong:1", "silver"), ("strong:2", "smithy"), ("strong:3", "witch"), ("strong", "witch")])
def test_a_seat_asks_for_a_level_by_the_strategys_name(name: str, bought: str) -> None:
    bot = make_strategy(name)
    view = View(coins=5, kingdom=("witch", "smithy", "laboratory", "village", "cellar"))
    offered = buy("witch", "smithy", "silver")
    assert chosen_cards(bot.choose(offered, view), offered) == [bought]


def test_a_table_without_the_seats_view_is_refused_clearly() -> None:
    with pytest.raises(NotASeatView, match="SeatView"):
        StrongBot().choose(buy("silver"), NoTable())


# -- buying -----------------------------------------------------------------------------

def test_it_opens_with_the_plans_card_and_buys_gold_over_it_later() -> None:
    view = View(coins=4)
    assert answer(buy("copper", "silver", "smithy"), view) == ["smithy"]
    view = View(coins=6, mine={"copper": 7, "estate": 3, "smithy": 1})
    assert answer(buy("silver", "smithy", "gold"), view) == ["gold"]


def test_witch_comes_before_gold() -> None:
    view = View(coins=6, kingdom=("witch", "cellar"))
    assert answer(buy("silver", "witch", "gold"), view) == ["witch"]


def test_no_province_on_thin_money_but_one_once_the_deck_has_it() -> None:
    thin = View(coins=8, mine={"copper": 7, "estate": 3})
    assert answer(buy("gold", "province"), thin) == ["gold"]
    rich = View(coins=8, mine={"copper": 7, "estate": 3, "gold": 2, "silver": 2})
    assert answer(buy("gold", "province"), rich) == ["province"]


def test_duchy_dancing_near_the_end() -> None:
    view = View(coins=6, piles={"province": 3},
                mine={"copper": 7, "estate": 3, "gold": 3, "province": 2})
    assert answer(buy("silver", "duchy", "gold"), view) == ["duchy"]
    view.coins = 2
    view.piles = {"province": 2}
    assert answer(buy("estate"), view) == ["estate"]


def test_the_last_province_is_not_bought_to_lose() -> None:
    behind = View(coins=8, piles={"province": 1}, mine={"copper": 7, "gold": 4, "province": 3},
                  others=[{"copper": 7, "province": 4, "duchy": 1}])
    assert answer(buy("gold", "duchy", "province"), behind) == ["duchy"]


def test_the_last_province_is_bought_to_win() -> None:
    ahead = View(coins=8, piles={"province": 1}, mine={"copper": 7, "gold": 4, "province": 4},
                 others=[{"copper": 7, "province": 3, "duchy": 2}])
    assert answer(buy("gold", "duchy", "province"), ahead) == ["province"]


def test_an_ending_third_pile_is_taken_when_it_wins() -> None:
    piles = {"village": 0, "cellar": 0, "moat": 1}
    ahead = View(coins=2, piles=piles, mine={"copper": 7, "province": 4})
    assert answer(buy("estate", "moat", "cellar"), ahead) == ["moat"]
    behind = View(coins=2, piles=piles, mine={"copper": 7},
                  others=[{"copper": 7, "province": 1}])
    assert answer(buy("estate", "moat"), behind) == ["estate"]


def test_treasures_are_played_before_buying() -> None:
    choice = decision("buy", ["copper", "silver"], "play",
                      extra=[("play_all_treasures", None), ("buy", "copper"), ("end_phase", None)])
    assert StrongBot().choose(choice, View()) == [2]


# -- the Action phase -------------------------------------------------------------------

def phase(*cards: str) -> WireDecision:
    return decision("play_action", cards, "play", extra=[("end_phase", None)])


def test_village_first_it_costs_no_action() -> None:
    view = View(held=("village", "smithy", "militia", "copper", "copper"))
    assert answer(phase("village", "smithy", "militia"), view) == ["village"]
    view = View(held=("smithy", "village", "copper", "copper", "copper"))
    assert answer(phase("smithy", "village"), view) == ["village"]


def test_draw_before_the_terminal_and_the_best_terminal_first() -> None:
    view = View(held=("laboratory", "smithy", "copper"))
    assert answer(phase("laboratory", "smithy"), view) == ["laboratory"]
    view = View(held=("militia", "smithy", "copper"))
    assert answer(phase("militia", "smithy"), view) == ["smithy"]


def test_cards_that_would_do_harm_are_not_played() -> None:
    view = View(held=("remodel", "silver", "copper", "copper", "gold"))
    assert answer(phase("remodel"), view) == [None]  # end the phase: nothing to remodel
    view = View(held=("moneylender", "silver", "estate"))
    assert answer(phase("moneylender"), view) == [None]
    view = View(held=("mine", "copper", "estate"))
    assert answer(phase("mine"), view) == ["mine"]


# -- each card's question ---------------------------------------------------------------

def test_militia_discards_the_least_useful_cards() -> None:
    choice = decision("discard", ["copper", "gold", "estate", "silver", "smithy"],
                      source="militia", least=2, most=2)
    assert sorted(map(str, answer(choice, View()))) == ["copper", "estate"]


def test_militia_discards_a_second_terminal_before_money() -> None:
    choice = decision("discard", ["smithy", "militia", "gold", "silver", "copper"],
                      source="militia", least=2, most=2)
    assert sorted(map(str, answer(choice, View()))) == ["copper", "militia"]


def test_cellar_discards_the_green() -> None:
    choice = decision("discard", ["copper", "province", "estate", "silver"], source="cellar",
                      least=0, most=4)
    assert sorted(map(str, answer(choice, View()))) == ["estate", "province"]


def test_chapel_trashes_curses_and_estates_never_gold() -> None:
    choice = decision("trash", ["curse", "estate", "gold", "silver"], source="chapel",
                      least=0, most=4)
    assert sorted(map(str, answer(choice, View()))) == ["curse", "estate"]


def test_remodel_turns_gold_into_a_province_late_and_estates_into_more_early() -> None:
    choice = decision("trash", ["gold", "copper", "silver"], source="remodel")
    assert answer(choice, View(piles=LATE)) == ["gold"]
    gain = decision("gain", ["silver", "duchy", "gold", "province"], source="remodel")
    assert answer(gain, View(piles=LATE, mine={"gold": 4, "copper": 7})) == ["province"]
    early = decision("trash", ["estate", "copper", "silver"], source="remodel")
    assert answer(early, View()) == ["estate"]


def test_mine_upgrades_silver_to_gold() -> None:
    choice = decision("trash", ["copper", "silver"], source="mine", least=0)
    assert answer(choice, View()) == ["silver"]
    gain = decision("gain", ["copper", "silver", "gold"], source="mine")
    assert answer(gain, View(coins=0)) == ["gold"]


def test_moneylender_trashes_its_copper() -> None:
    choice = decision("trash", [], extra=[("yes", "copper"), ("no", "copper")],
                      source="moneylender")
    assert StrongBot().choose(choice, View()) == [0]


def test_throne_room_doubles_the_best_action() -> None:
    choice = decision("play", ["village", "laboratory", "moat"], source="throne_room", least=0)
    assert answer(choice, View()) == ["laboratory"]


def test_library_skips_actions_only_when_none_can_be_played() -> None:
    choice = decision("set_aside", [], extra=[("yes", "smithy"), ("no", "smithy")],
                      source="library")
    assert StrongBot().choose(choice, View(actions=0)) == [0]
    assert StrongBot().choose(choice, View(actions=1)) == [1]


def fate(card: str, source: str = "sentry") -> WireDecision:
    fates = ("trash", "discard", "keep") if source == "sentry" else ("discard", "keep")
    return decision("choose_fate", extra=[(kind, card) for kind in fates], source=source)


def test_sentry_trashes_curses_discards_green_and_keeps_gold() -> None:
    def kind(card: str) -> str:
        choice = fate(card)
        return choice.options[StrongBot().choose(choice, View())[0]].kind
    assert kind("curse") == "trash" and kind("estate") == "trash"
    assert kind("province") == "discard" and kind("gold") == "keep"


def test_sentry_puts_the_better_card_on_top() -> None:
    choice = decision("order", ["copper", "gold"], least=2, most=2, source="sentry")
    assert answer(choice, View()) == ["gold", "copper"]


def test_harbinger_topdecks_the_best_card_and_skips_junk() -> None:
    choice = decision("topdeck", ["copper", "gold", "estate"], source="harbinger", least=0)
    assert answer(choice, View()) == ["gold"]
    junk = decision("topdeck", ["copper", "estate"], source="harbinger", least=0)
    assert answer(junk, View()) == []


def test_vassal_plays_the_action_and_moat_is_revealed() -> None:
    for kind, source in (("play", "vassal"), ("react", "witch")):
        choice = decision(kind, [], extra=[("yes", "smithy"), ("no", "smithy")], source=source)
        assert StrongBot().choose(choice, View()) == [0]


def test_poacher_discards_the_green() -> None:
    choice = decision("discard", ["gold", "duchy", "copper"], source="poacher")
    assert answer(choice, View()) == ["duchy"]


def test_bandits_victim_loses_its_cheaper_treasure() -> None:
    choice = decision("trash", ["gold", "silver"], source="bandit")
    assert answer(choice, View()) == ["silver"]


def test_thief_takes_gold_and_silver_but_no_copper() -> None:
    choice = decision("trash", ["silver", "gold"], source="thief")
    assert answer(choice, View()) == ["gold"]
    gains = decision("gain", ["gold", "copper", "silver"], source="thief", least=0, most=3)
    assert answer(gains, View()) == ["gold", "silver"]


def test_artisan_gains_to_hand_and_topdecks_an_action_it_cannot_play() -> None:
    gain = decision("gain", ["silver", "smithy", "duchy"], source="artisan")
    assert answer(gain, View(mine={"copper": 7, "estate": 3, "smithy": 1})) == ["silver"]
    assert answer(gain, View(piles=LATE)) == ["duchy"]
    back = decision("topdeck", ["copper", "smithy", "gold"], source="artisan")
    assert answer(back, View(actions=0)) == ["smithy"]


def test_workshop_and_feast_gain_what_the_plan_wants() -> None:
    gain = decision("gain", ["copper", "silver", "smithy", "village"], source="workshop")
    assert answer(gain, View()) == ["smithy"]
    feast = decision("gain", ["silver", "duchy", "laboratory"], source="feast")
    assert answer(feast, View(piles=LATE)) == ["duchy"]


def test_spy_discards_its_own_junk_and_the_others_good_cards() -> None:
    bot = StrongBot()
    view = View(held=("spy", "copper"))
    bot.choose(phase("spy"), view)  # the next Spy card is its own

    def kind(choice: WireDecision) -> str:
        return choice.options[bot.choose(choice, view)[0]].kind
    assert kind(fate("estate", "spy")) == "discard"  # its own
    assert kind(fate("gold", "spy")) == "discard"  # the other player's
    assert kind(fate("estate", "spy")) == "keep"


def test_bureaucrats_victim_and_chancellor() -> None:
    choice = decision("topdeck", ["province", "estate"], source="bureaucrat")
    assert len(answer(choice, View())) == 1
    yes = decision("yes_no", [], extra=[("yes", None), ("no", None)], source="chancellor")
    assert StrongBot().choose(yes, View()) == [0]
