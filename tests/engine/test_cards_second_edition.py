"""Exact scenarios for the second edition's own cards (Bandit is with the Attacks)."""

from __future__ import annotations

from dominion.server.engine import DecisionKind, EventKind, Game, Secrecy, visible_event
from tests.engine.scenario import pick, play_action, scenario
from tests.engine.test_cards_support import (
    answer_forced,
    asked,
    events,
    moves,
    opts,
    pending,
    to_buy_phase,
    zones,
)

DECK_TOP = "Deck Top"  # artisan, bureaucrat, council_room, festival, harbinger, ...
IMPROVEMENTS = "Improvements"  # artisan, cellar, market, merchant, mine, moat, ..., poacher
SIZE_DISTORTION = "Size Distortion"


def counters(game):
    return (game.turn.actions, game.turn.buys, game.turn.coins)


# -- Harbinger -------------------------------------------------------------------------


def test_harbinger_puts_a_card_from_the_discard_pile_onto_the_deck_privately():
    game = scenario(kingdom=DECK_TOP, hands={0: ["harbinger"]}, decks={0: ["copper", "estate"]},
                    discards={0: ["gold", "silver"]})
    play_action(game, "harbinger")
    asked(game, 0, DecisionKind.TOPDECK, "harbinger", 0, 1)
    assert opts(game) == [("card", "gold"), ("card", "silver")]
    assert zones(game, 0)["hand"] == ["estate"]
    assert counters(game) == (1, 1, 0)
    pick(game, "gold")
    z = zones(game, 0)
    assert z["deck"] == ["copper", "gold"] and z["discard"] == ["silver"]
    assert moves(game, EventKind.PUT_ON_DECK) == [("put_on_deck", 0, ("gold",), Secrecy.OWNER)]


def test_harbinger_takes_the_copy_picked_and_tells_the_new_top():
    game = scenario(kingdom=DECK_TOP, hands={0: ["harbinger"]}, decks={0: ["copper", "estate"]},
                    discards={0: ["silver", "gold", "silver"]})
    play_action(game, "harbinger")
    pick(game, 2)  # the top Silver, not the lowest one
    assert zones(game, 0)["discard"] == ["silver", "gold"]
    taken = events(game, EventKind.PUT_ON_DECK)[-1]
    assert taken.data == {"index": 2, "discard_top": "gold"}
    # everyone sees the card it uncovered; only the owner, where the copy was
    assert visible_event(taken, 1) == visible_event(taken, None) == {
        "kind": "put_on_deck", "player": 0, "count": 1, "source": "harbinger",
        "zone": "discard", "data": {"discard_top": "gold"}}
    assert visible_event(taken, 0)["data"] == {"index": 2, "discard_top": "gold"}


def test_harbinger_in_a_game_stored_before_discard_tops_takes_the_lowest_copy_untold():
    game = scenario(kingdom=DECK_TOP, hands={0: ["harbinger"]}, decks={0: ["copper", "estate"]},
                    discards={0: ["silver", "gold", "silver"]}, discard_tops=False)
    play_action(game, "harbinger")
    pick(game, 2)
    assert zones(game, 0)["discard"] == ["gold", "silver"]
    assert events(game, EventKind.PUT_ON_DECK)[-1].data is None


def test_harbinger_may_decline():
    game = scenario(kingdom=DECK_TOP, hands={0: ["harbinger"]}, decks={0: ["copper"]},
                    discards={0: ["gold"]})
    play_action(game, "harbinger")
    asked(game, 0, DecisionKind.TOPDECK, "harbinger", 0, 1)
    pick(game)
    z = zones(game, 0)
    assert z["deck"] == [] and z["discard"] == ["gold"] and z["hand"] == ["copper"]
    assert not events(game, EventKind.PUT_ON_DECK)


def test_harbinger_draw_shuffles_first_leaving_nothing_to_look_through():
    game = scenario(kingdom=DECK_TOP, hands={0: ["harbinger"]},
                    discards={0: ["silver", "silver"]})
    play_action(game, "harbinger")
    z = zones(game, 0)
    assert z["hand"] == ["silver"] and z["deck"] == ["silver"] and z["discard"] == []
    asked(game, 0, DecisionKind.BUY, None)  # no Harbinger question: the pile is empty


# -- Merchant --------------------------------------------------------------------------


def test_merchant_gives_one_coin_on_the_first_silver_only():
    game = scenario(kingdom=IMPROVEMENTS, hands={0: ["merchant", "silver", "silver"]},
                    decks={0: ["copper"]})
    play_action(game, "merchant")
    assert counters(game) == (1, 1, 0)
    to_buy_phase(game)
    pick(game, ("play", "copper"))
    assert game.turn.coins == 1
    pick(game, ("play", "silver"))
    assert game.turn.coins == 4
    pick(game, ("play", "silver"))
    assert game.turn.coins == 6


def test_two_merchants_and_play_all():
    game = scenario(kingdom=IMPROVEMENTS,
                    hands={0: ["merchant", "merchant", "silver", "silver", "gold"]},
                    decks={0: ["estate", "estate"]})
    play_action(game, "merchant")
    play_action(game, "merchant")
    to_buy_phase(game)
    pick(game, ("play_all_treasures", None))
    assert game.turn.coins == 2 + 2 + 3 + 2


def test_merchant_without_silver_gives_nothing():
    game = scenario(kingdom=IMPROVEMENTS, hands={0: ["merchant", "gold"]}, decks={0: ["copper"]})
    play_action(game, "merchant")
    to_buy_phase(game)
    pick(game, ("play_all_treasures", None))
    assert game.turn.coins == 4


def test_throne_room_on_merchant_first_silver_gives_two_second_nothing():
    game = scenario(kingdom=["throne_room", "merchant", "cellar", "chapel", "moat", "village",
                             "workshop", "smithy", "market", "mine"],
                    hands={0: ["throne_room", "merchant", "silver", "silver"]},
                    decks={0: ["copper", "copper"]})
    play_action(game, "throne_room")
    pick(game, "merchant")
    assert counters(game) == (2, 1, 0)
    to_buy_phase(game)
    pick(game, ("play", "silver"))
    assert game.turn.coins == 4
    pick(game, ("play", "silver"))
    assert game.turn.coins == 6


# -- Vassal ----------------------------------------------------------------------------


def test_vassal_plays_the_discarded_action_without_using_an_action():
    game = scenario(kingdom=DECK_TOP, hands={0: ["vassal"]}, decks={0: ["copper", "village"]},
                    discards={0: ["estate"]})
    play_action(game, "vassal")
    asked(game, 0, DecisionKind.PLAY, "vassal")
    assert opts(game) == [("yes", "village"), ("no", "village")]
    assert zones(game, 0)["discard"] == ["estate", "village"]
    assert moves(game, EventKind.DISCARDED) == [("discarded", 0, ("village",), Secrecy.PUBLIC)]
    pick(game, ("yes", "village"))
    z = zones(game, 0)
    assert z["in_play"] == ["vassal", "village"]
    assert z["discard"] == ["estate"]
    assert z["hand"] == ["copper"]
    assert counters(game) == (2, 1, 2)
    played = events(game, EventKind.PLAYED)[-1]
    assert (played.cards, played.zone, played.source) == (("village",), "discard", "vassal")
    assert played.data == {"discard_top": "estate"}  # the card it uncovered


def test_vassal_card_not_played_stays_discarded():
    game = scenario(kingdom=DECK_TOP, hands={0: ["vassal"]}, decks={0: ["smithy"]})
    play_action(game, "vassal")
    pick(game, ("no", "smithy"))
    z = zones(game, 0)
    assert z["discard"] == ["smithy"] and z["in_play"] == ["vassal"] and z["hand"] == []
    assert counters(game) == (0, 1, 2)


def test_vassal_discards_a_non_action_without_asking():
    game = scenario(kingdom=DECK_TOP, hands={0: ["vassal"]}, decks={0: ["gold", "estate"]})
    play_action(game, "vassal")
    asked(game, 0, DecisionKind.BUY, None)
    assert zones(game, 0)["discard"] == ["estate"] and zones(game, 0)["deck"] == ["gold"]
    assert counters(game) == (0, 1, 2)


def test_vassal_shuffles_when_the_deck_is_empty():
    game = scenario(kingdom=DECK_TOP, hands={0: ["vassal"]}, discards={0: ["festival"]})
    play_action(game, "vassal")
    assert [e.kind for e in events(game, EventKind.SHUFFLED, EventKind.DISCARDED)] == [
        EventKind.SHUFFLED, EventKind.DISCARDED]
    pick(game, ("yes", "festival"))
    assert counters(game) == (2, 2, 4)
    assert zones(game, 0)["in_play"] == ["vassal", "festival"]
    assert zones(game, 0)["discard"] == [] and zones(game, 0)["deck"] == []


def test_vassal_with_nothing_to_discard():
    game = scenario(kingdom=DECK_TOP, hands={0: ["vassal"]})
    play_action(game, "vassal")
    asked(game, 0, DecisionKind.BUY, None)
    assert not events(game, EventKind.DISCARDED)
    assert counters(game) == (0, 1, 2)


# -- Poacher ---------------------------------------------------------------------------


def test_poacher_discards_one_card_per_empty_supply_pile():
    game = scenario(kingdom=IMPROVEMENTS, hands={0: ["poacher", "copper", "estate", "silver"]},
                    decks={0: ["gold"]}, supply={"curse": 0, "moat": 0})
    play_action(game, "poacher")
    asked(game, 0, DecisionKind.DISCARD, "poacher", 2, 2)
    assert opts(game) == [("card", "copper"), ("card", "estate"), ("card", "silver"),
                          ("card", "gold")]
    assert counters(game) == (1, 1, 1)
    pick(game, "estate", "copper")
    z = zones(game, 0)
    assert z["hand"] == ["silver", "gold"] and z["discard"] == ["estate", "copper"]
    assert moves(game, EventKind.DISCARDED) == [
        ("discarded", 0, ("estate", "copper"), Secrecy.OWNER_TOP)]


def test_poacher_with_no_empty_pile_discards_nothing():
    game = scenario(kingdom=IMPROVEMENTS, hands={0: ["poacher", "copper"]}, decks={0: ["gold"]})
    play_action(game, "poacher")
    asked(game, 0, DecisionKind.BUY, None)
    assert zones(game, 0)["hand"] == ["copper", "gold"]


def test_poacher_discards_the_whole_hand_when_it_is_smaller():
    game = scenario(kingdom=IMPROVEMENTS, hands={0: ["poacher", "estate"]},
                    decks={0: ["copper"]}, supply={"curse": 0, "moat": 0, "cellar": 0})
    play_action(game, "poacher")
    # Three empty piles, two cards: both go, nothing to choose.
    assert pending(game).kind is DecisionKind.BUY
    assert zones(game, 0)["hand"] == []
    assert zones(game, 0)["discard"] == ["estate", "copper"]


def test_poacher_counts_empty_piles_when_it_resolves():
    # Played before the Workshop empties the Cellar pile, Poacher sees no empty pile.
    game = scenario(kingdom=["throne_room", "poacher", "workshop", "cellar", "chapel",
                             "moat", "village", "smithy", "market", "mine"],
                    hands={0: ["village", "workshop", "poacher", "copper", "estate"]},
                    decks={0: ["silver", "silver"]}, supply={"cellar": 1})
    play_action(game, "village")
    play_action(game, "poacher")
    asked(game, 0, DecisionKind.PLAY_ACTION, None)  # no empty pile yet
    play_action(game, "workshop")
    pick(game, "cellar")
    assert game.supply["cellar"] == 0
    # An Action is left to play, and the player owns one (the Cellar just gained): the
    # Action phase goes on asking, forced, as for a hand that might hold it.
    answer_forced(game, 0, DecisionKind.PLAY_ACTION, None)
    asked(game, 0, DecisionKind.BUY, None)
    assert zones(game, 0)["hand"] == ["copper", "estate", "silver", "silver"]


def test_poacher_after_a_pile_emptied_this_turn():
    game = scenario(kingdom=["poacher", "workshop", "cellar", "chapel", "moat", "village",
                             "smithy", "market", "mine", "throne_room"],
                    hands={0: ["village", "workshop", "poacher", "estate", "estate"]},
                    decks={0: ["silver", "silver"]}, supply={"cellar": 1})
    play_action(game, "village")
    play_action(game, "workshop")
    pick(game, "cellar")
    play_action(game, "poacher")
    asked(game, 0, DecisionKind.DISCARD, "poacher", 1, 1)
    pick(game, "silver")
    assert zones(game, 0)["hand"] == ["estate", "estate", "silver"]
    assert zones(game, 0)["discard"] == ["cellar", "silver"]


# -- Sentry ----------------------------------------------------------------------------


def test_sentry_trash_and_keep():
    game = scenario(kingdom=SIZE_DISTORTION, hands={0: ["sentry"]},
                    decks={0: ["gold", "copper", "estate", "silver"]})
    play_action(game, "sentry")
    assert zones(game, 0)["hand"] == ["silver"]
    assert moves(game, EventKind.LOOKED_AT) == [
        ("looked_at", 0, ("estate", "copper"), Secrecy.OWNER)]
    asked(game, 0, DecisionKind.CHOOSE_FATE, "sentry")
    assert opts(game) == [("trash", "estate"), ("discard", "estate"), ("keep", "estate")]
    pick(game, ("trash", "estate"))
    assert opts(game) == [("trash", "copper"), ("discard", "copper"), ("keep", "copper")]
    pick(game, ("keep", "copper"))
    # One card kept: no order to choose.
    asked(game, 0, DecisionKind.BUY, None)
    z = zones(game, 0)
    assert z["deck"] == ["gold", "copper"] and game.trash == ["estate"]
    assert z["discard"] == [] and game.players[0].looking == []
    assert counters(game) == (1, 1, 0)
    assert moves(game, EventKind.PUT_ON_DECK) == [
        ("put_on_deck", 0, ("copper",), Secrecy.OWNER)]


def sentry_keeping_estate_and_copper() -> Game:
    """Sentry has looked at Estate and Copper and kept both: the order is asked next."""
    game = scenario(kingdom=SIZE_DISTORTION, hands={0: ["sentry"]},
                    decks={0: ["gold", "copper", "estate", "silver"]})
    play_action(game, "sentry")
    pick(game, ("keep", "estate"))
    pick(game, ("keep", "copper"))
    return game


def test_sentry_put_back_order_first_chosen_ends_on_top():
    game = sentry_keeping_estate_and_copper()
    decision = asked(game, 0, DecisionKind.ORDER, "sentry", 2, 2)
    assert decision.ordered
    assert opts(game) == [("card", "estate"), ("card", "copper")]
    pick(game, 1, 0)  # Copper first: Copper on top
    assert zones(game, 0)["deck"] == ["gold", "estate", "copper"]
    assert moves(game, EventKind.PUT_ON_DECK) == [
        ("put_on_deck", 0, ("estate", "copper"), Secrecy.OWNER)]


def test_sentry_put_back_order_other_way():
    game = sentry_keeping_estate_and_copper()
    pick(game, 0, 1)  # Estate first: Estate on top
    assert zones(game, 0)["deck"] == ["gold", "copper", "estate"]


def test_sentry_discards_both():
    game = scenario(kingdom=SIZE_DISTORTION, hands={0: ["sentry"]},
                    decks={0: ["gold", "copper", "estate", "silver"]})
    play_action(game, "sentry")
    pick(game, ("discard", "estate"))
    pick(game, ("discard", "copper"))
    z = zones(game, 0)
    assert z["discard"] == ["estate", "copper"] and z["deck"] == ["gold"]
    assert moves(game, EventKind.DISCARDED) == [
        ("discarded", 0, ("estate", "copper"), Secrecy.OWNER_TOP)]


def test_sentry_shuffles_only_when_the_deck_runs_short():
    game = scenario(kingdom=SIZE_DISTORTION, hands={0: ["sentry"]},
                    decks={0: ["copper", "silver"]}, discards={0: ["gold", "gold"]})
    play_action(game, "sentry")
    assert [e.kind for e in events(game, EventKind.DREW, EventKind.SHUFFLED,
                                   EventKind.LOOKED_AT)] == [
        EventKind.DREW, EventKind.SHUFFLED, EventKind.LOOKED_AT]
    assert moves(game, EventKind.LOOKED_AT)[0][2] == ("copper", "gold")
    pick(game, ("keep", "copper"))
    pick(game, ("keep", "gold"))
    pick(game, 0, 1)
    assert zones(game, 0)["deck"] == ["gold", "gold", "copper"]
    assert zones(game, 0)["discard"] == []


def test_sentry_with_one_card_left():
    game = scenario(kingdom=SIZE_DISTORTION, hands={0: ["sentry"]}, decks={0: ["estate"]},
                    discards={0: ["curse"]})
    play_action(game, "sentry")
    assert zones(game, 0)["hand"] == ["estate"]
    assert opts(game) == [("trash", "curse"), ("discard", "curse"), ("keep", "curse")]
    pick(game, ("trash", "curse"))
    assert game.trash == ["curse"] and zones(game, 0)["deck"] == []


# -- Artisan ---------------------------------------------------------------------------


def test_artisan_gains_to_hand_then_puts_a_card_onto_the_deck():
    game = scenario(kingdom=SIZE_DISTORTION, hands={0: ["artisan", "copper", "estate"]},
                    decks={0: ["gold"]}, supply={"witch": 0})
    play_action(game, "artisan")
    asked(game, 0, DecisionKind.GAIN, "artisan")
    assert sorted(c for _, c in opts(game)) == sorted(
        ["copper", "silver", "estate", "duchy", "curse", "chapel", "workshop", "bureaucrat",
         "gardens", "throne_room", "bandit", "festival", "sentry"])
    pick(game, "duchy")
    assert zones(game, 0)["hand"] == ["copper", "estate", "duchy"]
    asked(game, 0, DecisionKind.TOPDECK, "artisan")
    assert opts(game) == [("card", "copper"), ("card", "estate"), ("card", "duchy")]
    pick(game, "duchy")
    z = zones(game, 0)
    assert z["hand"] == ["copper", "estate"] and z["deck"] == ["gold", "duchy"]
    assert z["discard"] == []
    gained = events(game, EventKind.GAINED)
    assert [(e.cards, e.zone, e.secrecy) for e in gained] == [(("duchy",), "hand",
                                                               Secrecy.PUBLIC)]
    assert moves(game, EventKind.PUT_ON_DECK) == [("put_on_deck", 0, ("duchy",), Secrecy.OWNER)]


def test_artisan_must_put_back_the_only_card():
    game = scenario(kingdom=SIZE_DISTORTION, hands={0: ["artisan"]})
    play_action(game, "artisan")
    pick(game, "silver")
    # The gained Silver is the only card in hand: it must go back, unasked.
    assert zones(game, 0)["hand"] == [] and zones(game, 0)["deck"] == ["silver"]
