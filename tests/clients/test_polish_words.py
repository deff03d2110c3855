"""The terminal client in Polish: the recommended Kingdoms and the in-server bots' seats by
their Polish names, Militia's question keeping how many cards to discard and keep, card
names left in the nominative in the log, and words about a player that do not guess the
player's gender."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from dominion.clients import i18n
from dominion.clients.args import kingdom_arg, kingdom_help
from dominion.clients.render import Names, log_lines, result_line, seat_name, who
from dominion.clients.words import question
from dominion.server.engine import catalogue_dict

PAST_ABOUT_A_PLAYER = re.compile(r"ł\(a\)|\w+ł\b|\w+ła\b|\w+łeś\b|[Zz]wycięzc|[Pp]oddali")
"""A past tense in -ł/-ła/-łeś, an "(a)", a masculine noun for the winner."""


@pytest.fixture
def lang(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The process's language for the test; English comes back after it."""
    monkeypatch.setattr(i18n, "_translation", i18n._translation)
    monkeypatch.delenv("LANGUAGE", raising=False)
    i18n.use(request.param)
    yield request.param


def names(lang: str) -> Names:
    return Names(catalogue_dict()["2"], lang)


def militia(hand: int) -> dict[str, Any]:
    return {"kind": "discard", "source": "militia", "prompt": "Discard down to 3 cards.",
            "min": hand - 3, "max": hand - 3,
            "options": [{"id": i, "kind": "card", "card": "copper"} for i in range(hand)]}


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["Militia: Discard 2 cards, down to 3 in hand.",
            "Militia: Discard 1 card, down to 3 in hand.", "Poacher: Discard 1 card.",
            "Cellar: Choose cards to discard."]),
    ("pl", ["Milicja: Odrzuć z ręki 2 karty; na ręce zostanie: 3.",
            "Milicja: Odrzuć z ręki 1 kartę; na ręce zostanie: 3.",
            "Kłusownik: Odrzuć z ręki 1 kartę.", "Piwnica: Wybierz karty do odrzucenia."]),
], indirect=["lang"])
def test_militia_says_how_many_to_discard_and_keep(lang: str, expected: list[str]) -> None:
    poacher = {"kind": "discard", "source": "poacher", "min": 1, "max": 1,
               "options": [{"id": 0}]}
    cellar = {"kind": "discard", "source": "cellar", "min": 0, "max": 2,
              "options": [{"id": 0}, {"id": 1}]}
    asked = [question(d, names(lang)) for d in (militia(5), militia(4), poacher, cellar)]
    assert asked == expected


@pytest.mark.parametrize("lang", ["pl"], indirect=True)
def test_recommended_kingdoms_are_named_and_taken_in_polish(lang: str) -> None:
    assert "Pierwsza rozgrywka" in kingdom_help() and "Srebro i Złoto" in kingdom_help()
    assert kingdom_arg("pierwsza rozgrywka") == "First Game"
    assert kingdom_arg("Srebro i Złoto") == "Silver & Gold"
    assert kingdom_arg("First Game") == "First Game"  # the server's name still works
    assert kingdom_arg("cellar, moat") == ["cellar", "moat"]


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["Expert bot [bot]", "Expert bot", "Easy bot 2"]),
    ("pl", ["Ekspercki bot [bot]", "Ekspercki bot", "Łatwy bot 2"]),
], indirect=["lang"])
def test_bot_seats_are_named_in_the_persons_language(lang: str, expected: list[str]) -> None:
    """By their levels, as the web lobby names them; two of one level by their seats too."""
    assert [seat_name({"name": "Bot 2 (strong)", "bot": "strong"}),
            who(["Ala", "Bot 2 (strong)"], 1),
            who(["Ala", "Bot 2 (big_money)", "Bot 3 (big_money)"], 1)] == expected


@pytest.mark.parametrize("lang", ["pl"], indirect=True)
def test_card_names_stay_in_the_nominative_in_the_log(lang: str) -> None:
    event = {"kind": "reacted", "player": 0, "cards": ["moat"], "source": "militia"}
    assert list(log_lines([event], ["Ala"], names(lang))) == [
        "Ala odkrywa: Fosa (w odpowiedzi na atak: Milicja)."]


@pytest.mark.parametrize("lang", ["pl"], indirect=True)
def test_words_about_a_player_fit_any_gender(lang: str) -> None:
    result = {"scores": [10, 3], "winners": [0], "resigned": [1], "turns": [9, 9]}
    line = result_line(result, ["Ala", "Bob"])
    assert "Wygrywa: Ala." in line and "Poddaje się: Bob." in line
    said = [line, seat_name({"name": "Ala", "left": "resigned"}),
            seat_name({"name": "Ala", "left": "taken_over"}),
            i18n._("You resigned; a bot plays your seat."), i18n._("You left {game}."),
            i18n._("You have bought this turn: after a buy no more Treasures may be played."),
            i18n._("Unrated: these players have played today's counted rated games against "
                   "each other.")]
    for text in said:
        assert not PAST_ABOUT_A_PLAYER.search(text), text
