"""The table's clocks in the web client, under Node without a browser (clients/web/js/
clock.js, time_control.js, and where the game page and the lobby draw them): a clock's
time as mm:ss with tenths under 10 s, the running seat counted down from when its frame
arrived and set again by the next frame, your own clock's warnings under 30 s and 10 s
(marked, and said once each), nothing drawn for a table without a clock, a player the
clock resigned "out of time" in the log and at the end, the create form's time control and
the body it sends, the lobby's lists naming a table's control, and every word in every
language of the page."""

from __future__ import annotations

import functools
from typing import Any

import pytest

from .node import needs_node, run_module

pytestmark = [pytest.mark.integration, needs_node]  # Node.js runs the modules

SCRIPT = """
globalThis.localStorage = { getItem: () => null, setItem: () => {} };
const { I18n, addWords, untranslated } = await import("%(i18n)s");
const clock = await import("%(clock)s");
const tc = await import("%(time_control)s");
const act = await import("%(page_state)s");
const { playersView } = await import("%(board)s");
const { endView } = await import("%(end)s");
const { describe } = await import("%(describe)s");
const { createBody, createView, listsView } = await import("%(lobby)s");
const { ACCOUNT_WORDS, ACCOUNT_COUNTED } = await import("%(account_words)s");
const { RATING_WORDS, RATING_COUNTED } = await import("%(rating_words)s");
const { AutomatchPanel } = await import("%(automatch)s");
addWords(ACCOUNT_WORDS, ACCOUNT_COUNTED);
addWords(RATING_WORDS, RATING_COUNTED);

const text = (node) => (typeof node === "object"
  ? node.children.map(text).join("") : String(node));
const find = (node, test, found = []) => {
  if (typeof node !== "object" || node === null) return found;
  if (test(node)) found.push(node);
  for (const child of node.children) find(child, test, found);
  return found;
};
const hasClass = (name) => (node) => (node.props.class ?? "").split(" ").includes(name);
const en = new I18n(null, ["en"]);
const pl = new I18n(null, ["pl"]);
const out = {};

out.formats = [600000, 300000, 59999, 10000, 9999, 9460, 100, 0, -5, 3600000, 3905000]
  .map(clock.formatClock);

// a 2-player table, seat 0 yours; its frames' clocks
const player = (seat, name) => ({ seat, name, hand_size: 5, deck_size: 5, points: 3,
  turns: 1, discard_top: null, in_play: [], set_aside: [], resigned: false });
const view = { edition: 2, kingdom: [], supply: { copper: 46 }, trash: [], result: null,
  turn: { number: 1, player: 1, player_turn: 1, phase: "action", actions: 1, buys: 1, coins: 0 },
  players: [player(0, "Ann"), player(1, "Bob")],
  decision: { id: 1, player: 1, kind: "play_action" } };
const clocks = (remaining, running) => ({ remaining_ms: remaining, running,
  initial_ms: 600000, increment_ms: 5000 });
const page = act.newPageState(0);
act.snapshot(page, { type: "snapshot", seq: 1, view, clocks: clocks([600000, 40000], 1) }, 1000);
const shown = (at, viewer = 0) => clock.clockFaces(page.clocks, at, viewer);
out.countdown = {
  arrived: shown(1000), later: shown(4500), beforeArrival: shown(500), end: shown(99000),
};
const chipsAt = (at) => find(playersView(page.game, en, shown(at)), hasClass("clock"))
  .map((span) => ({ cls: span.props.class, text: text(span),
    hidden: find(span, (n) => n.props["aria-hidden"] === "true").map(text) }));
out.chips = { ok: chipsAt(10000) };
const event = { kind: "phase", player: 1, zone: "buy" };
act.update(page, { type: "update", seq: 2, events: [event], decision: view.decision, view,
  clocks: clocks([28000, 35000], 0) }, 5000);
out.countdown.next = shown(5000);
out.countdown.nextLater = shown(5000 + 18500);
out.countdown.spectator = shown(5000 + 18500, null);
out.chips.low = chipsAt(5000);
out.chips.critical = chipsAt(5000 + 18500);
const plain = act.newPageState(0);
act.snapshot(plain, { type: "snapshot", seq: 1, view }, 1000);
out.noClock = { clocks: plain.clocks, faces: clock.clockFaces(plain.clocks, 2000, 0),
  drawn: find(playersView(plain.game, en, null), hasClass("clock")).length,
  key: clock.facesKey(null) };
act.update(plain, { type: "update", seq: 2, events: [event], decision: view.decision, view,
  clocks: null }, 3000);
out.noClock.afterNil = plain.clocks;
act.gameOver(page, { type: "game_over", result: { winners: [1] } }, 6000);
out.stopped = { running: page.clocks.running, shown: shown(60000) };

// your clock's warnings: said once each, again after an increment took it back above
let said = null;
out.said = [];
for (const ms of [45000, 31000, 29900, 25000, 12000, 9900, 5000, 14000, 11000, 9000, 35000,
  29000]) {
  const told = clock.clockWarning(said, ms);
  said = told.said;
  out.said.push(told.say);
}
out.levels = [30000, 29999, 10000, 9999, 0].map((ms) => clock.warningOf(ms)?.level ?? null);

// the clock's resignation in the log and at the end
const names = ["Ann", "Bob"];
out.log = [en, pl].map((i18n) => [
  describe({ kind: "resigned", player: 0, data: { reason: "timed_out" } }, names, i18n).text,
  describe({ kind: "resigned", player: 1 }, names, i18n).text]);
const playing = act.newPageState(1);
act.snapshot(playing, { type: "snapshot", seq: 1, view }, 0);
const gone = { ...view, players: [{ ...player(0, "Ann"), resigned: true }, player(1, "Bob")] };
act.update(playing, { type: "update", seq: 2, view: gone, decision: view.decision,
  events: [{ kind: "resigned", player: 0, data: { reason: "timed_out" } }] }, 0);
const resignedToo = act.newPageState(1);
act.snapshot(resignedToo, { type: "snapshot", seq: 1, view }, 0);
act.update(resignedToo, { type: "update", seq: 2, view: gone, decision: view.decision,
  events: [{ kind: "resigned", player: 0 }] }, 0);
out.playing = [playing, resignedToo].map((p) => text(playersView(p.game, en, null)));
const ended = act.newPageState(1);
act.snapshot(ended, { type: "snapshot", seq: 1, view }, 0);
ended.game.result = { winners: [1], scores: [3, 3], turns: [1, 1], resigned: [0],
  timed_out: [0], ended_by: "resignations" };
ended.game.players[0].resigned = true;
const endText = text(endView(ended.game, en, "g-1", () => ""));
out.end = { outOfTime: endText.includes("Ann (out of time)"),
  whyTimedOut: endText.includes("Out of time, so resigned: Ann."),
  saysResigned: endText.includes("(resigned)") || endText.includes("Resigned, so"),
  chip: text(playersView(ended.game, en, null)).includes("Ann (out of time)") };

// the create form: its time control, and the body it sends
const form = (rated, choice, minutes = "", increment = "") => ({ elements: {
  rated: { checked: rated }, "tc-minutes": { value: minutes },
  "tc-increment": { value: increment } } });
const account = { i18n: en, account: { name: "Ada" } };
const guest = { i18n: en, account: null };
const body = (app, rated, choice, minutes, increment) => createBody(app,
  { seats: 2, edition: "2", timeControl: choice }, form(rated, choice, minutes, increment),
  { name: "Ada", kingdom: null, bots: {} });
out.bodies = {
  unratedDefault: body(account, false, null).time_control,
  unratedNone: body(account, false, "none").time_control,
  preset: body(account, false, "3+2").time_control,
  ratedDefault: body(account, true, null),
  ratedNone: body(account, true, "none").time_control,
  ratedPreset: body(account, true, "15+10").time_control,
  custom: body(account, false, "custom", "2.5", "3").time_control,
  guestTicked: body(guest, true, "none"),
};
const field = (rated, choice) => {
  const vnode = tc.timeControlField(en, choice, rated, () => {});
  const options = find(vnode, (n) => n.tag === "option");
  return { values: options.map((o) => o.props.value),
    selected: options.filter((o) => o.props.selected).map((o) => o.props.value),
    customHidden: find(vnode, hasClass("custom-time"))[0].props.hidden };
};
out.fields = { unrated: field(false, null), rated: field(true, null),
  ratedAfterNone: field(true, "none"), custom: field(false, "custom") };
const cards = { editions: { 2: [] }, kingdoms: { 2: {} } };
const lobbyApp = (signedIn) => ({ i18n: en, account: signedIn ? { name: "Ada" } : null, cards,
  server: { bot_strategies: ["big_money"] } });
const formOf = (signedIn, rated) => createView(lobbyApp(signedIn),
  { seats: 2, edition: "2", mode: "recommended", chosen: new Set(), rated, timeControl: null,
    message: "" }, { choose: () => {}, pick: () => {}, create: () => {} });
out.createForm = [[true, true], [true, false], [false, true]].map(([signedIn, rated]) => find(
  formOf(signedIn, rated), (n) => n.tag === "option" && n.props.selected
    && n.props.value !== undefined && String(n.props.value).includes("+")
    || (n.tag === "option" && n.props.selected && n.props.value === "none"))
  .map((o) => o.props.value));

// the lobby's lists
const game = (id, control) => ({ id, seats: [{ name: "Ann" }, { name: null }], edition: 2,
  kingdom: [], kingdom_name: "First Game", time_control: control });
const lists = listsView({ open: [game("g-1", { initial_seconds: 600, increment_seconds: 5 }),
  game("g-2", null), game("g-3", { initial_seconds: 30, increment_seconds: 0 })],
playing: [], finished: [] }, en, { refresh: () => {} });
out.rows = find(lists, hasClass("game-row")).map(text);
const panel = new AutomatchPanel({ i18n: en, account: null }, () => {});
const found = (control) => {
  panel.table = { players: ["Ann", "Bob"], size: 2, edition: 2, rated: true,
    time_control: control, deadline: 0 };
  return panel.dialogView().map(text).join(" | ");
};
out.matchFound = [found({ initial_seconds: 600, increment_seconds: 5 }), found(null)];
out.texts = [{ initial_seconds: 180, increment_seconds: 2 }, { initial_seconds: 90,
  increment_seconds: 0 }, { initial_seconds: 10800, increment_seconds: 180 }]
  .map(tc.timeControlText);

// every word in every language; the new ones in Polish
out.untranslated = untranslated();
out.polish = Object.keys({ ...clock.CLOCK_WORDS, ...tc.TIME_CONTROL_WORDS })
  .filter((key) => pl.t(key) === en.t(key));
out.plWords = [pl.t("clock_30"), pl.t("time_control_of", { control: "10+5" })];
console.log(JSON.stringify(out));
"""


@functools.cache
def run() -> dict[str, Any]:
    """What the script prints, once for the module's tests."""
    result: dict[str, Any] = run_module(SCRIPT, modules=(
        "i18n", "clock", "time_control", "page_state", "board", "end", "describe", "lobby",
        "account_words", "rating_words", "automatch"))
    return result


def test_a_clock_shows_minutes_and_seconds_and_tenths_under_ten_seconds() -> None:
    assert run()["formats"] == ["10:00", "05:00", "00:59", "00:10", "00:09.9", "00:09.4",
                                "00:00.1", "00:00.0", "00:00.0", "1:00:00", "1:05:05"]


def test_the_running_seat_counts_down_from_when_its_frame_arrived() -> None:
    countdown = run()["countdown"]
    texts = {name: [face["text"] for face in faces] for name, faces in countdown.items()}
    assert texts["arrived"] == ["10:00", "00:40"]
    assert texts["later"] == ["10:00", "00:36"]  # 3.5 s later: only Bob's runs
    assert texts["beforeArrival"] == ["10:00", "00:40"]
    assert texts["end"] == ["10:00", "00:00.0"]  # never below nothing
    assert [face["running"] for face in countdown["arrived"]] == [False, True]
    # the next frame sets both clocks again, and Ann's runs
    assert texts["next"] == ["00:28", "00:35"]
    assert [face["running"] for face in countdown["next"]] == [True, False]
    assert texts["nextLater"] == ["00:09.5", "00:35"]


def test_your_own_clock_warns_under_thirty_and_under_ten_seconds() -> None:
    out = run()
    assert out["levels"] == [None, "low", "low", "critical", "critical"]
    assert [face["level"] for face in out["countdown"]["next"]] == ["low", None]
    assert [face["level"] for face in out["countdown"]["nextLater"]] == ["critical", None]
    # a spectator's page warns nobody
    assert [face["level"] for face in out["countdown"]["spectator"]] == [None, None]
    chips = out["chips"]
    assert chips["ok"] == [{"cls": "clock", "text": "Time left: 10:00", "hidden": []},
                           {"cls": "clock running", "text": "Time left: 00:31", "hidden": []}]
    # not colour alone: a mark, and words for screen readers
    assert chips["low"][0] == {"cls": "clock running low",
                               "text": "Time left: ⚠ low time: 00:28", "hidden": ["⚠ "]}
    assert chips["critical"][0]["cls"] == "clock running critical"
    assert chips["critical"][0]["text"] == "Time left: ⚠ low time: 00:09.5"
    assert chips["critical"][1]["cls"] == "clock"  # the other player's: no warning


def test_each_warning_is_said_once_and_again_after_an_increment() -> None:
    assert run()["said"] == [None, None, "clock_30", None, None, "clock_10", None, None, None,
                             "clock_10", None, "clock_30"]


def test_a_table_without_a_clock_shows_none_and_the_end_stops_them() -> None:
    out = run()
    assert out["noClock"] == {"clocks": None, "faces": None, "drawn": 0, "key": "-",
                              "afterNil": None}
    # the game over: the clocks stop where they were, and none runs
    assert out["stopped"]["running"] is None
    assert [face["text"] for face in out["stopped"]["shown"]] == ["00:27", "00:35"]


def test_a_player_out_of_time_is_said_so_in_the_log_and_at_the_end() -> None:
    out = run()
    assert out["log"] == [["Ann is out of time and resigns.", "Bob resigns."],
                          ["Ann: koniec czasu, poddaje się.", "Bob poddaje się."]]
    assert out["end"] == {"outOfTime": True, "whyTimedOut": True, "saysResigned": False,
                          "chip": True}


def test_a_player_out_of_time_is_said_so_on_their_chip_as_the_game_goes_on() -> None:
    # in a game of 3 or more players a bot plays on for them: the event says why they left
    playing, resigned = run()["playing"]
    assert "Ann (out of time)" in playing
    assert "Ann (resigned)" in resigned


def test_the_create_form_sends_the_time_control_chosen() -> None:
    out = run()
    bodies = out["bodies"]
    assert bodies["unratedDefault"] is None
    assert bodies["unratedNone"] is None
    assert bodies["preset"] == {"initial_seconds": 180, "increment_seconds": 2}
    assert bodies["ratedDefault"]["rated"] is True
    assert bodies["ratedDefault"]["time_control"] == {"initial_seconds": 600,
                                                      "increment_seconds": 5}
    assert bodies["ratedNone"] == {"initial_seconds": 600, "increment_seconds": 5}
    assert bodies["ratedPreset"] == {"initial_seconds": 900, "increment_seconds": 10}
    assert bodies["custom"] == {"initial_seconds": 150, "increment_seconds": 3}
    # a guest's table is never rated, whatever the (disabled) box says
    assert "rated" not in bodies["guestTicked"]
    assert bodies["guestTicked"]["time_control"] is None


def test_a_rated_table_is_not_offered_no_clock_and_defaults_to_ten_plus_five() -> None:
    fields = run()["fields"]
    assert fields["unrated"] == {"values": ["none", "3+2", "5+3", "10+5", "15+10", "custom"],
                                 "selected": ["none"], "customHidden": True}
    assert fields["rated"] == {"values": ["3+2", "5+3", "10+5", "15+10", "custom"],
                               "selected": ["10+5"], "customHidden": True}
    assert fields["ratedAfterNone"]["selected"] == ["10+5"]
    assert fields["custom"]["selected"] == ["custom"]
    assert fields["custom"]["customHidden"] is False
    # the lobby's form: rated only for an account that ticked it
    assert run()["createForm"] == [["10+5"], ["none"], ["none"]]


def test_the_lobby_and_a_table_found_name_its_time_control() -> None:
    out = run()
    rows = out["rows"]
    assert "Edition 2 · Clock 10+5" in rows[0]
    assert "Clock" not in rows[1]
    assert "Edition 2 · Clock 0.5+0" in rows[2]
    assert out["texts"] == ["3+2", "1.5+0", "180+180"]
    # a table found by automatch says its control too (`match_found`'s `time_control`)
    with_clock, without = out["matchFound"]
    assert "Rated gameClock 10+5Players: Ann, Bob" in with_clock
    assert "Clock" not in without


def test_every_word_is_in_every_language_of_the_page() -> None:
    out = run()
    assert out["untranslated"] == []
    assert out["polish"] == []
    assert out["plWords"] == ["Zostało 30 sekund", "Zegar 10+5"]
