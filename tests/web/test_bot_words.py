"""The bot levels' sentences (clients/web/js/bot_words.js) call the cards they name by
the names the card catalogue gives them in each language: "Smithy" was "Kowal" in Polish
and "Kováčňa" in Slovak there, while the board says "Kuźnia" and "Vyhňa"."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from dominion.server.engine import catalogue_dict

WORDS = Path(__file__).resolve().parents[2] / "clients" / "web" / "js" / "bot_words.js"
LANGUAGES = ("en", "pl", "sk", "lt")
NAMED = {"level_big_money_about": ("silver", "gold", "province"),
         "level_smithy_big_money_about": ("smithy",)}
"""Each sentence that names cards, and the cards it names."""


def sentences(key: str) -> list[str]:
    """A key's words in each language, read from the module's data."""
    found = re.search(rf'^\s*"?{re.escape(key)}"?: (\[.*?\]),?$', WORDS.read_text(),
                      re.M | re.S)
    assert found, key
    return list(json.loads(found.group(1)))


def stem(name: str) -> str:
    """A card's name as its inflected forms begin (Kuźnia: Kuźniami, Vyhňa: Vyhňami,
    Sidabras: Sidabrą): case endings are at most two letters long."""
    return name[:-2] if len(name) > 4 else name


@pytest.mark.parametrize("key", sorted(NAMED))
def test_a_levels_sentence_names_its_cards_as_the_catalogue_does(key: str) -> None:
    cards = {card["id"]: card for card in catalogue_dict()["2"]}
    for language, sentence in zip(LANGUAGES, sentences(key), strict=True):
        field = "name" if language == "en" else f"name_{language}"
        for card in NAMED[key]:
            assert stem(cards[card][field]) in sentence, (language, card, sentence)
