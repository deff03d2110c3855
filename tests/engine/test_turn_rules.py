"""The turn's flow, buying, Clean-up, shuffling, the game's end, scoring, and illegal answers."""

from __future__ import annotations

import pytest

from dominion.server.engine import DecisionKind, EventKind, IllegalAnswer, Phase, Secrecy
from dominion.server.engine.scoring import player_score
from tests.engine.scenario import end_phase, pick, play_action, scenario
from tests.engine.test_cards_support import asked, buyable, events, moves, opts, pending, zones


def counters(game):
    return (game.turn.actions, game.turn.buys, game.turn.coins)


# -- The turn --------------------------------------------------------------------------


def test_a_turn_starts_with_one_action_one_buy_no_coins_and_unused_ones_are_lost():
    game = scenario(hands={0: ["festival"], 1: ["village"]}, decks={0: ["copper"] * 5})
    assert (game.turn.player, game.turn.phase) == (0, Phase.ACTION)
    assert counters(game) == (1, 1, 0)
    play_action(game, "festival")
    assert counters(game) == (2, 2, 2)
    # No Action card left in hand: the Action phase ends by itself.
    assert game.turn.phase is Phase.BUY
    end_phase(game)
    assert (game.turn.player, game.turn.phase) == (1, Phase.ACTION)
    assert counters(game) == (1, 1, 0)
    asked(game, 1, DecisionKind.PLAY_ACTION, None)


def test_treasures_may_only_be_played_before_the_first_buy():
    game = scenario(hands={0: ["festival", "copper", "silver"]}, decks={0: ["estate"] * 5})
    play_action(game, "festival")
    assert opts(game)[:3] == [("play", "copper"), ("play", "silver"), ("play_all_treasures", None)]
    pick(game, ("buy", "copper"))  # Copper costs 0 and still uses a Buy
    assert counters(game) == (2, 1, 2)
    assert game.supply["copper"] == 46 - 1
    assert all(kind in ("buy", "end_phase") for kind, _ in opts(game))
    assert buyable(game) == {"copper", "curse", "estate", "cellar", "moat"}
    assert zones(game, 0)["hand"] == ["copper", "silver"]


def test_buying_gains_to_discard_never_plays_and_empty_piles_cannot_be_bought():
    game = scenario(hands={0: ["festival", "copper"]}, decks={0: ["estate"] * 5},
                    supply={"merchant": 0})
    play_action(game, "festival")
    pick(game, ("play", "copper"))
    assert buyable(game) == {"copper", "curse", "silver", "estate", "cellar", "moat", "village",
                             "workshop"}  # no Merchant: its pile is empty
    pick(game, ("buy", "village"))
    assert counters(game) == (2, 1, 0)
    assert game.supply["village"] == 9
    z = zones(game, 0)
    assert z["discard"] == ["village"] and z["in_play"] == ["festival", "copper"]
    assert moves(game, EventKind.BOUGHT) == [("bought", 0, ("village",), Secrecy.PUBLIC)]
    assert [e.cards for e in events(game, EventKind.PLAYED)] == [("festival",), ("copper",)]
    pick(game, ("buy", "curse"))
    # The last Buy is used: the turn ends by itself.
    assert game.turn.player == 1
    assert game.supply["curse"] == 9
    assert moves(game, EventKind.BOUGHT)[-1] == ("bought", 0, ("curse",), Secrecy.PUBLIC)
    assert zones(game, 0)["discard"] == ["village", "curse", "festival", "copper"]


# -- Clean-up and shuffling ------------------------------------------------------------


def test_clean_up_discards_hand_and_play_then_draws_five_without_shuffling():
    game = scenario(hands={0: ["village", "copper", "estate"]},
                    decks={0: ["gold", "gold", "gold", "gold", "gold", "silver"]},
                    discards={0: ["curse"]})
    play_action(game, "village")
    asked(game, 0, DecisionKind.BUY, None)
    pick(game, ("play", "copper"))
    end_phase(game)
    z = zones(game, 0)
    assert z["hand"] == ["gold"] * 5 and z["deck"] == [] and z["in_play"] == []
    assert z["discard"] == ["curse", "estate", "silver", "village", "copper"]
    cleanup = events(game, EventKind.DISCARDED)
    assert [(e.cards, e.secrecy, e.zone) for e in cleanup] == [
        (("estate", "silver", "village", "copper"), Secrecy.OWNER_TOP, "cleanup")]
    # An empty deck with a discard pile stays so until a card is needed.
    assert not events(game, EventKind.SHUFFLED)
    assert moves(game, EventKind.DREW)[-1] == ("drew", 0, ("gold",) * 5, Secrecy.OWNER)


def test_clean_up_shuffles_when_the_deck_runs_short():
    game = scenario(hands={0: ["copper", "copper"]}, decks={0: ["estate", "estate"]},
                    discards={0: ["copper"]})
    end_phase(game)
    z = zones(game, 0)
    assert z["hand"] == ["estate", "estate", "copper", "copper", "copper"]
    assert z["deck"] == [] and z["discard"] == []
    assert [e.kind for e in events(game, EventKind.DREW, EventKind.SHUFFLED)] == [
        EventKind.DREW, EventKind.SHUFFLED, EventKind.DREW]


def test_putting_a_card_on_an_empty_deck_makes_it_the_deck():
    game = scenario(kingdom="Size Distortion", hands={0: ["bureaucrat"]},
                    discards={0: ["copper", "estate"]})
    play_action(game, "bureaucrat")
    z = zones(game, 0)
    assert z["deck"] == ["silver"] and z["discard"] == ["copper", "estate"]
    assert not events(game, EventKind.SHUFFLED)


# -- The end of the game ---------------------------------------------------------------


def end_turn(game):
    while game.pending is not None and pending(game).kind is not DecisionKind.BUY:
        end_phase(game)
    end_phase(game)


def test_game_ends_after_the_turn_in_which_the_province_pile_empties():
    game = scenario(hands={0: ["festival", "gold", "gold", "gold", "gold"]},
                    decks={0: ["copper"] * 5}, supply={"province": 1})
    play_action(game, "festival")
    pick(game, ("play_all_treasures", None))
    pick(game, ("buy", "province"))
    assert game.supply["province"] == 0
    asked(game, 0, DecisionKind.BUY, None)  # still this turn: one Buy left
    assert not game.over
    end_phase(game)
    assert game.over and game.turn.phase is Phase.GAME_OVER
    assert events(game)[-1].kind is EventKind.GAME_ENDED
    with pytest.raises(IllegalAnswer) as error:
        game.answer(0, 1, [0])
    assert error.value.code == "game_over"


@pytest.mark.parametrize(
    ("players", "empty", "over"),
    [(2, 2, False), (2, 3, True), (4, 3, True), (5, 3, False), (5, 4, True), (6, 3, False),
     (6, 4, True)],
)
def test_game_ends_on_three_empty_piles_or_four_with_five_or_six_players(players, empty, over):
    piles = ["curse", "cellar", "moat", "village"][:empty]
    game = scenario(players=players, supply=dict.fromkeys(piles, 0))
    end_turn(game)
    assert game.over is over
    if not over:
        assert game.turn.player == 1


def test_scores_count_every_zone_and_gardens_counts_owned_cards():
    game = scenario(kingdom="Size Distortion",
                    hands={0: ["gold", "gold", "silver"], 1: ["duchy", "gardens"]},
                    decks={0: ["estate"] * 5, 1: ["copper"] * 8},
                    discards={0: ["gardens", "curse"], 1: ["province", "estate", "curse"]},
                    supply={"province": 1})
    game.players[1].set_aside = ["estate", "estate"]
    game.count_holdings()
    pick(game, ("play_all_treasures", None))
    pick(game, ("buy", "province"))
    assert game.over and game.result is not None
    # Player 0: 11 cards (Gardens 1) + Estates 5 + Province 6 - Curse 1.
    # Player 1: 15 cards (Gardens 1) + Duchy 3 + Province 6 + Estates 3 - Curse 1.
    assert game.result.scores == (5 + 6 - 1 + 1, 3 + 6 + 3 - 1 + 1)
    assert game.result.winners == (1,)
    assert game.result.decks[0] == {"curse": 1, "estate": 5, "gardens": 1, "gold": 2,
                                    "province": 1, "silver": 1}


def test_the_end_says_the_points_card_by_card_and_why_it_ended():
    game = scenario(kingdom="Size Distortion",
                    hands={0: ["gold", "gold", "silver"], 1: ["duchy", "gardens"]},
                    decks={0: ["estate"] * 5, 1: ["copper"] * 8},
                    discards={0: ["gardens", "curse"], 1: ["province", "estate", "curse"]},
                    supply={"province": 1, "chapel": 0})
    pick(game, ("play_all_treasures", None))
    pick(game, ("buy", "province"))
    end = game.result.end_dict() if game.result else {}
    assert (end["ended_by"], end["empty_piles"], end["tie"]) == ("provinces",
                                                                ["province", "chapel"], None)
    # Seat 0 owns 11 cards: Gardens worth 1; the cards that score, most points first.
    assert end["points_by_card"][0] == [
        {"card": "province", "count": 1, "points": 6},
        {"card": "estate", "count": 5, "points": 5},
        {"card": "gardens", "count": 1, "points": 1, "cards_owned": 11},
        {"card": "curse", "count": 1, "points": -1}]
    assert [sum(e["points"] for e in seat) for seat in end["points_by_card"]] == end["scores"]
    # the game_ended event (and the stored result) keep their keys: old replays verify
    assert "points_by_card" not in game.events[-1].data


@pytest.mark.parametrize(("players", "emptied", "ended"), [
    (2, ["chapel", "cellar"], False), (2, ["chapel", "cellar", "moat"], True),
    (5, ["chapel", "cellar", "moat"], False), (5, ["chapel", "cellar", "moat", "curse"], True)])
def test_three_empty_piles_end_the_game_four_with_five_players(players, emptied, ended):
    kingdom = ["cellar", "chapel", "moat", "village", "smithy", "festival", "market",
               "laboratory", "witch", "gardens"]
    game = scenario(players=players, kingdom=kingdom,
                    supply=dict.fromkeys(emptied[:-1], 0) | {emptied[-1]: 1},
                    hands={0: ["silver", "silver"]})
    pick(game, ("play_all_treasures", None))
    pick(game, ("buy", emptied[-1]))
    assert game.over is ended
    if ended:
        assert game.result is not None and game.result.end_dict()["ended_by"] == "piles"
        assert sorted(game.result.empty_piles) == sorted(emptied)


def test_a_game_ended_by_resignations_says_so():
    game = scenario()
    game.resign(0)
    assert game.result is not None and game.result.end_dict()["ended_by"] == "resignations"


@pytest.mark.parametrize(("owned", "worth"), [(9, 0), (10, 1), (19, 1), (20, 2), (39, 3)])
def test_gardens_is_worth_one_per_full_ten_cards(owned, worth):
    game = scenario(kingdom="Size Distortion")
    p = game.players[0]
    p.hand, p.deck, p.discard = ["gardens", "gardens"], ["copper"] * (owned - 3), ["curse"]
    assert player_score(p, game.cards) == 2 * worth - 1


@pytest.mark.parametrize(("other_turns", "winners"), [(2, (1,)), (3, (0, 1))])
def test_ties_go_to_fewer_turns_else_the_win_is_shared(other_turns, winners):
    game = scenario(hands={0: ["gold", "gold", "gold"], 1: ["province"]},
                    decks={0: ["copper"] * 5}, supply={"province": 1})
    game.players[0].turns, game.players[1].turns = 3, other_turns
    pick(game, ("play_all_treasures", None))
    pick(game, ("buy", "province"))
    assert game.result is not None
    assert game.result.scores == (6, 6)
    assert game.result.turns == (3, other_turns)
    assert game.result.winners == winners
    assert game.result.end_dict()["tie"] == ("fewer_turns" if len(winners) == 1 else "shared")


def test_most_points_wins_regardless_of_turns():
    game = scenario(hands={0: ["gold", "gold", "gold"], 1: ["province", "estate"]},
                    decks={0: ["copper"] * 5}, supply={"province": 1})
    game.players[0].turns, game.players[1].turns = 1, 5
    pick(game, ("play_all_treasures", None))
    pick(game, ("buy", "province"))
    assert game.result is not None and game.result.winners == (1,)


# -- Illegal answers -------------------------------------------------------------------


def militia_game():
    game = scenario(hands={0: ["militia"], 1: ["copper", "estate", "silver", "gold", "duchy"]})
    play_action(game, "militia")
    asked(game, 1, DecisionKind.DISCARD, "militia", 2, 2)
    return game


@pytest.mark.parametrize(
    ("player", "stale", "choices", "code"),
    [
        (0, False, [0, 1], "not_your_decision"),
        (1, True, [0, 1], "stale_decision"),
        (1, False, [0], "too_few_options"),
        (1, False, [], "too_few_options"),
        (1, False, [0, 1, 2], "too_many_options"),
        (1, False, [0, 0], "duplicate_option"),
        (1, False, [0, 5], "bad_option"),
        (1, False, [-1, 0], "bad_option"),
        (1, False, ["0", 1], "bad_option"),
        (1, False, [True, 1], "bad_option"),
        (1, False, [0.0, 1], "bad_option"),
        (1, False, 0, "bad_answer"),
        (1, False, None, "bad_answer"),
        (1, False, "01", "bad_answer"),
    ],
)
def test_illegal_answers_raise_and_change_nothing(player, stale, choices, code):
    game = militia_game()
    decision = pending(game)
    before = game.snapshot()
    answers, event_count = list(game.answers), len(game.events)
    with pytest.raises(IllegalAnswer) as error:
        game.answer(player, decision.id - 1 if stale else decision.id, choices)
    assert error.value.code == code
    assert game.snapshot() == before
    assert game.pending is decision
    assert game.answers == answers and len(game.events) == event_count
    # The same decision still takes a legal answer.
    game.answer(1, decision.id, [1, 4])
    assert zones(game, 1)["hand"] == ["copper", "silver", "gold"]


@pytest.mark.parametrize(
    ("choices", "code"),
    [([0, 1], "too_many_options"), ([], "too_few_options"), ([2], "bad_option"),
     ([1.0], "bad_option"), ([True], "bad_option"), ((), "too_few_options"),
     # a tuple takes the same checks (the server passes its first check's tuple on)
     ((0, 1), "too_many_options"), ((2,), "bad_option"), ((True,), "bad_option"),
     ((-1,), "bad_option"), (("0",), "bad_option")],
)
def test_illegal_answers_to_a_single_choice(choices, code):
    game = scenario(hands={0: ["village"]})
    decision = pending(game)
    before = game.snapshot()
    with pytest.raises(IllegalAnswer) as error:
        game.answer(0, decision.id, choices)
    assert error.value.code == code
    assert game.snapshot() == before and game.pending is decision
    with pytest.raises(IllegalAnswer) as future:
        game.answer(0, decision.id + 1, [0])
    assert future.value.code == "stale_decision"
    game.answer(0, decision.id, (0,))  # a tuple is a list of ids too
    assert zones(game, 0)["in_play"] == ["village"]
