"""Exact scenarios for Moat and the Attacks of both editions."""

from __future__ import annotations

from dominion.server.engine import DecisionKind, EventKind, Secrecy, visible_event
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

FIRST_GAME = "First Game"  # militia, moat, ...
SIZE_DISTORTION = "Size Distortion"  # bandit, bureaucrat, witch, ...
INTERACTION = "Interaction"  # edition 1: bureaucrat, militia, moat, spy, thief, ...
G, D, R = EventKind.GAINED, EventKind.DISCARDED, EventKind.REVEALED


# -- Moat ------------------------------------------------------------------------------


def test_moat_is_optional_asked_before_the_attack_and_protects_only_its_owner():
    five = ["copper", "copper", "estate", "estate", "silver"]
    game = scenario(players=3, hands={0: ["militia"], 1: ["moat", *five[1:]], 2: list(five)})
    play_action(game, "militia")
    asked(game, 1, DecisionKind.REACT, "militia")
    assert opts(game) == [("yes", "moat"), ("no", "moat")]
    assert game.turn.coins == 0  # nothing of the Attack has happened yet
    pick(game, ("yes", "moat"))
    assert moves(game, EventKind.REACTED) == [("reacted", 1, ("moat",), Secrecy.PUBLIC)]
    asked(game, 2, DecisionKind.DISCARD, "militia", 2, 2)
    pick(game, "estate", "estate")
    assert zones(game, 1)["hand"] == ["moat", *five[1:]]
    assert zones(game, 2)["hand"] == ["copper", "copper", "silver"]
    assert game.turn.coins == 2


def test_moat_declined_leaves_its_owner_attacked():
    game = scenario(hands={0: ["militia"], 1: ["moat", "copper", "copper", "estate"]})
    play_action(game, "militia")
    pick(game, ("no", "moat"))
    asked(game, 1, DecisionKind.DISCARD, "militia", 1, 1)
    pick(game, "moat")
    assert zones(game, 1)["hand"] == ["copper", "copper", "estate"]
    assert zones(game, 1)["discard"] == ["moat"]
    assert not events(game, EventKind.REACTED)


def test_moat_does_not_stop_the_attackers_own_part_of_witch():
    game = scenario(kingdom=["witch", "moat", "cellar", "chapel", "village", "workshop",
                             "smithy", "market", "mine", "militia"],
                    hands={0: ["witch"], 1: ["moat"]}, decks={0: ["gold", "silver"]})
    play_action(game, "witch")
    asked(game, 1, DecisionKind.REACT, "witch")
    assert zones(game, 0)["hand"] == []  # the Moat question comes first
    pick(game, ("yes", "moat"))
    assert zones(game, 0)["hand"] == ["silver", "gold"]
    assert zones(game, 1)["discard"] == [] and game.supply["curse"] == 10
    assert not events(game, G)


def test_moat_is_asked_for_each_play_of_a_throne_roomed_attack():
    game = scenario(players=2, kingdom=SIZE_DISTORTION,
                    hands={0: ["throne_room", "witch"], 1: ["moat"]},
                    decks={0: ["copper"] * 4})
    play_action(game, "throne_room")
    pick(game, "witch")
    asked(game, 1, DecisionKind.REACT, "witch")
    pick(game, ("no", "moat"))
    asked(game, 1, DecisionKind.REACT, "witch")
    pick(game, ("yes", "moat"))
    assert zones(game, 1)["discard"] == ["curse"]
    assert game.supply["curse"] == 9
    assert zones(game, 0)["hand"] == ["copper"] * 4


def test_moat_in_the_attackers_hand_is_not_asked_and_a_forced_discard_still_is():
    game = scenario(hands={0: ["militia", "moat"], 1: ["copper"] * 4})
    play_action(game, "militia")
    # Player 1 owns no Moat: no reaction. Four Coppers make the discard forced, but only
    # player 1 knows that, so it is asked (forced) as any four-card hand's would be.
    assert answer_forced(game, 1, DecisionKind.DISCARD, "militia") == [("card", "copper")]
    asked(game, 0, DecisionKind.BUY, None)
    assert zones(game, 1)["hand"] == ["copper"] * 3


def test_whoever_owns_a_moat_out_of_sight_is_asked_to_react_moat_in_hand_or_not():
    game = scenario(players=3, hands={0: ["militia"], 1: ["copper"] * 3, 2: ["estate"] * 3},
                    decks={1: ["moat"]})
    play_action(game, "militia")
    # Seat 1's Moat is in its deck: asked anyway, forced "no"; seat 2 owns none: not asked.
    assert answer_forced(game, 1, DecisionKind.REACT, "militia") == [("no", "moat")]
    asked(game, 0, DecisionKind.BUY, None)
    assert not events(game, EventKind.REACTED)


# -- Militia ---------------------------------------------------------------------------


def test_militia_victims_choose_in_turn_order_and_three_cards_do_nothing():
    game = scenario(players=4, seat=2,
                    hands={2: ["militia"], 3: ["copper", "estate", "silver", "gold"],
                           0: ["copper", "copper", "copper"],
                           1: ["estate", "duchy", "copper", "curse", "silver"]})
    play_action(game, "militia")
    asked(game, 3, DecisionKind.DISCARD, "militia", 1, 1)
    assert opts(game) == [("card", c) for c in ["copper", "estate", "silver", "gold"]]
    pick(game, "estate")
    asked(game, 1, DecisionKind.DISCARD, "militia", 2, 2)
    pick(game, "curse", "estate")
    assert zones(game, 3)["hand"] == ["copper", "silver", "gold"]
    assert zones(game, 0)["hand"] == ["copper"] * 3
    assert zones(game, 1)["hand"] == ["duchy", "copper", "silver"]
    assert zones(game, 1)["discard"] == ["curse", "estate"]
    assert moves(game, D) == [
        ("discarded", 3, ("estate",), Secrecy.PUBLIC),
        ("discarded", 1, ("curse", "estate"), Secrecy.OWNER_TOP),
    ]
    assert game.turn.coins == 2


# -- Bureaucrat ------------------------------------------------------------------------


def test_bureaucrat_silver_onto_deck_victim_chooses_or_reveals_hand():
    game = scenario(players=3, kingdom=SIZE_DISTORTION,
                    hands={0: ["bureaucrat"], 1: ["estate", "copper", "duchy"],
                           2: ["copper", "silver"]},
                    decks={0: ["copper"], 1: ["gold"]}, discards={0: ["estate"]})
    play_action(game, "bureaucrat")
    assert zones(game, 0)["deck"] == ["copper", "silver"]
    assert zones(game, 0)["discard"] == ["estate"]
    assert game.supply["silver"] == 39
    gained = events(game, G)
    assert [(e.player, e.cards, e.zone) for e in gained] == [(0, ("silver",), "deck")]
    asked(game, 1, DecisionKind.TOPDECK, "bureaucrat")
    assert opts(game) == [("card", "estate"), ("card", "duchy")]
    pick(game, "duchy")
    # A hand without Victory cards is asked too (nothing to choose), so that being asked
    # says nothing about the hand; the answer reveals it.
    assert answer_forced(game, 2, DecisionKind.TOPDECK, "bureaucrat") == []
    assert zones(game, 1)["deck"] == ["gold", "duchy"]
    assert zones(game, 1)["hand"] == ["estate", "copper"]
    assert zones(game, 2)["hand"] == ["copper", "silver"]
    assert moves(game, R, EventKind.PUT_ON_DECK) == [
        ("revealed", 1, ("duchy",), Secrecy.PUBLIC),
        ("put_on_deck", 1, ("duchy",), Secrecy.PUBLIC),
        ("revealed", 2, ("copper", "silver"), Secrecy.PUBLIC),
    ]


def test_bureaucrat_with_empty_silver_pile_still_attacks_and_single_choice_is_forced():
    game = scenario(kingdom=SIZE_DISTORTION, hands={0: ["bureaucrat"], 1: ["estate", "estate"]},
                    supply={"silver": 0})
    play_action(game, "bureaucrat")
    assert answer_forced(game, 1, DecisionKind.TOPDECK, "bureaucrat") == [("card", "estate")]
    asked(game, 0, DecisionKind.BUY, None)
    assert zones(game, 0)["deck"] == [] and not events(game, G)
    assert zones(game, 1)["deck"] == ["estate"] and zones(game, 1)["hand"] == ["estate"]


# -- Witch -----------------------------------------------------------------------------


def test_witch_curses_in_turn_order_and_the_last_gets_none_when_they_run_out():
    game = scenario(players=4, seat=1, kingdom=SIZE_DISTORTION, hands={1: ["witch"]},
                    decks={1: ["copper", "copper", "estate"]}, supply={"curse": 2})
    play_action(game, "witch")
    assert zones(game, 1)["hand"] == ["estate", "copper"]
    assert moves(game, G) == [("gained", 2, ("curse",), Secrecy.PUBLIC),
                              ("gained", 3, ("curse",), Secrecy.PUBLIC)]
    assert zones(game, 2)["discard"] == ["curse"] and zones(game, 3)["discard"] == ["curse"]
    assert zones(game, 0)["discard"] == []
    assert game.supply["curse"] == 0


# -- Bandit ----------------------------------------------------------------------------


def test_bandit_gains_gold_victim_chooses_which_treasure_and_discards_the_rest():
    game = scenario(players=3, kingdom=SIZE_DISTORTION, hands={0: ["bandit"]},
                    decks={1: ["estate", "silver", "gold"], 2: ["copper", "estate"]})
    play_action(game, "bandit")
    assert zones(game, 0)["discard"] == ["gold"] and game.supply["gold"] == 29
    asked(game, 1, DecisionKind.TRASH, "bandit")
    assert opts(game) == [("card", "gold"), ("card", "silver")]
    assert zones(game, 1)["set_aside"] == ["gold", "silver"]
    pick(game, "silver")
    assert game.trash == ["silver"]
    z1, z2 = zones(game, 1), zones(game, 2)
    assert z1["discard"] == ["gold"] and z1["deck"] == ["estate"] and z1["set_aside"] == []
    assert z2["discard"] == ["estate", "copper"] and z2["deck"] == []
    assert moves(game, R, EventKind.TRASHED, D) == [
        ("revealed", 1, ("gold", "silver"), Secrecy.PUBLIC),
        ("trashed", 1, ("silver",), Secrecy.PUBLIC),
        ("discarded", 1, ("gold",), Secrecy.PUBLIC),
        ("revealed", 2, ("estate", "copper"), Secrecy.PUBLIC),
        ("discarded", 2, ("estate", "copper"), Secrecy.PUBLIC),
    ]


def test_bandit_without_gold_left_still_attacks_and_shuffles_only_when_short():
    game = scenario(kingdom=SIZE_DISTORTION, hands={0: ["bandit"]},
                    decks={1: ["gold"]}, discards={1: ["estate"]}, supply={"gold": 0})
    play_action(game, "bandit")
    asked(game, 0, DecisionKind.BUY, None)
    assert not events(game, G)
    assert game.trash == ["gold"]
    assert zones(game, 1)["discard"] == ["estate"] and zones(game, 1)["deck"] == []
    shuffled = events(game, EventKind.SHUFFLED)
    assert [e.cards for e in shuffled] == [("estate",)]


def test_bandit_victim_with_two_identical_treasures_is_not_asked():
    game = scenario(kingdom=SIZE_DISTORTION, hands={0: ["bandit"]},
                    decks={1: ["silver", "silver"]})
    play_action(game, "bandit")
    asked(game, 0, DecisionKind.BUY, None)
    assert game.trash == ["silver"] and zones(game, 1)["discard"] == ["silver"]


# -- Spy (first edition) ---------------------------------------------------------------


def test_spy_attacker_reveals_too_and_chooses_every_fate():
    game = scenario(edition=1, players=3, kingdom=INTERACTION, hands={0: ["spy"], 2: ["moat"]},
                    decks={0: ["gold", "estate", "copper"], 1: ["silver", "province"],
                           2: ["curse"]})
    play_action(game, "spy")
    asked(game, 2, DecisionKind.REACT, "spy")
    assert zones(game, 0)["hand"] == []  # Moat is asked before anything resolves
    pick(game, ("yes", "moat"))
    assert zones(game, 0)["hand"] == ["copper"]
    assert game.turn.actions == 1
    # The attacker's own reveal is never blocked.
    asked(game, 0, DecisionKind.CHOOSE_FATE, "spy")
    assert opts(game) == [("discard", "estate"), ("keep", "estate")]
    pick(game, ("discard", "estate"))
    asked(game, 0, DecisionKind.CHOOSE_FATE, "spy")
    assert opts(game) == [("discard", "province"), ("keep", "province")]
    pick(game, ("keep", "province"))
    assert zones(game, 0)["deck"] == ["gold"] and zones(game, 0)["discard"] == ["estate"]
    assert zones(game, 1)["deck"] == ["silver", "province"]
    assert zones(game, 2)["deck"] == ["curse"]
    assert moves(game, R, D, EventKind.PUT_ON_DECK) == [
        ("revealed", 0, ("estate",), Secrecy.PUBLIC),
        ("discarded", 0, ("estate",), Secrecy.PUBLIC),
        ("revealed", 1, ("province",), Secrecy.PUBLIC),
        ("put_on_deck", 1, ("province",), Secrecy.PUBLIC),
    ]


def test_spy_when_every_other_player_reveals_moat():
    game = scenario(edition=1, kingdom=INTERACTION, hands={0: ["spy"], 1: ["moat"]},
                    decks={0: ["estate", "copper"]})
    play_action(game, "spy")
    pick(game, ("yes", "moat"))
    asked(game, 0, DecisionKind.CHOOSE_FATE, "spy")
    pick(game, ("keep", "estate"))
    assert zones(game, 0)["deck"] == ["estate"]


# -- Thief (first edition) -------------------------------------------------------------


def test_thief_attacker_chooses_copper_allowed_then_gains_any_of_the_trashed():
    game = scenario(edition=1, players=3, kingdom=INTERACTION, hands={0: ["thief"]},
                    decks={1: ["copper", "silver"], 2: ["estate", "gold"]})
    play_action(game, "thief")
    asked(game, 0, DecisionKind.TRASH, "thief")
    assert opts(game) == [("card", "silver"), ("card", "copper")]
    pick(game, "copper")
    # Player 2 revealed one Treasure: it is trashed without a question.
    asked(game, 0, DecisionKind.GAIN, "thief", 0, 2)
    assert opts(game) == [("card", "copper"), ("card", "gold")]
    assert game.trash == ["copper", "gold"]
    pick(game, "gold")
    assert game.trash == ["copper"]
    assert zones(game, 0)["discard"] == ["gold"]
    assert zones(game, 1)["discard"] == ["silver"] and zones(game, 2)["discard"] == ["estate"]
    assert game.supply["gold"] == 30  # from the Trash, not the Supply
    gained = events(game, G)
    assert [(e.player, e.cards, e.data) for e in gained] == [(0, ("gold",), {"from": "trash"})]


def test_thief_with_no_treasures_revealed_trashes_nothing():
    game = scenario(edition=1, kingdom=INTERACTION, hands={0: ["thief"]},
                    decks={1: ["estate", "duchy"]})
    play_action(game, "thief")
    asked(game, 0, DecisionKind.BUY, None)
    assert game.trash == []
    assert zones(game, 1)["discard"] == ["duchy", "estate"]
    assert moves(game, D) == [("discarded", 1, ("duchy", "estate"), Secrecy.PUBLIC)]


def test_thief_gaining_none():
    game = scenario(edition=1, kingdom=INTERACTION, hands={0: ["thief"]},
                    decks={1: ["silver", "silver"]})
    play_action(game, "thief")
    asked(game, 0, DecisionKind.GAIN, "thief", 0, 1)
    pick(game)
    assert game.trash == ["silver"] and zones(game, 0)["discard"] == []
    assert zones(game, 1)["discard"] == ["silver"]
    assert pending(game).kind is DecisionKind.BUY


def test_throne_room_on_militia_second_play_finds_three_cards():
    game = scenario(kingdom="Sleight of Hand", hands={0: ["throne_room", "militia"],
                                                      1: ["copper", "copper", "estate", "silver"]})
    play_action(game, "throne_room")
    pick(game, "militia")
    asked(game, 1, DecisionKind.DISCARD, "militia", 1, 1)
    pick(game, "estate")
    asked(game, 0, DecisionKind.BUY, None)
    assert zones(game, 1)["hand"] == ["copper", "copper", "silver"]
    assert game.turn.coins == 4


def test_spy_and_thief_shuffle_only_when_the_deck_runs_short():
    game = scenario(edition=1, kingdom=INTERACTION, hands={0: ["spy"]},
                    decks={0: ["estate"]}, discards={0: ["gold"], 1: ["silver"]})
    play_action(game, "spy")
    # The Spy's own +1 Card takes the Estate; its reveal needs the shuffle.
    assert zones(game, 0)["hand"] == ["estate"]
    assert [(e.kind, e.player) for e in events(game, EventKind.SHUFFLED, R)] == [
        (EventKind.SHUFFLED, 0), (R, 0)]
    pick(game, ("keep", "gold"))
    assert [(e.kind, e.player) for e in events(game, EventKind.SHUFFLED, R)][2:] == [
        (EventKind.SHUFFLED, 1), (R, 1)]
    pick(game, ("discard", "silver"))
    assert zones(game, 0)["deck"] == ["gold"] and zones(game, 1)["discard"] == ["silver"]

    thief = scenario(edition=1, kingdom=INTERACTION, hands={0: ["thief"]},
                     decks={1: ["estate"]}, discards={1: ["copper"]})
    play_action(thief, "thief")
    assert [e.cards for e in events(thief, EventKind.SHUFFLED)] == [("copper",)]
    assert [e.cards for e in events(thief, R)] == [("estate", "copper")]
    asked(thief, 0, DecisionKind.GAIN, "thief", 0, 1)
    pick(thief, "copper")
    assert zones(thief, 0)["discard"] == ["copper"] and thief.trash == []
    assert zones(thief, 1)["discard"] == ["estate"]


def test_what_other_players_see_of_attack_moves():
    game = scenario(players=3, kingdom=SIZE_DISTORTION,
                    hands={0: ["bureaucrat"], 1: ["estate", "copper"], 2: ["moat"]},
                    decks={1: ["gold"]})
    play_action(game, "bureaucrat")
    pick(game, ("no", "moat"))
    answer_forced(game, 1, DecisionKind.TOPDECK, "bureaucrat")
    answer_forced(game, 2, DecisionKind.TOPDECK, "bureaucrat")
    topdeck = events(game, EventKind.PUT_ON_DECK)[0]
    assert visible_event(topdeck, 2)["cards"] == ["estate"]  # revealed: public
    reveal = events(game, R)[-1]
    assert (reveal.player, visible_event(reveal, 0)["cards"]) == (2, ["moat"])

    militia = scenario(hands={0: ["militia"], 1: ["copper", "estate", "silver", "gold", "duchy"]})
    play_action(militia, "militia")
    pick(militia, "estate", "duchy")
    discard = events(militia, D)[0]
    seen = visible_event(discard, 0)
    assert "cards" not in seen and (seen["count"], seen["top"]) == (2, "duchy")
    assert visible_event(discard, 1)["cards"] == ["estate", "duchy"]


def test_attackers_gain_even_when_every_victim_reveals_moat():
    game = scenario(kingdom=SIZE_DISTORTION, hands={0: ["bandit"], 1: ["moat"]},
                    decks={1: ["silver", "gold"]})
    play_action(game, "bandit")
    pick(game, ("yes", "moat"))
    assert zones(game, 0)["discard"] == ["gold"]
    assert zones(game, 1)["deck"] == ["silver", "gold"] and game.trash == []

    bureaucrat = scenario(kingdom=SIZE_DISTORTION, hands={0: ["bureaucrat"], 1: ["moat", "estate"]})
    play_action(bureaucrat, "bureaucrat")
    pick(bureaucrat, ("yes", "moat"))
    assert zones(bureaucrat, 0)["deck"] == ["silver"]
    assert zones(bureaucrat, 1)["hand"] == ["moat", "estate"]
    assert zones(bureaucrat, 1)["deck"] == []
