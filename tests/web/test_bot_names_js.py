"""A bot is named one way, under Node: a seat the server names "Bot 2 (big_money)" is shown
by its level as the lobby names it, in the page's language ("Easy bot", the lobby's "2 ·
Easy"), on the table, the log's names, the end, a replay's title and the lobby's lists;
two bots of one level at a table are told apart by their seats."""

from __future__ import annotations

import functools
from typing import Any

import pytest

from .node import needs_node, run_module

pytestmark = [pytest.mark.integration, needs_node]  # Node.js runs the modules

SCRIPT = """
globalThis.localStorage = { getItem: () => null, setItem: () => {} };
const { I18n } = await import("%(i18n)s");
const { levelName } = await import("%(bot_levels)s");
const { nameList } = await import("%(names)s");
const { replayTitle } = await import("%(replay)s");

const text = (node) => (typeof node === "string" ? node
  : Array.isArray(node) ? node.map(text).join("") : node ? text(node.children) : "");
const out = {};
for (const lang of ["en", "pl", "sk", "lt"]) {
  const i18n = new I18n(null, [lang]);
  const seats = [{ name: "Ala" }, { name: "Bot 2 (big_money)", bot: "big_money" }];
  out[lang] = {
    seat: i18n.seatName("Bot 2 (big_money)"),
    level: levelName("big_money", i18n),
    strong3: i18n.seatName("Bot 3 (strong:3)"),
    lobbyList: text(nameList(seats, i18n)),
    twins: i18n.seatNames(["Ala", "Bot 2 (random)", "Bot 3 (random)", "Bot 4 (strong)"]),
    title: replayTitle({ players: seats, game: { id: "g-1" } }, null, i18n),
  };
}
console.log(JSON.stringify(out));
"""


@functools.cache
def run() -> dict[str, Any]:
    result: dict[str, Any] = run_module(SCRIPT, modules=("i18n", "bot_levels", "names", "replay"))
    return result


@pytest.mark.parametrize(
    ("lang", "seat", "level"),
    [
        ("en", "Easy bot", "2 · Easy"),
        ("pl", "Łatwy bot", "2 · Łatwy"),
        ("sk", "Ľahký bot", "2 · Ľahký"),
        ("lt", "Lengvas botas", "2 · Lengvas"),
    ],
)
def test_a_bot_seat_is_named_by_its_level_as_the_lobby_names_it(
    lang: str, seat: str, level: str
) -> None:
    out = run()[lang]
    assert (out["seat"], out["level"]) == (seat, level)
    assert out["lobbyList"].startswith(f"Ala, {seat}")
    assert out["title"].startswith("Ala")
    assert seat in out["title"]


def test_two_bots_of_one_level_are_told_apart_by_their_seats() -> None:
    out = run()
    assert out["en"]["twins"] == ["Ala", "Beginner bot 2", "Beginner bot 3", "Expert bot"]
    assert out["en"]["strong3"] == "Expert bot"  # `strong:3` is `strong`: the same bot
    assert out["pl"]["twins"][1:] == ["Początkujący bot 2", "Początkujący bot 3", "Ekspercki bot"]
