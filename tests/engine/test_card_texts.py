"""Every card's Polish text says what its English text says, in the Polish rulebook's
terms (docs/RULES.md, Terms: dodaj, odrzuć, wyrzuć na Śmietnisko, odkryj, podejrzyj, ...)."""

from __future__ import annotations

import re

import pytest

from dominion.server.engine.cards import all_cards, catalogue, catalogue_dict
from dominion.server.engine.effects import EFFECTS

# An English term of a card text -> the rulebook's Polish word for it.
TERMS = {
    r"\bgain": r"\bdoda",
    r"\btrash": r"Śmietnisko",
    r"\bdiscard(?!ing)": r"\bodrzu",
    r"\breveal": r"\bodkry",
    r"\blook at": r"\bpodejrzyj",
    r"\bset .*aside|\bset those aside": r"\bodłoż",
    r"\bplay(?!er)": r"\bzagr",
    r"\bdeck\b": r"\btali",
    r"\bAttack": r"\bAtak",
    r"\bCurse": r"Klątw",
    r"\bSilver": r"Srebrniki",
    r"\bGold\b": r"Złoto",
    r"\bCopper": r"Miedziaki",
}
BONUSES = ((r"\+(\d+) Cards?", r"\+(\d+) kart"), (r"\+(\d+) Actions?", r"\+(\d+) akcj"),
           (r"\+(\d+) Buys?", r"\+(\d+) zakup"), (r"\+(\d+) coins?", r"\+(\d+) monet"),
           (r"(-?\d+) VP", r"(-?\d+) punkt"))


@pytest.mark.parametrize("card", all_cards(), ids=lambda c: f"{c['id']}-{c['editions']}")
def test_the_polish_text_says_what_the_english_one_says(card: dict[str, object]) -> None:
    english, polish = str(card["text"]), str(card["text_pl"])
    assert polish and polish != english
    for term, word in TERMS.items():
        if re.search(term, english, re.IGNORECASE):
            assert re.search(word, polish, re.IGNORECASE), (term, polish)
    for english_bonus, polish_bonus in BONUSES:
        assert re.findall(english_bonus, english) == re.findall(polish_bonus, polish), polish


def test_the_catalogue_serves_the_polish_texts() -> None:
    for edition, cards in catalogue_dict().items():
        texts = {card["id"]: card["text_pl"] for card in cards}
        assert texts["smithy"] == "+3 karty."
        assert texts["throne_room"].startswith("Możesz" if edition == "2" else "Wybierz")


BONUSES_ONLY = re.compile(r"((\+\d+ (Cards?|Actions?|Buys?|coins?)|-?\d+ VP)[,.] ?)*")
"""A text that says nothing beyond "+" bonuses and victory points."""
RULES_NOT_EFFECTS = {"moat": "a Reaction: Game asks for it", "gardens": "scoring counts it"}


@pytest.mark.parametrize("edition", [1, 2])
def test_a_card_has_an_effect_exactly_when_its_text_says_more_than_its_bonuses(
        edition: int) -> None:
    # cards.py is data and effects/ registers what they do: a card left out of the
    # registry would quietly do only its "+" bonuses, and a misspelt id nothing at all
    cards = catalogue(edition)
    assert set(EFFECTS[edition]) <= set(cards)
    for card_id, card in cards.items():
        says_more = not BONUSES_ONLY.fullmatch(card.text) and card_id not in RULES_NOT_EFFECTS
        assert (card_id in EFFECTS[edition]) == says_more, (edition, card_id, card.text)
