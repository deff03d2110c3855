"""Every card's Slovak and Lithuanian name and text (server/engine/card_words.py): present
for every card and edition, none left over, and each text saying what the English one
says in that language's terms (the same bonuses, the same game words)."""

from __future__ import annotations

import re

import pytest

from dominion.server.engine.card_words import NAMES, TEXTS, CardLanguage
from dominion.server.engine.cards import all_cards

SK, LT = CardLanguage.SLOVAK, CardLanguage.LITHUANIAN

# An English term of a card text -> the language's word for it (docs/CLIENTS.md, Languages).
TERMS = {
    SK: {r"\bgain": r"získ", r"\btrash": r"\bkoš", r"\bdiscard(?!ing)": r"\bodh[oa]",
         r"\breveal": r"\buk[aá][zž]", r"\bdeck\b": r"balíč", r"\bAttack": r"\bútok",
         r"\bCurse": r"Preklia", r"\bSilver": r"Striebro", r"\bGold\b": r"Zlato",
         r"\bCopper": r"Meď", r"\bplay(?!er)": r"\bzahr|\bhrá"},
    LT: {r"\bgain": r"\bgau", r"\btrash": r"šiukšlyn", r"\bdiscard(?!ing)": r"\bišme",
         r"\breveal": r"atskle", r"\bdeck\b": r"\bden", r"\bAttack": r"\batak",
         r"\bCurse": r"Prakeiksm", r"\bSilver": r"Sidabr", r"\bGold\b": r"Auks",
         r"\bCopper": r"\bVar", r"\bplay(?!er)": r"žais|žaid"},
}
BONUSES = {
    SK: ((r"\+(\d+) Cards?", r"\+(\d+) kart"), (r"\+(\d+) Actions?", r"\+(\d+) akci"),
         (r"\+(\d+) Buys?", r"\+(\d+) nákup"), (r"\+(\d+) coins?", r"\+(\d+) min"),
         (r"(-?\d+) VP", r"(-?\d+) víťazn")),
    LT: ((r"\+(\d+) Cards?", r"\+(\d+) kort"), (r"\+(\d+) Actions?", r"\+(\d+) veiksm"),
         (r"\+(\d+) Buys?", r"\+(\d+) pirkim"), (r"\+(\d+) coins?", r"\+(\d+) monet"),
         (r"(-?\d+) VP", r"(-?\d+) pergalės tašk")),
}


@pytest.mark.parametrize("lang", list(CardLanguage))
@pytest.mark.parametrize("card", all_cards(), ids=lambda c: f"{c['id']}-{c['editions']}")
def test_the_text_says_what_the_english_one_says(card: dict[str, object],
                                                 lang: CardLanguage) -> None:
    english, text = str(card["text"]), str(card[f"text_{lang}"])
    assert card[f"name_{lang}"] and text and text != english
    for term, word in TERMS[lang].items():
        if re.search(term, english, re.IGNORECASE):
            assert re.search(word, text, re.IGNORECASE), (term, text)
    for bonus, translated in BONUSES[lang]:
        assert re.findall(bonus, english) == re.findall(translated, text), (bonus, text)


def test_no_name_or_text_is_left_over() -> None:
    """An entry no card reads (a renamed card, an edition's text no longer told apart)."""
    cards = all_cards()
    for lang in CardLanguage:
        assert set(NAMES[lang]) == {card["id"] for card in cards}
        assert set(TEXTS[lang].values()) == {card[f"text_{lang}"] for card in cards}
        assert len(TEXTS[lang]) == len(cards)
