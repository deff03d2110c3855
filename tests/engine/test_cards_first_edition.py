"""Exact scenarios for the first edition's own cards and its texts of Moneylender, Mine and
Throne Room (Spy and Thief are with the Attacks)."""

from __future__ import annotations

from dominion.server.engine import DecisionKind, EventKind, Secrecy, view
from tests.engine.scenario import pick, play_action, scenario
from tests.engine.test_cards_support import (
    answer_forced,
    asked,
    events,
    moves,
    opts,
    pending,
    zones,
)

BIG_MONEY = "Big Money"  # adventurer, bureaucrat, chancellor, chapel, feast, laboratory, ...


def first(hands, **kwargs):
    return scenario(edition=1, kingdom=BIG_MONEY, hands=hands, **kwargs)


def counters(game):
    return (game.turn.actions, game.turn.buys, game.turn.coins)


# -- Moneylender, Mine, Throne Room: mandatory texts -------------------------------------


def test_moneylender_first_edition_must_trash_a_copper():
    game = first({0: ["moneylender", "copper", "estate", "copper"]})
    play_action(game, "moneylender")
    asked(game, 0, DecisionKind.BUY, None)  # no question: it is not optional
    assert game.trash == ["copper"]
    assert zones(game, 0)["hand"] == ["estate", "copper"]
    assert counters(game) == (0, 1, 3)


def test_moneylender_first_edition_without_copper_does_nothing():
    game = first({0: ["moneylender", "silver"]})
    play_action(game, "moneylender")
    assert game.trash == [] and counters(game) == (0, 1, 0)


def test_mine_first_edition_must_trash_a_treasure():
    game = first({0: ["mine", "copper", "silver", "estate"]})
    play_action(game, "mine")
    asked(game, 0, DecisionKind.TRASH, "mine", 1, 1)
    assert opts(game) == [("card", "copper"), ("card", "silver")]
    pick(game, "copper")
    asked(game, 0, DecisionKind.GAIN, "mine")
    assert sorted(c for _, c in opts(game)) == ["copper", "silver"]
    pick(game, "silver")
    assert zones(game, 0)["hand"] == ["silver", "estate", "silver"]
    assert game.trash == ["copper"]


def test_mine_first_edition_single_kind_is_forced():
    game = first({0: ["mine", "silver", "silver"]})
    play_action(game, "mine")
    assert answer_forced(game, 0, DecisionKind.TRASH, "mine") == [("card", "silver")]
    asked(game, 0, DecisionKind.GAIN, "mine")
    assert game.trash == ["silver"]
    pick(game, "gold")
    assert zones(game, 0)["hand"] == ["silver", "gold"]


def test_throne_room_first_edition_must_pick_if_it_can():
    game = first({0: ["throne_room", "laboratory", "chancellor"]},
                 decks={0: ["copper"] * 4})
    play_action(game, "throne_room")
    asked(game, 0, DecisionKind.PLAY, "throne_room", 1, 1)
    assert opts(game) == [("card", "laboratory"), ("card", "chancellor")]
    pick(game, "laboratory")
    assert zones(game, 0)["hand"] == ["chancellor"] + ["copper"] * 4
    assert counters(game) == (2, 1, 0)


def test_throne_room_first_edition_single_action_is_forced_and_none_does_nothing():
    game = first({0: ["throne_room", "laboratory", "copper"]}, decks={0: ["estate"] * 4})
    play_action(game, "throne_room")
    assert answer_forced(game, 0, DecisionKind.PLAY, "throne_room") == [("card", "laboratory")]
    asked(game, 0, DecisionKind.BUY, None)
    assert zones(game, 0)["in_play"] == ["throne_room", "laboratory"]
    assert counters(game) == (2, 1, 0)

    empty = first({0: ["throne_room", "copper"]})
    play_action(empty, "throne_room")
    assert answer_forced(empty, 0, DecisionKind.PLAY, "throne_room") == []
    asked(empty, 0, DecisionKind.BUY, None)
    assert zones(empty, 0)["hand"] == ["copper"]


# -- Feast -----------------------------------------------------------------------------


def test_feast_trashes_itself_and_gains_up_to_5():
    game = first({0: ["feast"]}, supply={"laboratory": 0})
    play_action(game, "feast")
    assert game.trash == ["feast"] and zones(game, 0)["in_play"] == []
    asked(game, 0, DecisionKind.GAIN, "feast")
    assert sorted(c for _, c in opts(game)) == sorted(
        ["copper", "silver", "estate", "duchy", "curse", "chapel", "chancellor", "bureaucrat",
         "feast", "moneylender", "throne_room", "market", "mine"])
    pick(game, "duchy")
    assert zones(game, 0)["discard"] == ["duchy"]


def test_throne_room_on_feast_trashes_once_and_gains_twice():
    game = first({0: ["throne_room", "feast"]})
    play_action(game, "throne_room")
    # Feast is the only Action: first-edition Throne Room must take it (a forced question).
    assert answer_forced(game, 0, DecisionKind.PLAY, "throne_room") == [("card", "feast")]
    asked(game, 0, DecisionKind.GAIN, "feast")
    assert game.trash == ["feast"]
    pick(game, "duchy")
    asked(game, 0, DecisionKind.GAIN, "feast")
    pick(game, "laboratory")
    z = zones(game, 0)
    assert game.trash == ["feast"]
    assert z["in_play"] == ["throne_room"]
    assert z["discard"] == ["duchy", "laboratory"]
    assert moves(game, EventKind.TRASHED) == [("trashed", 0, ("feast",), Secrecy.PUBLIC)]


# -- Chancellor ------------------------------------------------------------------------


def test_chancellor_moves_the_deck_without_revealing_it():
    game = first({0: ["chancellor"]}, decks={0: ["copper", "estate"]})
    play_action(game, "chancellor")
    asked(game, 0, DecisionKind.YES_NO, "chancellor")
    assert counters(game) == (0, 1, 2)
    pick(game, ("yes", None))
    z = zones(game, 0)
    assert z["deck"] == [] and sorted(z["discard"]) == ["copper", "estate"]
    assert game.players[0].discard_top is None
    assert view(game, 1)["players"][0]["discard_top"] is None
    assert moves(game, EventKind.DECK_TO_DISCARD) == [
        ("deck_to_discard", 0, ("copper", "estate"), Secrecy.HIDDEN)]
    assert not events(game, EventKind.DISCARDED, EventKind.REVEALED)


def test_chancellor_keeps_the_public_top_card_of_the_discard_pile():
    game = first({0: ["chancellor"]}, decks={0: ["copper", "estate"]},
                 discards={0: ["gold"]})
    play_action(game, "chancellor")
    pick(game, ("yes", None))
    assert game.players[0].discard_top == "gold"
    assert sorted(zones(game, 0)["discard"]) == ["copper", "estate", "gold"]


def test_chancellor_declined_or_with_empty_deck():
    game = first({0: ["chancellor"]}, decks={0: ["copper"]})
    play_action(game, "chancellor")
    pick(game, ("no", None))
    assert zones(game, 0)["deck"] == ["copper"] and zones(game, 0)["discard"] == []

    empty = first({0: ["chancellor"]}, discards={0: ["silver"]})
    play_action(empty, "chancellor")
    # Nothing to move, so the answer is forced; asked all the same, as only its owner
    # knows their deck's size. No shuffle.
    assert answer_forced(empty, 0, DecisionKind.YES_NO, "chancellor") == [("no", None)]
    asked(empty, 0, DecisionKind.BUY, None)
    assert zones(empty, 0)["discard"] == ["silver"]
    assert not events(empty, EventKind.SHUFFLED)


def test_gaining_onto_a_moved_deck_shows_the_new_top_card():
    game = first({0: ["village", "chancellor", "workshop"]}, decks={0: ["copper"] * 3})
    play_action(game, "village")
    play_action(game, "chancellor")
    pick(game, ("yes", None))
    assert game.players[0].discard_top is None
    play_action(game, "workshop")
    pick(game, "silver")
    assert game.players[0].discard_top == "silver"
    assert zones(game, 0)["discard"] == ["copper", "copper", "silver"]


# -- Adventurer ------------------------------------------------------------------------


def test_adventurer_reveals_until_two_treasures_and_discards_the_rest_after():
    game = first({0: ["adventurer"]},
                 decks={0: ["gold", "copper", "village", "silver", "estate"]},
                 discards={0: ["curse"]})
    play_action(game, "adventurer")
    z = zones(game, 0)
    assert z["hand"] == ["silver", "copper"]
    assert z["deck"] == ["gold"]
    assert z["discard"] == ["curse", "estate", "village"]
    assert z["set_aside"] == []
    assert [(e.kind.value, e.cards) for e in events(game, source="adventurer")] == [
        ("revealed", ("estate",)), ("revealed", ("silver",)), ("revealed", ("village",)),
        ("revealed", ("copper",)), ("put_in_hand", ("silver", "copper")),
        ("discarded", ("estate", "village")),
    ]
    assert all(e.secrecy is Secrecy.PUBLIC for e in events(game, source="adventurer"))


def test_adventurer_does_not_shuffle_revealed_cards_back_and_stops_when_out():
    game = first({0: ["adventurer"]}, decks={0: ["estate", "silver"]},
                 discards={0: ["duchy", "duchy"]})
    play_action(game, "adventurer")
    z = zones(game, 0)
    assert z["hand"] == ["silver"]
    assert z["deck"] == []
    assert z["discard"] == ["estate", "duchy", "duchy"]
    assert [e.cards for e in events(game, EventKind.SHUFFLED)] == [("duchy", "duchy")]
    assert pending(game).kind is DecisionKind.BUY
