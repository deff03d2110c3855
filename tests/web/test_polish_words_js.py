"""The web page in Polish under Node (clients/web/js/i18n.js, describe.js, names.js): the
recommended Kingdoms and the in-server bots' seats by their Polish names, Militia's
question keeping how many cards to discard and keep, card names left in the nominative in
the log, and words about a player that do not guess the player's gender."""

from __future__ import annotations

import functools
import json
import re
from typing import Any

import pytest

from dominion.server.engine import catalogue_dict

from .node import needs_node, run_module

pytestmark = pytest.mark.integration  # Node.js runs the modules

GENDERED = re.compile(r"\(a\)|zwycięzca|poddał|poddani\b|wyszedł|przyjęli|rozegrał|odrzucił|"
                      r"jego/jej")
"""Words that guess a player's gender (a past tense, a noun), as they were."""

SCRIPT = """
import { I18n } from "%(i18n)s";
import { describe } from "%(describe)s";
import { playerName } from "%(names)s";
import { decisionView } from "%(controls)s";
import "%(automatch_words)s";

const catalogue = JSON.parse(process.argv[1]);
const out = {};
// the bar while the table waits on a bot: whom it names
const waitingOnBot = (i18n) => {
  const game = { players: [{ name: "Ala" }, { name: "Bot 2 (big_money)" }], result: null,
    turn: { player: 1, player_turn: 1, phase: "buy" }, viewer: 0,
    decision: { id: 7, player: 1, kind: "buy" }, myDecision: () => null };
  const bar = decisionView({ game, viewer: 0, autoAnswered: new Set(), picked: { ids: [] } }, i18n);
  return bar.children.find((part) => part.props?.class === "waiting-for").children.join("");
};
const militia = (hand) => ({ kind: "discard", source: "militia", prompt: "Discard down to 3 cards.",
  min: hand - 3, max: hand - 3,
  options: Array.from({ length: hand }, (_, id) => ({ id, kind: "card", card: "copper" })) });
for (const lang of ["en", "pl"]) {
  const i18n = new I18n(null, [lang]);
  i18n.setCatalogue({ editions: catalogue }, 2);
  out[lang] = {
    kingdoms: ["First Game", "Silver & Gold", "Big Money", "no such set"]
      .map((name) => i18n.kingdomName(name)),
    seats: ["Bot 2 (strong)", "Bot 3 (big_money)", "Bot 4 (strong:2)", "Ala", "Bot 5 (own)"]
      .map((name) => i18n.seatName(name)),
    seatShown: playerName({ name: "Bot 2 (strong)", bot: "strong" }, i18n).children[0],
    waitingOnBot: waitingOnBot(i18n),
    militia: [militia(5), militia(4)].map((decision) => i18n.prompt(decision)),
    poacher: i18n.prompt({ kind: "discard", source: "poacher", prompt: "Discard 1 card.",
      min: 1, max: 1, options: [{ id: 0 }] }),
    cellar: i18n.prompt({ kind: "discard", source: "cellar", prompt: "Discard any number.",
      min: 0, max: 2, options: [{ id: 0 }, { id: 1 }] }),
    reacted: describe({ kind: "reacted", player: 0, cards: ["moat"], source: "militia" },
      ["Ala"], i18n).text,
    formatText: i18n.t("format_text"),
    about: ["winner", "resigned", "seat_left", "their_turn", "rematch_accepted",
      "unrated_too_short", "unrated_pair_limit", "match_starting",
      "match_dissolved_lapsed", "match_dissolved_declined"].map((key) => i18n.t(key))
      .concat([i18n.t("winners", { who: "Ala" }), i18n.t("why_tie", { who: "Ala" }),
        i18n.t("why_resigned", { who: "Ala" })]),
  };
}
console.log(JSON.stringify(out));
"""


@functools.cache
def run() -> dict[str, Any]:
    """What the script prints, once for the module's tests."""
    result: dict[str, Any] = run_module(SCRIPT, json.dumps(catalogue_dict()),
                                        modules=("i18n", "describe", "names",
                                                 "automatch_words", "controls"))
    return result


@needs_node
def test_recommended_kingdoms_bots_and_the_text_replay_are_in_polish() -> None:
    words = run()
    assert words["pl"]["kingdoms"] == ["Pierwsza rozgrywka", "Srebro i Złoto", "Bogactwo",
                                       "no such set"]
    assert words["en"]["kingdoms"] == ["First Game", "Silver & Gold", "Big Money", "no such set"]
    assert words["pl"]["seats"] == ["Ekspercki bot", "Łatwy bot", "Silny bot", "Ala",
                                    "bot own"]
    assert words["en"]["seats"][0] == "Expert bot"  # by its level, as the lobby names it
    assert words["pl"]["seatShown"] == "Ekspercki bot"
    # the bar names the bot it waits on as the turn line does, not by the server's words
    assert words["pl"]["waitingOnBot"] == "Czekamy na: Łatwy bot (zakup)."
    assert words["pl"]["formatText"] == "tekst"


@needs_node
def test_militia_says_how_many_to_discard_and_keep() -> None:
    words = run()
    assert words["pl"]["militia"] == ["Odrzuć z ręki 2 karty; na ręce zostanie: 3.",
                                      "Odrzuć z ręki 1 kartę; na ręce zostanie: 3."]
    assert words["en"]["militia"] == ["Discard down to 3 cards."] * 2
    assert words["pl"]["poacher"] == "Odrzuć z ręki 1 kartę."
    assert words["pl"]["cellar"] == "Odrzuć karty z ręki."


@needs_node
def test_card_names_stay_in_the_nominative_in_the_log() -> None:
    words = run()
    # "Fosa", never inflected around it ("odsłania Fosa przeciw: Milicja")
    assert words["pl"]["reacted"] == "Ala odsłania: Fosa (w odpowiedzi na atak: Milicja)."
    assert words["en"]["reacted"] == "Ala reveals Moat against Militia."


@needs_node
def test_words_about_a_player_fit_any_gender() -> None:
    words = run()["pl"]["about"]
    assert words[:4] == ["wygrana", "poddaje się", "opuszcza grę", "w trakcie tury"]
    assert "Wygrywa: Ala" in words
    for text in words:  # no past tense of a player's, no "(a)", no masculine winner
        assert not GENDERED.search(text), text
