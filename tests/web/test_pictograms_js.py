"""Each card's pictogram (clients/web/js/pictograms.js, written by tools/pictograms.py from
game-icons.net's icons), under Node: every card of both editions has one, drawn on its
face; every icon vendored is one a card uses; a name's longest word sizes its letters
(card.js `nameFit`); and every long word of a name, English or Polish, has the places it
may break at (`BREAKABLE`)."""

from __future__ import annotations

import json

import pytest

from dominion.server.engine import catalogue_dict

from .node import needs_node, run_module

pytestmark = pytest.mark.integration  # Node.js runs the modules

SCRIPT = """
import { CARD_ICONS, ICON_PATHS } from "%(pictograms)s";
import { BREAKABLE, breakable, cardFace, nameFit } from "%(card)s";
import { I18n } from "%(i18n)s";

const catalogue = JSON.parse(process.argv[1]);
const i18n = new I18n(null, ["en"]);
i18n.setCatalogue({ editions: catalogue }, 2);
const used = new Set(Object.values(CARD_ICONS));
const icons = (card) => cardFace(card, i18n, { id: card, onclick: {} }).children
  .filter((child) => child?.tag === "svg")
  .map((svg) => svg.children[0].props.d);
console.log(JSON.stringify({
  cards: Object.keys(CARD_ICONS),
  drawn: Object.fromEntries(Object.keys(CARD_ICONS).map((card) => [card, icons(card)])),
  unused: Object.keys(ICON_PATHS).filter((icon) => !used.has(icon)),
  unknown: [...used].filter((icon) => !ICON_PATHS[icon]),
  breakable: BREAKABLE,
  broken: breakable("Council Laboratory"),
  fit: ["Gold", "Moneylender", "Sala obrad", "Laboratorium", "Workshop"].map(nameFit),
}));
"""


@needs_node
def test_every_card_of_both_editions_has_a_pictogram_and_every_icon_is_used() -> None:
    catalogue = catalogue_dict()
    report = run_module(SCRIPT, json.dumps(catalogue), modules=("pictograms", "card", "i18n"))
    every_card = {card["id"] for cards in catalogue.values() for card in cards}
    assert len(every_card) == 39
    assert set(report["cards"]) == every_card
    assert report["unused"] == [] and report["unknown"] == []
    for card, paths in report["drawn"].items():
        assert len(paths) == 1 and paths[0][0] in "Mm", card
    assert report["fit"] == ["", " name-longest", "", " name-longest", " name-long"]


LONG = 9
"""Letters of a word too wide for a phone's card at 12 px (bold): it needs a place to break."""


@needs_node
def test_every_long_word_of_a_name_may_break_and_only_at_its_syllables() -> None:
    catalogue = catalogue_dict()
    report = run_module(SCRIPT, json.dumps(catalogue), modules=("pictograms", "card", "i18n"))
    words = {word for cards in catalogue.values() for card in cards
             for language in ("", "_pl", "_sk", "_lt") for word in card[f"name{language}"].split()}
    assert set(report["breakable"]) == {word for word in words if len(word) >= LONG}
    assert report["broken"] == "Council Labo\u00adratory"
