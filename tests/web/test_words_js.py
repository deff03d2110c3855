"""The page's words under Node (clients/web/js/i18n.js, describe.js, replay.js): Polish
plural forms where a count meets a noun, the bots' strategies by name in both languages,
Library's question naming the card drawn (from the decider's options), and replay
controls drawn with characters every font has."""

from __future__ import annotations

import functools
import json
from typing import Any

import pytest

from dominion.server.engine import catalogue_dict

from .node import needs_node, run_module

pytestmark = pytest.mark.integration  # Node.js runs the modules

SCRIPT = """
import { I18n, pluralForm, untranslated } from "%(i18n)s";
import { describe } from "%(describe)s";
import { replayControls, replayStops, replayTitle, stepButtons } from "%(replay)s";

const catalogue = JSON.parse(process.argv[1]);
const out = {};
for (const lang of ["en", "pl"]) {
  const i18n = new I18n(null, [lang]);
  i18n.setCatalogue({ editions: catalogue }, 2);
  out[lang] = {
    counts: [0, 1, 2, 4, 5, 11, 12, 14, 21, 22, 25, 112, 122].map((n) => i18n.count(n, "cards")),
    coins: [1, 3, 5].map((n) => i18n.count(n, "coins")),
    discarded: describe({ kind: "discarded", player: 0, count: 5 }, ["Ann"], i18n).text,
    strategies: ["big_money", "smithy_big_money", "random", "strong", "strong:2", "new_one"]
      .map((s) => i18n.strategy(s)),
    library: i18n.prompt({ kind: "set_aside", source: "library", prompt: "Set this aside?",
      options: [{ id: 0, kind: "yes", card: "village" }, { id: 1, kind: "no", card: "village" }] }),
    steps: stepButtons(i18n, 5, { answers: [1, 3, 5, 7, 9], turns: [1, 6], total: 9 }),
    // the table's seventh turn, Bob's fourth: the controls count as the board does
    controls: replayControls(i18n, { state: { players: [{ name: "Ann" }, { name: "Bob" }],
      turn: { player: 1, player_turn: 4 } }, stops: { answers: [1, 3, 5, 7, 9],
      turns: [1, 3, 5, 7, 9], total: 480 }, step: 7, total: 480 }, () => {}),
    title: replayTitle({ game: { id: "g-1" }, players: [], result: null }, {
      seats: [{ name: "Ann" }, { name: "Bob" }], state: "finished",
      finished_at: "2026-12-02T10:11:12Z", result: { winners: [0] } }, i18n),
    titleShared: replayTitle({ game: { id: "g-1", created_at: "2026-12-01T23:00:00Z" },
      players: [{ name: "Ann" }, { name: "Bob" }], result: { winners: [0, 1] } }, null, i18n),
    // a bot's seat named in the page's language, as the board names it
    titleBot: replayTitle({ game: { id: "g-1", created_at: "2026-12-01T23:00:00Z" },
      players: [{ name: "Ann" }, { name: "Bot 2 (big_money)" }], result: { winners: [0] } },
    null, i18n),
  };
}
out.untranslated = untranslated(); // the replay's words added as it loads
out.forms = [1, 2, 5, 12, 13, 22, 24, 104, 111].map((n) => pluralForm("pl", n));
const kinds = ["game_started", "drew", "turn_started", "phase", "played", "turn_started",
  "phase", "bought", "game_ended"];
out.stops = replayStops({ events: kinds.map((kind) => ({ kind })),
  events_by_answer: [4, 5, 5, 8, 9] });
out.stopsOfOlderServers = replayStops({ events: kinds.slice(0, 3).map((kind) => ({ kind })) });
console.log(JSON.stringify(out));
"""


@functools.cache
def run() -> dict[str, Any]:
    """What the script prints, once for the module's tests."""
    result: dict[str, Any] = run_module(SCRIPT, json.dumps(catalogue_dict()),
                                        modules=("i18n", "describe", "replay"))
    return result


@needs_node
def test_counts_take_their_plural_forms() -> None:
    words = run()
    assert words["forms"] == ["one", "few", "many", "many", "many", "few", "few", "few", "many"]
    assert words["pl"]["counts"] == [
        "0 kart", "1 karta", "2 karty", "4 karty", "5 kart", "11 kart", "12 kart", "14 kart",
        "21 kart", "22 karty", "25 kart", "112 kart", "122 karty"]
    assert words["en"]["counts"][:3] == ["0 cards", "1 card", "2 cards"]
    assert words["pl"]["coins"] == ["1 monetę", "3 monety", "5 monet"]
    assert words["pl"]["discarded"] == "Ann odrzuca 5 kart."
    assert words["en"]["discarded"] == "Ann discards 5 cards."


@needs_node
def test_strategies_are_named_in_each_language() -> None:
    words = run()
    # by their levels as the lobby names them (bot_words.js)
    assert words["en"]["strategies"] == ["Easy bot", "Casual bot", "Beginner bot",
                                         "Expert bot", "Strong bot", "new_one bot"]
    assert words["pl"]["strategies"] == ["Łatwy bot", "Niedzielny bot", "Początkujący bot",
                                         "Ekspercki bot", "Silny bot", "bot new_one"]


@needs_node
def test_library_asks_about_the_card_drawn() -> None:
    words = run()
    assert words["en"]["library"] == "Set aside Village instead of keeping it in hand?"
    assert words["pl"]["library"] == "Odłożyć na bok kartę Wioska zamiast brać ją na rękę?"


@needs_node
def test_replay_controls_use_characters_every_font_has() -> None:
    words = run()
    for lang in ("en", "pl"):
        steps = words[lang]["steps"]
        # back and forward by answer, the double marks by turn, then the start and the end
        assert [s["key"] for s in steps] == ["first", "prev_turn", "prev", "next", "next_turn",
                                             "last"]
        assert [s["step"] for s in steps] == [1, 1, 3, 7, 6, 9]
        for step in steps:
            assert step["label"] and step["label"] in step["text"]
            mark = step["text"].replace(step["label"], "").strip()
            mark.encode("cp1252")  # Windows-1252: in every text font (not ⏮ / ⏭)


@needs_node
def test_a_replay_stops_after_each_answer_and_at_each_turn() -> None:
    words = run()
    # the set-up's 4 events, then each answer's (one made none); turns start at 3 and 6
    assert words["stops"] == {"answers": [4, 5, 8, 9], "turns": [4, 6], "total": 9}
    # an older server says nothing of answers: every event is a stop
    assert words["stopsOfOlderServers"] == {"answers": [1, 2, 3], "turns": [1, 3], "total": 3}


def vnode_text(node: Any) -> str:
    """The text a vnode shows (its children's, joined)."""
    if isinstance(node, dict):
        return "".join(vnode_text(child) for child in node["children"])
    if isinstance(node, list):
        return "".join(vnode_text(child) for child in node)
    return "" if node is None or node is False else str(node)


def vnodes(node: Any) -> list[dict[str, Any]]:
    """Every vnode under `node`, itself included."""
    if isinstance(node, list):
        return [found for child in node for found in vnodes(child)]
    if not isinstance(node, dict):
        return []
    return [node, *vnodes(node["children"])]


@needs_node
def test_the_replay_counts_turns_as_players_do() -> None:
    words = run()
    for lang, whose, step in (("en", "Bob's turn 4", "Event 7 of 480"),
                              ("pl", "Bob: tura 4", "Zdarzenie 7 z 480")):
        shown = vnode_text(words[lang]["controls"])
        assert whose in shown and step in shown
        assert "Turn 4 of" not in shown and "Tura 4 z" not in shown
        slider = next(node for node in vnodes(words[lang]["controls"])
                      if node["props"].get("type") == "range")
        assert slider["props"]["aria-valuetext"] == whose


@needs_node
def test_the_replays_buttons_are_named_by_their_words_and_show_their_marks_apart() -> None:
    buttons = [node for node in vnodes(run()["en"]["controls"])
               if node["tag"] == "button" and node["props"].get("type") == "button"]
    assert [b["props"]["aria-label"] for b in buttons] == [
        "Start", "Previous turn", "Previous answer", "Next answer", "Next turn", "End"]
    for button in buttons:  # the word a phone hides, the mark it keeps
        classes = [child["props"]["class"] for child in button["children"]
                   if isinstance(child, dict)]
        assert sorted(classes) == ["mark", "word"]


@needs_node
def test_a_replay_is_titled_by_its_players_date_and_result() -> None:
    words = run()
    assert words["en"]["title"] == "Ann vs Bob · 2 Dec 2026 · Ann won"
    assert words["pl"]["title"] == "Ann kontra Bob · 2 gru 2026 · wygrywa Ann"
    # without the table's summary, the replay's own players, day and result
    assert words["en"]["titleShared"] == "Ann vs Bob · 1 Dec 2026 · Ann, Bob shared the win"
    assert words["pl"]["titleBot"].startswith("Ann kontra Łatwy bot")
    assert "big_money" not in words["pl"]["titleBot"], words["pl"]["titleBot"]
    assert words["untranslated"] == []
