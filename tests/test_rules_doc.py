"""docs/RULES.md against the engine: every card of both editions with its Polish name, cost,
types and editions; the pile sizes per player count and the empty piles that end the game;
the recommended Kingdoms; and its Polish terms against the clients' words. A card dropped
from the doc, or a wrong number, fails here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dominion.server.engine import RECOMMENDED_KINGDOMS, Card, Setup
from dominion.server.engine.cards import EDITIONS, catalogue
from tests.engine.scenario import end_phase, scenario

ROOT = Path(__file__).resolve().parent.parent
RULES = (ROOT / "docs" / "RULES.md").read_text()
PO = (ROOT / "clients" / "locale" / "pl" / "LC_MESSAGES" / "dominion.po").read_text()
WEB_WORDS = (ROOT / "clients" / "web" / "js" / "i18n.js").read_text()
EDITION_WORDS = {"both": (1, 2), "1st only": (1,), "2nd only": (2,)}
SETUP_KINGDOM = "Size Distortion"
"""A second-edition set with Gardens (a Victory pile) and Witch (a plain Kingdom pile)."""


def every_card() -> dict[str, Card]:
    """Each card of either edition once, by English name, with the editions that have it."""
    cards: dict[str, Card] = {}
    for edition in EDITIONS:
        for card in catalogue(edition).values():
            cards.setdefault(card.name, card)
    return cards


def editions_of(name: str) -> tuple[int, ...]:
    return tuple(e for e in EDITIONS if any(c.name == name for c in catalogue(e).values()))


def table(heading: str) -> list[dict[str, str]]:
    """The first markdown table after `heading`, one map per row, keyed by the header."""
    start = RULES.index(f"\n{heading}\n")
    lines = RULES[start:].split("\n| ", 1)[1].split("\n\n", 1)[0].splitlines()

    def cells(line: str) -> list[str]:
        return [cell.strip() for cell in line.strip().strip("|").split("|")]

    header = cells(lines[0])
    assert set(lines[1]) <= {"|", "-", " "}, "a header rule under the header"
    return [dict(zip(header, cells(line), strict=True)) for line in lines[2:]]


CARD_ROWS = {row["English"]: row for row in table("### The card list")}


def test_the_card_list_names_every_card_of_both_editions_once() -> None:
    rows = table("### The card list")
    assert len(rows) == len(CARD_ROWS), "a card listed twice"
    assert sorted(CARD_ROWS) == sorted(every_card())


@pytest.mark.parametrize("name", sorted(every_card()))
def test_each_card_has_the_engines_polish_name_cost_types_and_editions(name: str) -> None:
    card, row = every_card()[name], CARD_ROWS.get(name)
    assert row is not None, f"{name} is not in the card list"
    assert row["Polish"] == card.name_pl
    assert int(row["Cost"]) == card.cost
    assert row["Types"] == ", ".join(kind.value.capitalize() for kind in card.types)
    assert EDITION_WORDS[row["Edition"]] == editions_of(name)


@pytest.mark.parametrize("name", sorted(every_card()))
def test_each_card_has_a_section_under_its_names_and_cost(name: str) -> None:
    card = every_card()[name]
    found = re.search(rf"^#### {re.escape(name)} \({re.escape(card.name_pl)}\)\n\nCost (\d+),",
                      RULES, re.M)
    assert found, f"no section '#### {name} ({card.name_pl})' starting with its cost"
    assert int(found.group(1)) == card.cost


def test_the_editions_kingdom_counts_are_the_ones_the_doc_gives() -> None:
    kingdom = [row for name, row in CARD_ROWS.items() if every_card()[name].kingdom]
    per_edition = {e: sum(e in EDITION_WORDS[row["Edition"]] for row in kingdom)
                   for e in EDITIONS}
    assert per_edition == {1: 25, 2: 26}
    assert "took out six Kingdom cards" in RULES and "brought in seven" in RULES


SETUP_ROWS = {int(row["Players"]): row for row in table("### The piles per player count")}


def test_the_setup_table_has_a_row_per_player_count() -> None:
    assert sorted(SETUP_ROWS) == [2, 3, 4, 5, 6]


@pytest.mark.parametrize("players", range(2, 7))
def test_the_setup_table_has_the_engines_pile_sizes(players: int) -> None:
    row = SETUP_ROWS[players]
    supply = Setup.create(players, kingdom=SETUP_KINGDOM).supply()
    names = {card.name: card.id for card in catalogue(2).values()}
    for base in ("Copper", "Silver", "Gold", "Estate", "Duchy", "Province", "Curse"):
        assert int(row[base]) == supply[names[base]], base
    assert int(row["Kingdom pile"]) == supply["witch"]
    assert int(row["Gardens"]) == supply["gardens"]


@pytest.mark.parametrize("players", range(2, 7))
def test_the_game_ends_on_as_many_empty_piles_as_the_setup_table_says(players: int) -> None:
    needed = int(SETUP_ROWS[players]["Empty piles that end the game"])
    piles = ["curse", "cellar", "moat", "village", "smithy"]
    for empty, over in ((needed - 1, False), (needed, True)):
        game = scenario(players=players, supply=dict.fromkeys(piles[:empty], 0))
        end_phase(game)  # nothing in hand: the Buy phase's "end" ends the turn
        assert game.over is over, (players, empty)


def test_the_recommended_kingdoms_are_the_engines() -> None:
    names = {card.id: card.name for card in every_card().values()}
    documented = {(int(row["Edition"]), row["Set"]): sorted(row["Cards"].split(", "))
                  for row in table("### The Kingdom")}
    engine = {(edition, name): sorted(names[card] for card in cards)
              for edition, sets in RECOMMENDED_KINGDOMS.items() for name, cards in sets.items()}
    assert documented == engine


def test_the_polish_terms_are_the_clients_words() -> None:
    terminal = dict(re.findall(r'^msgid "(.+)"\nmsgstr "(.+)"$', PO, re.M))
    web = dict(re.findall(r'^ +(\w+): \["[^"]*", "([^"]*)"', WEB_WORDS, re.M))  # then sk, lt
    terms = {row["term"]: row["Polish"] for row in table("## Terms")}
    for english in ("Action, Treasure, Victory, Curse, Attack, Reaction",
                    "Action phase, Buy phase, Clean-up"):
        assert terms[english] == ", ".join(terminal[word] for word in english.split(", "))
    for english, key in (("Supply", "supply"), ("Trash", "trash"), ("deck", "deck")):
        assert terms[english].casefold() == web[key].casefold()


def test_every_reference_to_the_rules_is_to_docs_rules_md() -> None:
    """The rules are this repository's own: nothing points to a RULES.md a clone lacks."""
    texts = [ROOT / "README.md", *(ROOT / "docs").glob("*.md"),
             *(path for folder in ("server", "bots", "clients", "tests")
               for pattern in ("*.py", "*.mjs")
               for path in (ROOT / folder).rglob(pattern))]
    stray = [f"{path.relative_to(ROOT)}:{number}"
             for path in texts if path != Path(__file__).resolve()
             for number, line in enumerate(path.read_text().splitlines(), 1)
             if re.search(r"(?<!docs/)RULES\.md", line)]
    assert stray == []
    assert "`docs/RULES.md`: the rules the engine implements" in (ROOT / "README.md").read_text()
