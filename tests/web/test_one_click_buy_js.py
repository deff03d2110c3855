"""The Buy phase in one click, under Node without a browser (clients/web/js/one_click_buy.js
and the page's actions, page_state.js): a click on a pile the server does not offer yet,
while it offers "Play all Treasures", answers that first, then buys the pile when the next
decision offers it, or says what the coins the server counted cannot buy; "Play Treasures
by hand" keeps the click from playing anything; the choice is remembered."""

from __future__ import annotations

import functools
import json
from typing import Any

import pytest

from dominion.server.engine import catalogue_dict

from .node import needs_node, run_module

pytestmark = [pytest.mark.integration, needs_node]  # Node.js runs the modules

SCRIPT = """
const { I18n } = await import("%(i18n)s");
const act = await import("%(page_state)s");
const { messageText } = await import("%(controls)s");
const buy = await import("%(one_click_buy)s");
const { Intent } = act;

const i18n = new I18n(null, ["en"]);
i18n.setCatalogue(JSON.parse(process.argv[1]), 2);
const option = (id, kind, card = null) => ({ id, kind, card });
const decision = (id, kind, options) => ({ id, player: 0, kind, prompt: "", source: null,
  min: 1, max: 1, ordered: false, forced: false, options });
const view = (asked, coins) => ({
  edition: 2, kingdom: [], supply: { copper: 40, silver: 40, province: 8 }, trash: [],
  result: null, turn: { number: 1, player: 0, player_turn: 1, phase: "buy", actions: 1,
    buys: 1, coins },
  players: [0, 1].map((seat) => ({ seat, name: `P${seat}`, hand: ["copper"], hand_size: 4,
    in_play: [], set_aside: [], looking: [], deck_size: 5, discard_top: null, turns: 1,
    resigned: false, points: 3 })),
  decision: asked,
});
// the turn's first Buy decision: four Coppers in hand, no coins yet
const unplayed = decision(7, "buy", [option(0, "play", "copper"),
  option(1, "play_all_treasures"), option(2, "buy", "copper"), option(3, "end_phase")]);
// after "Play all Treasures": 4 coins
const played = (id = 8) => decision(id, "buy", [option(0, "buy", "copper"),
  option(1, "buy", "silver"), option(2, "end_phase")]);
const started = (asked = unplayed) => {
  const page = act.newPageState(0);
  act.snapshot(page, { type: "snapshot", game: "g", seq: 3, view: view(asked, 0) });
  return page;
};
const next = (page, asked, coins, seq = 4) => act.update(page, { type: "update", game: "g",
  seq, events: [{ kind: "played", player: 0, cards: ["copper"], zone: "hand" }],
  decision: asked, view: view(asked, coins) });
const said = (page) => (page.message ? messageText(page.message, i18n) : null);
const click = (page, card) => act.intend(page, { type: Intent.CLICK_SUPPLY, card });
const out = {};

let page = started();
out.silverFirst = click(page, "silver");
out.waiting = page.buying;
out.sameDecision = next(page, unplayed, 0);
out.silverThen = next(page, played(), 4, 5);
out.silverDone = page.buying;

page = started();
click(page, "province");
out.provinceThen = next(page, played(), 4);
out.provinceSaid = said(page);
out.provinceSending = page.sending;

page = started();
out.offered = click(page, "copper");

page = started();
click(page, "silver");
out.refused = act.answerFailed(page, 7, { refusal: "no" });
out.refusedBuying = page.buying;
out.afterRefusal = next(page, played(), 4);

page = started(decision(7, "play_action", [option(0, "end_phase")]));
out.actionPhase = click(page, "silver");
out.actionSaid = said(page);

page = started();
act.setTreasuresByHand(page, true);
out.byHand = click(page, "silver");
out.byHandSaid = said(page);

const stored = new Map();
const storage = { getItem: (k) => stored.get(k) ?? null, setItem: (k, v) => stored.set(k, v) };
out.storedAtFirst = buy.treasuresByHand(storage);
buy.rememberTreasuresByHand(storage, true);
out.storedOn = buy.treasuresByHand(storage);
buy.rememberTreasuresByHand(storage, false);
out.storedOff = buy.treasuresByHand(storage);
out.untranslated = Object.entries(buy.ONE_CLICK_WORDS)
  .filter(([, texts]) => texts.length !== 4 || new Set(texts).size < 3).map(([k]) => k);
console.log(JSON.stringify(out));
"""


@functools.cache
def run() -> dict[str, Any]:
    """What the script prints, once for the module's tests."""
    catalogue = json.dumps({"editions": catalogue_dict()})
    result: dict[str, Any] = run_module(
        SCRIPT, catalogue, modules=("i18n", "page_state", "controls", "one_click_buy"))
    return result


def answer(decision: int, option: int) -> list[dict[str, Any]]:
    return [{"type": "answer", "decision": decision, "options": [option]}]


def test_a_pile_not_yet_offered_plays_the_treasures_then_buys_it() -> None:
    out = run()
    assert out["silverFirst"] == answer(7, 1)  # "Play all Treasures"
    assert out["waiting"] == {"card": "silver", "after": 7}
    assert out["sameDecision"] == []  # the same decision again: still waiting
    assert out["silverThen"] == answer(8, 1)  # Buy Silver, in the next decision
    assert out["silverDone"] is None


def test_a_pile_still_not_offered_is_said_with_the_servers_coins() -> None:
    out = run()
    assert out["provinceThen"] == []
    assert out["provinceSaid"] == (
        "Province costs 8: you have 4 coins and can buy only what is offered.")
    assert out["provinceSending"] is None


def test_a_pile_offered_is_bought_at_once() -> None:
    assert run()["offered"] == answer(7, 2)


def test_a_refused_play_buys_nothing_later() -> None:
    out = run()
    assert out["refusedBuying"] is None
    assert out["afterRefusal"] == []


def test_only_a_buy_decision_plays_treasures() -> None:
    out = run()
    assert out["actionPhase"] == []
    assert out["actionSaid"].startswith("Silver costs 3")


def test_by_hand_a_click_plays_nothing_and_says_so() -> None:
    out = run()
    assert out["byHand"] == []
    assert out["byHandSaid"] == "Silver costs 3: you have 0 coins. Play your Treasures first."


def test_the_choice_is_remembered_off_at_first() -> None:
    out = run()
    assert (out["storedAtFirst"], out["storedOn"], out["storedOff"]) == (False, True, False)


def test_its_words_are_in_four_languages() -> None:
    assert run()["untranslated"] == []
