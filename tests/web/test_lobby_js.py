"""The lobby's pure parts in the web client, under Node without a browser: the Kingdom laid
out by cost, drawn, a card taken out or put in (clients/web/js/kingdom_picker.js); the bot
levels, each bot named once with what it means (bot_levels.js); the Play panel's one name
field and three buttons (quick_start.js, lobby.js); a game's row (lobby_rows.js); the
header's menu (menu.js); and their words in every language."""

from __future__ import annotations

import functools
from typing import Any

import pytest

from .node import needs_node, run_module

pytestmark = [pytest.mark.integration, needs_node]  # Node.js runs the modules

SCRIPT = """
globalThis.localStorage = { getItem: () => null, setItem: () => {} };
const { I18n, untranslated } = await import("%(i18n)s");
const picker = await import("%(kingdom_picker)s");
const levels = await import("%(bot_levels)s");
const botWords = await import("%(bot_words)s");
const { createView, kingdomOf } = await import("%(lobby)s");
const { gameRow } = await import("%(lobby_rows)s");
const menu = await import("%(menu)s");
const { menuLinks } = menu;
const quick = await import("%(quick_start)s");

const find = (node, test, found = []) => {
  if (typeof node !== "object" || node === null) return found;
  if (test(node)) found.push(node);
  for (const child of node.children) find(child, test, found);
  return found;
};
const text = (node) => (typeof node === "object"
  ? node.children.map(text).join("") : String(node));
const en = new I18n(null, ["en"]);
const pl = new I18n(null, ["pl"]);
const card = (id, cost) => ({ id, name: id, cost, types: ["action"], kingdom: true });
const catalogue = { editions: { 2: [card("village", 3), card("smithy", 4), card("cellar", 2),
  card("market", 5), card("moat", 2), card("witch", 5), card("mine", 5)] },
  kingdoms: { 2: { "Set A": ["witch", "cellar", "village"], "Set B": ["mine", "moat"] } } };
en.setCatalogue(catalogue, 2);
const costOf = (c) => en.cards.get(c).cost;
// a random source that always takes the first one left
const first = () => 0;
const out = {};
out.byCost = picker.byCost(["witch", "village", "moat", "cellar", "smithy"], costOf);
out.drawn = picker.drawKingdom(["a", "b", "c", "d"], first, 3);
out.drawnAll = picker.drawKingdom(["a", "b"], Math.random, 10).length;
out.takenOut = picker.toggleCard(["a", "b", "c"], "b", 3);
out.putIn = picker.toggleCard(["a", "c"], "d", 3);
out.full = picker.toggleCard(["a", "b", "c"], "d", 3);

const strategies = ["random", "big_money", "smithy_big_money", "strong", "strong:1", "strong:2",
  "strong:3"];
out.levels = levels.botLevels(strategies);
out.levelNames = out.levels.map((s) => levels.levelName(s, en));
out.levelAbout = out.levels.map((s) => levels.levelAbout(s, en));
out.strongLevel3 = levels.botLevels(["strong:3", "big_money"]);
out.level3Name = levels.levelName("strong:3", en);

const app = { i18n: en, account: null, cards: catalogue, server: { bot_strategies: strategies } };
const state = { seats: 2, edition: "2", kingdomName: null, ownKingdom: null, level: "strong:2",
  more: false, rated: false, timeControl: null, message: "" };
const actions = { choose() {}, quick() {}, create() {}, recommend() {}, randomKingdom() {},
  toggle() {} };
const form = createView(app, state, actions);
out.nameFields = find(form, (n) => n.tag === "input" && n.props.name === "name").length;
out.quick = find(form, (n) => n.props?.dataset?.quick).map((n) => [n.props.dataset.quick, text(n)]);
out.levelSelect = find(form, (n) => n.tag === "select" && n.props.name === "bot-level")
  .map((s) => find(s, (o) => o.tag === "option").map((o) => [o.props.value, o.props.selected]))[0];
out.about = text(find(form, (n) => n.props?.id === "bot-level-about")[0]);
out.edition = text(find(form, (n) => n.props?.id === "edition-about")[0]);
const tiles = (c) => find(form, (n) => n.props?.class === `kingdom-tiles ${c}`)
  .map((ul) => find(ul, (n) => n.tag === "button").map((b) => b.props.dataset.card))[0];
out.tiles = tiles("in-kingdom");
out.others = tiles("others");
out.kingdom = kingdomOf(app, state);
out.ownKingdom = kingdomOf(app, { ...state, ownKingdom: ["mine", "moat"] });
out.chosenSet = kingdomOf(app, { ...state, kingdomName: "Set B" }).cards;

const row = gameRow({ id: "g-1", edition: 2, state: "playing", turn: 7, kingdom: ["witch",
  "cellar", "village"], kingdom_name: null, time_control: null, seats: [
  { name: "Ann", account: true, rating: { rating: 1523, provisional: false } },
  { name: "Bot 2 (strong:2)", bot: "strong:2" }] }, en, "watch");
out.row = ["row-players", "row-kingdom", "row-state"]
  .map((c) => text(find(row, (n) => n.props?.class === c)[0]));

out.guestMenu = menuLinks({ account: null, admin: false }).map(([href]) => href);
out.accountMenu = menuLinks({ account: { name: "ann" }, admin: true }).map(([href]) => href);

out.untranslated = untranslated();
// "Bot", "{level} bot" and "Menu" are the same in both
const same = ["bot_level_label", "bot_named", "menu"];
out.polish = Object.keys({ ...picker.KINGDOM_WORDS, ...botWords.BOT_LEVEL_WORDS,
  ...quick.QUICK_WORDS, ...menu.MENU_WORDS })
  .filter((key) => pl.t(key) === en.t(key) && !same.includes(key));
console.log(JSON.stringify(out));
"""


@functools.cache
def run() -> dict[str, Any]:
    """What the script prints, once for the module's tests."""
    result: dict[str, Any] = run_module(SCRIPT, modules=(
        "i18n", "kingdom_picker", "bot_levels", "bot_words", "lobby", "lobby_rows", "menu",
        "quick_start"))
    return result


def test_the_kingdom_is_laid_out_by_cost_then_name() -> None:
    assert run()["byCost"] == ["cellar", "moat", "village", "smithy", "witch"]


def test_a_kingdom_is_drawn_without_repeats_and_a_tap_takes_out_or_puts_in() -> None:
    out = run()
    assert out["drawn"] == ["a", "b", "c"]
    assert out["drawnAll"] == 2  # a pool smaller than a Kingdom: all of it
    assert out["takenOut"] == ["a", "c"]
    assert out["putIn"] == ["a", "c", "d"]
    assert out["full"] == ["a", "b", "c"]  # no place free: as it was


def test_each_bot_is_named_once_weakest_first_with_what_it_means() -> None:
    out = run()
    # measured (bench/levels.py): `strong:1` is Big Money's equal, below Smithy Big Money
    assert out["levels"] == ["random", "big_money", "strong:1", "smithy_big_money", "strong:2",
                             "strong"]  # `strong:3` is `strong`: not offered twice
    assert out["levelNames"] == ["1 · Beginner", "2 · Easy", "3 · Steady", "4 · Casual",
                                 "5 · Strong", "6 · Expert"]
    assert all(out["levelAbout"])
    assert out["level3Name"] == "6 · Expert"  # the same bot as `strong`, named as it is
    assert out["strongLevel3"] == ["big_money", "strong:3"]  # no `strong`: level 3 stays


def test_the_play_panel_has_one_name_field_the_level_said_and_three_buttons() -> None:
    out = run()
    assert out["nameFields"] == 1
    assert out["quick"] == [["bot", "Play a bot"], ["friend", "Invite a friend"],
                            ["queue", "Find an opponent"]]
    assert [value for value, selected in out["levelSelect"] if selected] == ["strong:2"]
    assert len(out["levelSelect"]) == 6
    assert out["about"].startswith("Builds around the Kingdom's best card, but attacks no one")
    assert "2016" in out["edition"]


def test_the_kingdom_shows_as_cards_by_cost_the_first_set_unless_another() -> None:
    out = run()
    assert out["tiles"] == ["cellar", "village", "witch"]
    assert out["others"] == ["moat", "smithy", "market", "mine"]  # by cost, then name
    assert out["kingdom"] == {"names": ["Set A", "Set B"], "name": "Set A", "own": False,
                              "cards": ["witch", "cellar", "village"],
                              "pool": ["village", "smithy", "cellar", "market", "moat",
                                       "witch", "mine"]}
    assert out["ownKingdom"]["own"] is True
    assert out["ownKingdom"]["cards"] == ["mine", "moat"]
    assert out["chosenSet"] == ["mine", "moat"]


def test_a_row_shows_players_with_ratings_kingdom_by_cost_and_state() -> None:
    players, kingdom, state = run()["row"]
    assert "Ann" in players and "1523" in players and "BOT" in players
    assert kingdom == "cellar, village, witch"
    assert state.endswith("Edition 2 · turns played: 7")


def test_the_menu_reaches_every_page_a_person_opens_by_themselves() -> None:
    out = run()
    # the pictograms' attribution (CC BY) is in the menu of every page
    assert out["guestMenu"] == ["/#/", "/#/top", "/stats", "/guide", "/guide#credits",
                                "/#/register"]
    assert out["accountMenu"] == ["/#/", "/#/top", "/stats", "/guide", "/guide#credits",
                                  "/@/ann",
                                  "/#/account",
                                  "/#/account/tokens", "/#/admin"]


def test_the_new_words_are_in_every_language() -> None:
    out = run()
    assert out["untranslated"] == []
    assert out["polish"] == []
