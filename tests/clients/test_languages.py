"""The terminal client in Slovak and Lithuanian: card names, texts and the names a person
may type come from the server's catalogue (`name_sk`, `text_lt`, ...), verbs and answers
may be typed in the language, and counts take their language's plural forms."""

from __future__ import annotations

import pytest

from dominion.clients import i18n
from dominion.clients.choose import parse_input, plain
from dominion.clients.render import Names
from dominion.clients.session import YES_WORDS
from dominion.clients.words import question
from dominion.server.engine import catalogue_dict


@pytest.mark.parametrize(("lang", "copper", "smithy", "text"), [
    ("sk", "Meď", "Vyhňa", "+3 karty."),
    ("lt", "Varis", "Kalvė", "+3 kortos."),
])
def test_cards_are_named_and_described_in_the_language(lang: str, copper: str, smithy: str,
                                                       text: str) -> None:
    names = Names.from_cards_endpoint({"editions": catalogue_dict()}, lang)
    assert names("copper") == copper and names("smithy") == smithy
    assert names.describe_card("smithy")[-1].strip() == text
    # a name typed in any language the client speaks finds its card
    assert {names.spellings[spelling] for spelling in ("meď", "varis", "miedziaki", "copper")} \
        == {"copper"}


@pytest.mark.parametrize(("lang", "expected"), [
    ("sk", ["Odhoď 1 kartu.", "Odhoď 2 karty; v ruke zostane 3.",
            "Odhoď 10 kariet; v ruke zostane 1."]),
    ("lt", ["Išmesk 1 kortą.", "Išmesk 2 kortas; rankoje liks 3.",
            "Išmesk 10 kortų; rankoje liks 1."]),
])
def test_counts_take_the_languages_plural_forms(monkeypatch: pytest.MonkeyPatch, lang: str,
                                                expected: list[str]) -> None:
    monkeypatch.setattr(i18n, "_translation", i18n._translation)
    monkeypatch.delenv("LANGUAGE", raising=False)
    i18n.use(lang)
    assert i18n.language() == lang

    def militia(count: int, hand: int) -> str:
        decision = {"kind": "discard", "min": count, "max": count,
                    "options": [{"id": n, "kind": "card", "card": "copper"} for n in range(hand)]}
        return question(decision, Names(lang=lang))

    assert [militia(1, 1), militia(2, 5), militia(10, 11)] == expected


def test_answers_may_be_typed_in_the_language() -> None:
    buy = {"id": 7, "player": 0, "kind": "buy", "prompt": "?", "source": None, "min": 1,
           "max": 1, "options": [{"id": 0, "kind": "play", "card": "silver"},
                                 {"id": 1, "kind": "buy", "card": "silver"},
                                 {"id": 2, "kind": "play_all_treasures", "card": None}]}
    for lang, typed, wanted in (("sk", "zahraj striebro", (0,)), ("sk", "kup striebro", (1,)),
                                ("lt", "zaisk sidabras", (0,)), ("lt", "pirk sidabras", (1,)),
                                ("sk", "vsetky", (2,)), ("lt", "visus", (2,))):
        names = Names.from_cards_endpoint({"editions": catalogue_dict()}, lang)
        parsed = parse_input(typed, buy, names)
        assert (parsed.command, parsed.options) == ("answer", wanted), typed
    assert {plain(word) for word in ("áno", "taip")} <= YES_WORDS
