"""What a person types in `dominion play`, read as option ids (`clients.choose`)."""

from __future__ import annotations

from typing import Any

import pytest

from dominion.clients.choose import (
    InputError,
    Parsed,
    Situation,
    allowed,
    forced_answer,
    option_keys,
    option_label,
    parse_input,
)
from dominion.clients.i18n import use
from dominion.clients.render import Names
from dominion.server.engine.cards import all_cards

POLISH = Names([{"id": "copper", "name": "Copper", "name_pl": "Miedziaki"},
                {"id": "silver", "name": "Silver", "name_pl": "Srebrniki"},
                {"id": "smithy", "name": "Smithy", "name_pl": "Kuźnia"},
                {"id": "estate", "name": "Estate", "name_pl": "Posiadłość"},
                {"id": "throne_room", "name": "Throne Room", "name_pl": "Sala tronowa"}],
               "pl")
ENGLISH = Names()


def decision(kind: str, options: list[tuple[str, str | None]], low: int = 1, high: int = 1,
             ordered: bool = False) -> dict[str, Any]:
    return {"id": 7, "player": 0, "kind": kind, "prompt": "?", "source": None, "min": low,
            "max": high, "ordered": ordered,
            "options": [{"id": i, "kind": k, "card": c} for i, (k, c) in enumerate(options)]}


BUY = decision("buy", [("play", "copper"), ("play", "silver"), ("play_all_treasures", None),
                       ("buy", "copper"), ("buy", "silver"), ("buy", "smithy"),
                       ("end_phase", None)])
DISCARD = decision("discard", [("card", "copper"), ("card", "copper"), ("card", "estate"),
                               ("card", "throne_room"), ("card", "silver")], 0, 5)
FATE = decision("choose_fate", [("trash", "estate"), ("discard", "estate"),
                                ("keep", "estate")])
ORDER = decision("order", [("card", "copper"), ("card", "silver"), ("card", "smithy")], 3, 3,
                 ordered=True)


def answer(text: str, asked: dict[str, Any], names: Names = ENGLISH) -> tuple[int, ...]:
    parsed = parse_input(text, asked, names)
    assert parsed.command == "answer"
    return parsed.options


def test_numbers_count_from_one() -> None:
    assert answer("3", BUY) == (3,)  # the fixed actions have letters, not numbers
    assert answer(" 1 4 5 ", DISCARD) == (0, 3, 4)
    assert answer("1,4", DISCARD) == (0, 3)
    assert answer("3 1 2", ORDER) == (2, 0, 1)


def test_words_all_end_and_nothing() -> None:
    assert answer("all", BUY) == (2,)
    assert answer("END", BUY) == (6,)
    assert answer("done", BUY) == (6,)
    assert answer("", DISCARD) == ()
    assert answer("none", DISCARD) == ()
    assert answer("all", DISCARD) == (0, 1, 2, 3, 4)  # every option, when allowed
    assert answer("yes", decision("yes_no", [("yes", None), ("no", None)])) == (0,)
    assert answer("n", decision("yes_no", [("yes", None), ("no", None)])) == (1,)


def test_card_names_and_prefixes() -> None:
    assert answer("Smithy", BUY) == (5,)
    assert answer("smi", BUY) == (5,)
    assert answer("buy silver", BUY) == (4,)
    assert answer("play copper", BUY) == (0,)
    assert answer("throne room", DISCARD) == (3,)
    assert answer("throne_room", DISCARD) == (3,)
    # several copies of a card are separate options: each name takes the next one
    assert answer("copper, copper, estate", DISCARD) == (0, 1, 2)
    assert answer("copper estate", DISCARD) == (0, 2)
    assert answer("1 silver", DISCARD) == (0, 4)
    assert answer("trash", FATE) == (0,)
    assert answer("keep estate", FATE) == (2,)
    assert answer("copper, silver, smithy", ORDER) == (0, 1, 2)
    assert answer("smithy, copper, silver", ORDER) == (2, 0, 1)  # first ends on top


def test_polish_names_with_or_without_diacritics() -> None:
    assert answer("Kuźnia", BUY, POLISH) == (5,)
    assert answer("kuznia", BUY, POLISH) == (5,)
    assert answer("posiadlosc", DISCARD, POLISH) == (2,)
    assert answer("sala", DISCARD, POLISH) == (3,)
    assert answer("buy srebrniki", BUY, POLISH) == (4,)


def test_commands() -> None:
    assert parse_input("help", BUY) == Parsed("help")
    assert parse_input("?", BUY) == Parsed("help")
    assert parse_input("Quit", BUY) == Parsed("quit")
    assert parse_input("resign", BUY) == Parsed("resign")


@pytest.mark.parametrize(("text", "asked", "explains"), [
    ("9", BUY, "There is no option 9: the options are numbered 1 to 5"),
    ("0", BUY, "There is no option 0"),
    ("1 2", BUY, "Too many: you chose 2. Choose one option"),
    ("", BUY, "You must choose something"),
    ("none", ORDER, "You must choose something"),
    ("copper", BUY, "'copper' could be 1 (Play Copper) or 3 (Buy Copper)"),
    ("s", BUY, "could be"),
    ("gold", BUY, "'gold' is not one of the options"),
    ("1 1", DISCARD, "Option 1 is chosen twice"),
    ("silver, silver", DISCARD, "'silver' is chosen more times"),
    ("all", decision("trash", [("card", "copper")] * 5, 0, 4), "'all' is not allowed here"),
    ("end", DISCARD | {"min": 1}, "There is nothing to end here"),
    ("copper", ORDER, "Too few: you chose 1. Choose 3 options"),
])
def test_mistakes_are_explained(text: str, asked: dict[str, Any], explains: str) -> None:
    with pytest.raises(InputError) as error:
        parse_input(text, asked, ENGLISH)
    assert explains in str(error.value)


ACTION = decision("play_action", [("play", "smithy"), ("end_phase", None)])


def test_the_fixed_actions_keep_their_letters_in_every_phase() -> None:
    """"2" is never a fixed action: typed ahead into the next phase it means a card or
    nothing; "e" always ends the phase, "t" always plays all Treasures."""
    assert option_keys(BUY["options"]) == ["1", "2", "t", "3", "4", "5", "e"]
    assert option_keys(ACTION["options"]) == ["1", "e"]
    assert answer("e", BUY) == (6,) and answer("e", ACTION) == (1,)
    assert answer("t", BUY) == (2,) and answer("T", BUY) == (2,)
    for typed, asked in [("t", ACTION), ("2", ACTION), ("t", DISCARD), ("e", DISCARD)]:
        with pytest.raises(InputError):
            parse_input(typed, asked, ENGLISH)
    assert answer("tak", decision("yes_no", [("yes", None), ("no", None)]), POLISH) == (0,)
    with pytest.raises(InputError):  # "t" is no "tak": it may be typed ahead for Treasures
        parse_input("t", decision("yes_no", [("yes", None), ("no", None)]), POLISH)


def test_labels_and_allowed() -> None:
    options = BUY["options"]
    costs = {"silver": 3}
    labels = [option_label(o, BUY, ENGLISH, costs) for o in options]
    assert labels == ["Play Copper", "Play Silver", "Play all Treasures", "Buy Copper",
                      "Buy Silver ($3)", "Buy Smithy", "End turn"]
    assert option_label({"kind": "end_phase", "card": None}, {"kind": "play_action"},
                        ENGLISH) == "End Action phase"
    assert option_label(FATE["options"][0], FATE, POLISH) == "Trash Posiadłość"
    assert allowed(DISCARD) == ("Choose up to 5, by number or name, or nothing ('none' or an "
                                "empty line).")
    assert allowed(ORDER).startswith("Choose 3 options")


def test_labels_as_completed_are_answers() -> None:
    for asked in (BUY, DISCARD, FATE, ORDER | {"min": 1, "max": 1}):
        for option in asked["options"]:
            for costs in ({}, {"silver": 3, "copper": 0, "smithy": 4}):
                label = option_label(option, asked, POLISH, costs)
                chosen = answer(label, asked, POLISH)
                assert asked["options"][chosen[0]]["kind"] == option["kind"], label
                assert asked["options"][chosen[0]]["card"] == option["card"], label
    assert answer("End Action phase", decision(
        "play_action", [("play", "smithy"), ("end_phase", None)])) == (1,)


CATALOGUE = Names(all_cards())
TURN = Situation(coins=3, hand=["copper", "copper", "estate", "smithy", "silver"],
                 supply={"copper": 46, "silver": 40, "smithy": 10, "witch": 0, "gold": 30},
                 costs={"copper": 0, "silver": 3, "smithy": 4, "witch": 5, "gold": 6},
                 types=CATALOGUE.types, spellings=CATALOGUE.spellings)
BUYING = decision("buy", [("play", "copper"), ("play_all_treasures", None), ("buy", "copper"),
                          ("buy", "silver"), ("end_phase", None)])
BY_HAND = decision("buy", [("play", "copper"), ("buy", "copper"), ("buy", "silver"),
                           ("end_phase", None)])  # (no "Play all Treasures")
BOUGHT = decision("buy", [("buy", "copper"), ("end_phase", None)])
ACTING = decision("play_action", [("play", "smithy"), ("end_phase", None)])


@pytest.mark.parametrize(("text", "asked", "explains"), [
    ("buy smithy", BY_HAND, "Smithy costs $4; you have $3. Play your Treasures first ('all')."),
    ("gold", BOUGHT, "Gold costs $6; you have $3."),
    ("buy witch", BUYING, "The Witch pile is empty."),
    ("buy market", BUYING, "Market is not in this game's Supply."),
    ("sliver", BUYING, "'sliver' is not a card here. Did you mean Silver?"),
    ("buy sliver", BUYING, "Did you mean Silver?"),
    ("play silver", BOUGHT, "after a buy no more Treasures may be played"),
    ("play smithy", BUYING, "Action cards are played in the Action phase, which is over."),
    ("copper", ACTING, "Treasures are played in the Buy phase: 'end' ends your Action phase"),
    ("buy silver", ACTING, "Cards are bought in the Buy phase"),
    ("play witch", ACTING, "You have no Witch in your hand."),
])
def test_refusals_give_the_rules_reason(text: str, asked: dict[str, Any], explains: str) -> None:
    with pytest.raises(InputError) as error:
        parse_input(text, asked, CATALOGUE, TURN)
    assert explains in str(error.value)


def test_a_buy_not_offered_yet_plays_all_treasures_first() -> None:
    """The server's "Play all Treasures" first, then the buy if the server then offers it
    (the session's part): the client counts no coins."""
    after = Parsed("buy_after_treasures", (1,), "smithy")
    assert parse_input("buy smithy", BUYING, CATALOGUE, TURN) == after
    assert parse_input("kup Kuźnia ($4)", BUYING, CATALOGUE, TURN) == after
    assert parse_input("gold", BUYING, CATALOGUE, TURN) == Parsed("buy_after_treasures", (1,),
                                                                  "gold")
    assert parse_input("buy silver", BUYING, CATALOGUE, TURN).options == (3,)  # offered
    for refused in ("smithy", "play gold", "buy witch", "buy market"):  # (in hand: play it?)
        with pytest.raises(InputError):
            parse_input(refused, BUYING, CATALOGUE, TURN)


def test_refusals_in_polish() -> None:
    use("pl")
    try:
        names = Names(all_cards(), "pl")
        situation = Situation(coins=3, hand=["copper"], supply={"smithy": 10},
                              costs={"smithy": 4}, types=names.types,
                              spellings=names.spellings)
        with pytest.raises(InputError) as error:
            parse_input("kup kuznia", BY_HAND, names, situation)
        assert str(error.value) == ("Kuźnia kosztuje 4 (monety); masz 3. Najpierw zagraj "
                                    "karty Skarbu („wszystkie”).")
        assert parse_input("kup srebrniki", BUYING, names).options == (3,)
        assert parse_input("wszystkie", BUYING, names).options == (1,)
        assert parse_input("pomoc kuznia", BUYING, names, situation) == Parsed("help",
                                                                             card="smithy")
    finally:
        use("en")


def test_help_names_a_card_in_either_language() -> None:
    assert parse_input("help smithy", BUYING, CATALOGUE, TURN) == Parsed("help", card="smithy")
    assert parse_input("info Kuźnia", BUYING, CATALOGUE, TURN) == Parsed("help", card="smithy")
    with pytest.raises(InputError, match="Did you mean Smithy"):
        parse_input("help smity", BUYING, CATALOGUE, TURN)
    text = CATALOGUE.describe_card("throne_room")
    assert text[0] == "Throne Room · $4 · Action"
    assert text[1].startswith("edition 2: You may play an Action card")
    assert text[2].startswith("edition 1: Choose an Action card")


@pytest.mark.parametrize(("asked", "forced"), [
    (decision("discard", [("card", "copper")] * 3, 2, 2), (0, 1)),  # the same card thrice
    (decision("trash", [("card", "copper"), ("card", "estate")], 2, 2), (0, 1)),
    (decision("gain", [("card", "silver")]), (0,)),
    (decision("discard", [], 0, 0), ()),
    (decision("topdeck", [("card", "copper"), ("card", "estate")], 1, 1), None),
    (decision("order", [("card", "copper"), ("card", "estate")], 2, 2, ordered=True), None),
    (decision("order", [("card", "copper"), ("card", "copper")], 2, 2, ordered=True), (0, 1)),
    (decision("discard", [("card", "copper"), ("card", "estate")], 0, 2), None),
    (decision("react", [("card", "moat")], 0, 1), None),
    (decision("react", [("card", "moat")], 0, 1) | {"forced": True}, ()),
    (BUYING, None),
])
def test_a_decision_with_one_possible_answer_is_answered_by_itself(
        asked: dict[str, Any], forced: tuple[int, ...] | None) -> None:
    assert forced_answer(asked) == forced
