"""Exact scenarios for the base cards and the simple Kingdom cards of both editions."""

from __future__ import annotations

import pytest

from dominion.server.engine import DecisionKind, EventKind, Secrecy
from tests.engine.scenario import end_phase, pick, play_action, scenario
from tests.engine.test_cards_support import (
    answer_forced,
    asked,
    buyable,
    events,
    moves,
    opts,
    pending,
    to_buy_phase,
    zones,
)

SIZE_DISTORTION = ["artisan", "bandit", "bureaucrat", "chapel", "festival", "gardens",
                   "sentry", "throne_room", "witch", "workshop"]
D, DR, T, G = EventKind.DISCARDED, EventKind.DREW, EventKind.TRASHED, EventKind.GAINED


def counters(game):
    return (game.turn.actions, game.turn.buys, game.turn.coins)


# -- Treasures -------------------------------------------------------------------------


def test_treasures_make_their_coins_one_at_a_time_and_all_at_once():
    game = scenario(hands={0: ["copper", "silver", "gold", "estate", "gold"]})
    assert opts(game)[:4] == [("play", "copper"), ("play", "silver"), ("play", "gold"),
                              ("play_all_treasures", None)]
    assert buyable(game) == {"copper", "curse"}
    pick(game, ("play", "silver"))
    assert counters(game) == (1, 1, 2)
    assert zones(game, 0)["in_play"] == ["silver"]
    pick(game, ("play_all_treasures", None))
    assert counters(game) == (1, 1, 9)
    assert zones(game, 0)["hand"] == ["estate"]
    assert zones(game, 0)["in_play"] == ["silver", "copper", "gold", "gold"]
    assert moves(game, EventKind.PLAYED) == [
        ("played", 0, ("silver",), Secrecy.PUBLIC),
        ("played", 0, ("copper", "gold", "gold"), Secrecy.PUBLIC),
    ]
    # No Treasure left in hand: only buys and "end" are offered.
    assert all(kind in ("buy", "end_phase") for kind, _ in opts(game))
    assert {"province", "gold", "mine"} <= buyable(game)


def test_victory_and_curse_cards_are_not_playable():
    game = scenario(hands={0: ["estate", "duchy", "province", "curse", "gardens"]},
                    kingdom=SIZE_DISTORTION)
    asked(game, 0, DecisionKind.BUY, None)
    assert opts(game) == [("buy", "copper"), ("buy", "curse"), ("end_phase", None)]


# -- Simple "+" cards ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "edition", "drawn", "expected"),
    [
        ("village", 2, 1, (2, 1, 0)),
        ("smithy", 2, 3, (0, 1, 0)),
        ("moat", 2, 2, (0, 1, 0)),
        ("festival", 2, 0, (2, 2, 2)),
        ("laboratory", 2, 2, (1, 1, 0)),
        ("market", 2, 1, (1, 2, 1)),
        ("woodcutter", 1, 0, (0, 2, 2)),
    ],
)
def test_plus_cards(card, edition, drawn, expected):
    deck = ["gold", "duchy", "silver", "estate"]
    game = scenario(edition=edition, kingdom="First Game", hands={0: [card, "copper"]},
                    decks={0: deck}, discards={0: ["curse"]})
    play_action(game, card)
    to_buy_phase(game)
    assert counters(game) == expected
    z = zones(game, 0)
    assert z["in_play"] == [card]
    assert z["hand"] == ["copper", *reversed(deck[len(deck) - drawn:])]
    assert z["deck"] == deck[:len(deck) - drawn]
    assert z["discard"] == ["curse"]
    assert not events(game, EventKind.SHUFFLED)
    if drawn:
        assert moves(game, DR) == [("drew", 0, tuple(reversed(deck[-drawn:])), Secrecy.OWNER)]


def test_smithy_shuffles_only_when_the_deck_runs_short():
    game = scenario(hands={0: ["smithy"]}, decks={0: ["gold"]},
                    discards={0: ["copper", "copper", "copper"]})
    play_action(game, "smithy")
    z = zones(game, 0)
    assert z["hand"] == ["gold", "copper", "copper"]
    assert z["deck"] == ["copper"] and z["discard"] == []
    assert [e.kind for e in events(game, DR, EventKind.SHUFFLED)] == [
        EventKind.DREW, EventKind.SHUFFLED, EventKind.DREW]
    shuffled = events(game, EventKind.SHUFFLED)[0]
    assert shuffled.cards == ("copper",) * 3 and shuffled.secrecy is Secrecy.HIDDEN


def test_smithy_draws_what_there_is_when_deck_and_discard_run_out():
    game = scenario(hands={0: ["smithy", "smithy"]}, decks={0: ["gold"]})
    play_action(game, "smithy")
    assert zones(game, 0)["hand"] == ["smithy", "gold"]
    # No Actions left: the Action phase ends although a Smithy is in hand.
    asked(game, 0, DecisionKind.BUY, None)


# -- Cellar, Chapel ----------------------------------------------------------------------


def test_cellar_discards_any_number_then_draws_that_many():
    game = scenario(hands={0: ["cellar", "estate", "copper", "estate", "silver"]},
                    decks={0: ["gold", "province", "village"]}, discards={0: ["curse"]})
    play_action(game, "cellar")
    asked(game, 0, DecisionKind.DISCARD, "cellar", 0, 4)
    assert opts(game) == [("card", "estate"), ("card", "copper"), ("card", "estate"),
                          ("card", "silver")]
    pick(game, 2, 0)
    z = zones(game, 0)
    assert z["hand"] == ["copper", "silver", "village", "province"]
    assert z["discard"] == ["curse", "estate", "estate"]
    assert z["deck"] == ["gold"]
    assert moves(game, D) == [("discarded", 0, ("estate", "estate"), Secrecy.OWNER_TOP)]
    assert counters(game) == (1, 1, 0)
    asked(game, 0, DecisionKind.PLAY_ACTION, None)


def test_cellar_discarding_nothing_draws_nothing():
    game = scenario(hands={0: ["cellar", "estate"]}, decks={0: ["gold"]})
    play_action(game, "cellar")
    pick(game)
    assert zones(game, 0)["hand"] == ["estate"]
    assert zones(game, 0)["deck"] == ["gold"]
    assert not events(game, D, DR)


def test_cellar_draw_may_shuffle_the_discarded_cards_back():
    game = scenario(hands={0: ["cellar", "estate", "estate"]})
    play_action(game, "cellar")
    pick(game, 0, 1)
    z = zones(game, 0)
    assert z["hand"] == ["estate", "estate"]
    assert z["deck"] == z["discard"] == []


def test_cellar_with_empty_hand_asks_nothing():
    game = scenario(hands={0: ["cellar"]})
    play_action(game, "cellar")
    asked(game, 0, DecisionKind.BUY, None)
    assert counters(game) == (1, 1, 0)


def test_chapel_trashes_up_to_four():
    hand = ["chapel", "copper", "estate", "copper", "estate", "silver"]
    game = scenario(hands={0: hand})
    play_action(game, "chapel")
    asked(game, 0, DecisionKind.TRASH, "chapel", 0, 4)
    assert opts(game) == [("card", c) for c in hand[1:]]
    pick(game, 0, 1, 2, 3)
    assert game.trash == ["copper", "estate", "copper", "estate"]
    assert zones(game, 0)["hand"] == ["silver"]
    assert moves(game, T) == [("trashed", 0, ("copper", "estate", "copper", "estate"),
                               Secrecy.PUBLIC)]


def test_chapel_may_trash_nothing_and_caps_at_hand_size():
    game = scenario(hands={0: ["chapel", "copper", "estate"]})
    play_action(game, "chapel")
    asked(game, 0, DecisionKind.TRASH, "chapel", 0, 2)
    pick(game)
    assert game.trash == [] and zones(game, 0)["hand"] == ["copper", "estate"]


# -- Gaining: Workshop, Remodel ------------------------------------------------------------


def gain_options(game):
    return [card for kind, card in opts(game) if kind == "card"]


def test_workshop_gains_a_card_costing_up_to_4_to_the_discard_pile():
    game = scenario(kingdom=SIZE_DISTORTION, hands={0: ["workshop"]}, discards={0: ["copper"]},
                    supply={"bureaucrat": 0})
    play_action(game, "workshop")
    asked(game, 0, DecisionKind.GAIN, "workshop")
    assert sorted(gain_options(game)) == sorted(
        ["copper", "silver", "estate", "curse", "chapel", "workshop", "gardens",
         "throne_room"])
    pick(game, "gardens")
    assert zones(game, 0)["discard"] == ["copper", "gardens"]
    assert game.supply["gardens"] == 7
    assert moves(game, G) == [("gained", 0, ("gardens",), Secrecy.PUBLIC)]
    assert events(game, G)[0].zone == "discard"


def test_workshop_gains_nothing_when_nothing_is_affordable():
    piles = dict.fromkeys(("copper", "silver", "estate", "curse", "chapel", "workshop",
                           "bureaucrat", "gardens", "throne_room"), 0)
    game = scenario(kingdom=SIZE_DISTORTION, hands={0: ["workshop"]}, supply=piles)
    play_action(game, "workshop")
    # Nothing to gain and (with 0 coins and those piles empty) nothing to buy: the turn
    # ends, and with nine empty piles so does the game, with no question asked.
    assert game.over and len(game.answers) == 1
    assert not events(game, G)


def test_remodel_trashes_then_gains_up_to_2_more():
    game = scenario(kingdom=SIZE_DISTORTION, hands={0: ["remodel", "estate", "gold", "estate"]})
    play_action(game, "remodel")
    asked(game, 0, DecisionKind.TRASH, "remodel")
    assert opts(game) == [("card", "estate"), ("card", "gold"), ("card", "estate")]
    pick(game, "estate")
    assert game.trash == ["estate"]
    asked(game, 0, DecisionKind.GAIN, "remodel")
    assert sorted(gain_options(game)) == sorted(
        ["copper", "silver", "estate", "curse", "chapel", "workshop", "bureaucrat",
         "gardens", "throne_room"])
    pick(game, "silver")
    z = zones(game, 0)
    assert z["hand"] == ["gold", "estate"] and z["discard"] == ["silver"]
    assert game.supply["silver"] == 39


def test_remodel_gold_into_province_and_forced_trash():
    game = scenario(kingdom=SIZE_DISTORTION, hands={0: ["remodel", "gold", "gold"]})
    play_action(game, "remodel")
    # Both cards in hand are Golds: the trash is forced, and asked as such (only the
    # player knows that their hand is all Golds).
    assert answer_forced(game, 0, DecisionKind.TRASH, "remodel") == [("card", "gold")]
    asked(game, 0, DecisionKind.GAIN, "remodel")
    assert "province" in gain_options(game)
    pick(game, "province")
    assert game.trash == ["gold"]
    assert zones(game, 0)["discard"] == ["province"] and game.supply["province"] == 7


def test_remodel_with_empty_hand_does_nothing():
    game = scenario(hands={0: ["remodel"]})
    play_action(game, "remodel")
    assert pending(game).kind is DecisionKind.BUY
    assert game.trash == []


# -- Council Room ------------------------------------------------------------------------


def test_council_room_others_draw_one_each_privately_in_turn_order():
    game = scenario(players=3, seat=1, kingdom="Deck Top", hands={1: ["council_room"]},
                    decks={0: ["estate", "silver"], 1: ["copper"] * 5, 2: []},
                    discards={2: ["gold"]})
    play_action(game, "council_room")
    assert counters(game) == (0, 2, 0)
    assert zones(game, 1)["hand"] == ["copper"] * 4
    assert zones(game, 2)["hand"] == ["gold"]
    assert zones(game, 0)["hand"] == ["silver"]
    assert zones(game, 0)["deck"] == ["estate"]
    assert moves(game, DR) == [
        ("drew", 1, ("copper",) * 4, Secrecy.OWNER),
        ("drew", 2, ("gold",), Secrecy.OWNER),
        ("drew", 0, ("silver",), Secrecy.OWNER),
    ]


# -- Library ---------------------------------------------------------------------------


def test_library_asks_per_action_and_discards_set_aside_cards_after():
    deck = ["duchy", "gold", "estate", "silver", "smithy", "copper", "village"]
    game = scenario(hands={0: ["library", "copper", "copper"]}, decks={0: deck},
                    discards={0: ["curse"]})
    play_action(game, "library")
    asked(game, 0, DecisionKind.SET_ASIDE, "library")
    assert opts(game) == [("yes", "village"), ("no", "village")]
    pick(game, ("yes", "village"))
    assert zones(game, 0)["set_aside"] == ["village"]
    # The player still holds an Action (Smithy, in the deck): every card drawn is asked
    # about, so that the others cannot tell which were Actions; a Copper's is forced.
    assert answer_forced(game, 0, DecisionKind.SET_ASIDE, "library") == [("no", "copper")]
    asked(game, 0, DecisionKind.SET_ASIDE, "library")
    assert opts(game) == [("yes", "smithy"), ("no", "smithy")]
    pick(game, ("no", "smithy"))
    for card in ("silver", "estate", "gold"):  # Smithy, in hand, is still an Action held
        assert answer_forced(game, 0, DecisionKind.SET_ASIDE, "library") == [("no", card)]
    z = zones(game, 0)
    assert z["hand"] == ["copper", "copper", "copper", "smithy", "silver", "estate", "gold"]
    assert z["deck"] == ["duchy"]
    assert z["set_aside"] == []
    assert z["discard"] == ["curse", "village"]
    assert moves(game, EventKind.SET_ASIDE, D) == [
        ("set_aside", 0, ("village",), Secrecy.PUBLIC),
        ("discarded", 0, ("village",), Secrecy.PUBLIC),
    ]


def test_library_stops_when_deck_and_discard_are_empty():
    game = scenario(hands={0: ["library", "estate"]}, decks={0: ["copper", "silver"]})
    play_action(game, "library")
    assert zones(game, 0)["hand"] == ["estate", "silver", "copper"]
    assert pending(game).kind is DecisionKind.BUY


def test_library_set_aside_cards_are_not_shuffled_in_midway():
    game = scenario(hands={0: ["library", "copper", "copper", "copper", "copper"]},
                    decks={0: ["village"]}, discards={0: ["silver", "silver", "silver"]})
    play_action(game, "library")
    pick(game, ("yes", "village"))
    z = zones(game, 0)
    assert z["hand"] == ["copper"] * 4 + ["silver"] * 3
    assert z["deck"] == [] and z["discard"] == ["village"]
    assert events(game, EventKind.SHUFFLED)[0].cards == ("silver",) * 3


def test_library_with_seven_cards_draws_nothing_and_set_aside_does_not_count():
    game = scenario(hands={0: ["library", "village"] + ["copper"] * 5},
                    decks={0: ["gold", "smithy"]})
    play_action(game, "library")
    asked(game, 0, DecisionKind.SET_ASIDE, "library")  # hand was 6: one more draw
    pick(game, ("yes", "smithy"))
    assert answer_forced(game, 0, DecisionKind.SET_ASIDE, "library") == [("no", "gold")]
    z = zones(game, 0)
    assert z["hand"] == ["village"] + ["copper"] * 5 + ["gold"]
    assert z["discard"] == ["smithy"]

    full = scenario(hands={0: ["library"] + ["copper"] * 7}, decks={0: ["gold"]})
    play_action(full, "library")
    assert zones(full, 0)["deck"] == ["gold"] and not events(full, DR)


# -- Second-edition texts of Moneylender, Mine, Throne Room --------------------------------


def test_moneylender_may_trash_a_copper_for_3():
    game = scenario(kingdom="Deck Top", hands={0: ["moneylender", "copper", "estate", "copper"]})
    play_action(game, "moneylender")
    asked(game, 0, DecisionKind.TRASH, "moneylender")
    assert opts(game) == [("yes", "copper"), ("no", "copper")]
    pick(game, ("yes", "copper"))
    assert game.trash == ["copper"]
    assert zones(game, 0)["hand"] == ["estate", "copper"]
    assert counters(game) == (0, 1, 3)


def test_moneylender_declined_or_without_copper():
    game = scenario(kingdom="Deck Top", hands={0: ["moneylender", "copper"]})
    play_action(game, "moneylender")
    pick(game, ("no", "copper"))
    assert game.trash == [] and counters(game) == (0, 1, 0)
    assert zones(game, 0)["hand"] == ["copper"]

    none = scenario(kingdom="Deck Top", hands={0: ["moneylender", "silver"]})
    play_action(none, "moneylender")
    # Asked with or without a Copper, so that the question says nothing of the hand.
    assert answer_forced(none, 0, DecisionKind.TRASH, "moneylender") == [("no", "copper")]
    asked(none, 0, DecisionKind.BUY, None)
    assert counters(none) == (0, 1, 0)


def test_mine_may_trash_a_treasure_and_gains_one_into_hand():
    game = scenario(hands={0: ["mine", "copper", "estate", "silver"]}, supply={"gold": 1})
    play_action(game, "mine")
    asked(game, 0, DecisionKind.TRASH, "mine", 0, 1)
    assert opts(game) == [("card", "copper"), ("card", "silver")]
    pick(game, "silver")
    asked(game, 0, DecisionKind.GAIN, "mine")
    assert sorted(gain_options(game)) == ["copper", "gold", "silver"]
    pick(game, "gold")
    z = zones(game, 0)
    assert z["hand"] == ["copper", "estate", "gold"]
    assert z["discard"] == []
    assert game.trash == ["silver"] and game.supply["gold"] == 0
    gained = events(game, G)
    assert [(e.cards, e.zone, e.secrecy) for e in gained] == [(("gold",), "hand",
                                                               Secrecy.PUBLIC)]


def test_mine_cost_cap_and_declining():
    game = scenario(hands={0: ["mine", "copper"]}, supply={"silver": 0})
    play_action(game, "mine")
    asked(game, 0, DecisionKind.TRASH, "mine", 0, 1)
    pick(game, "copper")
    # Only Copper (cost 0) is left at most 3 with Silver gone: forced, not asked.
    assert pending(game).kind is DecisionKind.BUY
    assert zones(game, 0)["hand"] == ["copper"] and game.trash == ["copper"]

    declined = scenario(hands={0: ["mine", "copper"]})
    play_action(declined, "mine")
    pick(declined)
    assert zones(declined, 0)["hand"] == ["copper"] and declined.trash == []


def test_throne_room_second_edition_is_optional():
    game = scenario(kingdom=SIZE_DISTORTION, hands={0: ["throne_room", "village", "copper"]})
    play_action(game, "throne_room")
    asked(game, 0, DecisionKind.PLAY, "throne_room", 0, 1)
    assert opts(game) == [("card", "village")]
    pick(game)
    assert zones(game, 0)["hand"] == ["village", "copper"]
    assert counters(game) == (0, 1, 0)


def test_throne_room_with_no_action_does_nothing_in_second_edition():
    game = scenario(kingdom=SIZE_DISTORTION, hands={0: ["throne_room", "copper"]})
    play_action(game, "throne_room")
    assert answer_forced(game, 0, DecisionKind.PLAY, "throne_room") == []  # nothing to pick
    asked(game, 0, DecisionKind.BUY, None)
    assert zones(game, 0)["in_play"] == ["throne_room"]


def test_throne_room_plays_a_card_twice_without_using_actions():
    game = scenario(kingdom=SIZE_DISTORTION, hands={0: ["throne_room", "smithy", "village"]},
                    decks={0: ["copper"] * 7})
    play_action(game, "throne_room")
    pick(game, "smithy")
    z = zones(game, 0)
    assert z["in_play"] == ["throne_room", "smithy"]
    assert z["hand"] == ["village"] + ["copper"] * 6 and z["deck"] == ["copper"]
    assert counters(game) == (0, 1, 0)
    played = events(game, EventKind.PLAYED)
    assert [(e.cards, e.source) for e in played] == [
        (("throne_room",), None), (("smithy",), "throne_room"), (("smithy",), "throne_room")]


def test_throne_room_on_throne_room_plays_two_actions_twice_each():
    game = scenario(kingdom=SIZE_DISTORTION,
                    hands={0: ["throne_room", "throne_room", "smithy", "village"]},
                    decks={0: ["copper"] * 10})
    play_action(game, "throne_room")
    assert opts(game) == [("card", "throne_room"), ("card", "smithy"), ("card", "village")]
    pick(game, "throne_room")
    asked(game, 0, DecisionKind.PLAY, "throne_room", 0, 1)
    assert opts(game) == [("card", "smithy"), ("card", "village")]
    pick(game, "smithy")
    asked(game, 0, DecisionKind.PLAY, "throne_room", 0, 1)
    assert opts(game) == [("card", "village")]
    pick(game, "village")
    z = zones(game, 0)
    assert z["in_play"] == ["throne_room", "throne_room", "smithy", "village"]
    assert z["hand"] == ["copper"] * 8 and z["deck"] == ["copper"] * 2
    assert counters(game) == (4, 1, 0)


def test_end_phase_leaves_actions_unplayed():
    game = scenario(hands={0: ["village", "copper"]})
    end_phase(game)
    asked(game, 0, DecisionKind.BUY, None)
    assert zones(game, 0)["hand"] == ["village", "copper"]
